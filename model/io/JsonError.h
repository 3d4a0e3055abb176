#pragma once
// One wording for JSON errors from simdjson On-Demand, shared by the JSON importers:
// "FILE: byte N: invalid JSON: ..." (or a truncation message at the end of the data).
#include <simdjson.h>

#include <string>

namespace memviz {

inline std::string describeJsonError(const std::string& path, const std::string& json, simdjson::ondemand::document& doc,
                                     simdjson::error_code error) {
    if (error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || error == simdjson::UNCLOSED_STRING)
        return path + ": byte " + std::to_string(json.size()) +
               ": the JSON ends in the middle of an object, array or string (truncated file?)";
    const char* at = nullptr;
    const std::string where = !doc.current_location().get(at) && at >= json.data() && at <= json.data() + json.size()
                                  ? "byte " + std::to_string(at - json.data())
                                  : "byte " + std::to_string(json.size()) + " (the end of the data)";
    return path + ": " + where + ": invalid JSON: " + simdjson::error_message(error);
}

} // namespace memviz
