// SPDX-License-Identifier: MIT
#include "io/JsonError.h"

#include "io/Utf8.h"

namespace memviz {

std::optional<std::size_t> jsonStopOffset(simdjson::ondemand::document* doc, std::string_view data) {
    if (!doc) return std::nullopt;
    const char* at = nullptr;
    if (doc->current_location().get(at)) return std::nullopt;
    if (at < data.data() || at > data.data() + data.size()) return std::nullopt;
    return static_cast<std::size_t>(at - data.data());
}

bool jsonAtEnd(simdjson::ondemand::document& doc) {
    return doc.is_alive() && doc.current_location().error() == simdjson::OUT_OF_BOUNDS;
}

std::optional<std::size_t> scanForJsonError(std::string_view data, simdjson::error_code error) {
    if (error == simdjson::UTF8_ERROR) {
        const std::size_t at = firstInvalidUtf8(data);
        if (at < data.size()) return at;
        return std::nullopt;
    }
    if (error == simdjson::UNESCAPED_CHARS) {
        bool inString = false, escaped = false;
        for (std::size_t i = 0; i < data.size(); ++i) {
            const auto c = static_cast<unsigned char>(data[i]);
            if (!inString) {
                inString = c == '"';
            } else if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            } else if (c < 0x20) {
                return i;
            }
        }
    }
    return std::nullopt;
}

std::string describeJsonError(const std::string& path, std::string_view json, simdjson::ondemand::document* doc,
                              simdjson::error_code error, std::optional<std::size_t> fallback, const std::string& context) {
    if (error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || error == simdjson::UNCLOSED_STRING)
        return path + ": byte " + std::to_string(json.size()) +
               ": the JSON ends in the middle of an object, array or string (truncated file?)";
    std::optional<std::size_t> at = jsonStopOffset(doc, json);
    if (!at) at = scanForJsonError(json, error);
    if (!at) at = fallback;
    std::string where = path + ": ";
    if (!context.empty()) where += context + ", ";
    if (at) where += "byte " + std::to_string(*at) + ", ";
    where.resize(where.size() - 2);
    return where + ": invalid JSON: " + simdjson::error_message(error);
}

} // namespace memviz
