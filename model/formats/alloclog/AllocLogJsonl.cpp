// SPDX-License-Identifier: MIT
// The JSON Lines encoding of the allocation log: a header object
// {"memviz_alloc_log": 1, "time_unit": "ns"} then one object per line.
#include <simdjson.h>

#include <string>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/alloclog/AllocLogBuilder.h"
#include "formats/alloclog/AllocLogReaders.h"
#include "io/CsvSplit.h"
#include "io/InputFile.h"
#include "io/JsonError.h"
#include "io/JsonSkip.h"
#include "io/LineReader.h"
#include "io/Numbers.h"

namespace memviz {

namespace {

namespace od = simdjson::ondemand;

static_assert(LineReader::kPadding >= simdjson::SIMDJSON_PADDING, "lines must carry simdjson's padding");

od::object objectOf(od::parser& parser, od::document& doc, std::string_view line, const LineReader& lines) {
    // simdjson skips what it is not asked for, however deep: refuse absurd nesting first.
    const std::size_t start = line.find_first_not_of(" \t");
    if (start != std::string_view::npos && (line[start] == '{' || line[start] == '[') &&
        skipJsonContainer(line.data(), start, line.size()) == kJsonTooDeep) // kPadding bytes follow
        failAtLine(lines, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    auto result = parser.iterate(line.data(), line.size(), line.size() + simdjson::SIMDJSON_PADDING);
    if (result.error()) failAtLine(lines, std::string("invalid JSON: ") + simdjson::error_message(result.error()));
    doc = std::move(result.value_unsafe());
    od::object obj;
    if (doc.get_object().get(obj)) failAtLine(lines, "expected a JSON object");
    return obj;
}

// A number's text (or a string's content, for addresses written as "0x...").
std::string_view scalarText(od::value& v, const LineReader& lines, std::string_view key) {
    od::json_type type;
    if (v.type().get(type)) failAtLine(lines, "invalid JSON value for \"" + std::string(key) + "\"");
    if (type == od::json_type::string) {
        std::string_view s;
        if (v.get_string().get(s)) failAtLine(lines, "invalid string for \"" + std::string(key) + "\"");
        return s;
    }
    if (type != od::json_type::number) failAtLine(lines, "\"" + std::string(key) + "\" must be a number");
    std::string_view raw = v.raw_json_token();
    return trimmed(std::string_view(
        raw.data(), raw.find_first_of(" \t\r\n,}]") == std::string_view::npos ? raw.size() : raw.find_first_of(" \t\r\n,}]")));
}

std::string_view stringOf(od::value& v, const LineReader& lines, std::string_view key) {
    std::string_view s;
    if (v.get_string().get(s)) failAtLine(lines, "\"" + std::string(key) + "\" must be a string");
    return s;
}

} // namespace

void readAllocLogJsonl(LineReader& lines, std::string_view header, AllocLogBuilder& builder, const Progress& progress) {
    od::parser parser;
    od::document doc;
    std::int64_t nsPerUnit = 0;
    bool versionSeen = false;
    try {
        od::object h = objectOf(parser, doc, header, lines);
        for (auto fieldResult : h) {
            od::field f;
            std::string_view key;
            if (std::move(fieldResult).get(f) || f.unescaped_key().get(key)) failAtLine(lines, "invalid JSON in the header");
            if (key == "memviz_alloc_log") {
                const auto v = parseInt64(scalarText(f.value(), lines, key));
                if (!v || *v != 1) failAtLine(lines, "unsupported memviz_alloc_log version (this build reads version 1)");
                versionSeen = true;
            } else if (key == "time_unit") {
                const std::string_view unit = stringOf(f.value(), lines, key);
                const auto ns = timeUnitNs(unit);
                if (!ns) failAtLine(lines, "unknown time_unit \"" + std::string(unit) + "\" (use ns, us, ms or s)");
                nsPerUnit = *ns;
            }
        }
    } catch (const simdjson::simdjson_error& e) {
        failAtLine(lines, std::string("invalid JSON in the header: ") + e.what());
    }
    if (!versionSeen) failAtLine(lines, "the first line must be the header {\"memviz_alloc_log\": 1, \"time_unit\": \"ns\"}");
    if (!nsPerUnit) failAtLine(lines, "the header must state \"time_unit\" (ns, us, ms or s)");

    std::string_view line;
    while (lines.next(line)) {
        if (trimmed(line).empty()) continue;
        AllocLogRecord r;
        bool haveTime = false, haveAction = false, haveAddress = false;
        try {
            od::object obj = objectOf(parser, doc, line, lines);
            for (auto fieldResult : obj) {
                od::field f;
                std::string_view key;
                if (std::move(fieldResult).get(f) || f.unescaped_key().get(key)) failAtLine(lines, "invalid JSON");
                od::value& v = f.value();
                if (key == "time") {
                    const std::string_view text = scalarText(v, lines, key);
                    const auto t = parseTimeNs(text, nsPerUnit);
                    if (!t) failAtLine(lines, "time " + std::string(text) + " does not fit in int64 nanoseconds");
                    r.timeNs = *t;
                    haveTime = true;
                } else if (key == "action") {
                    const std::string_view a = stringOf(v, lines, key);
                    if (a == "alloc") r.isAlloc = true;
                    else if (a == "free") r.isAlloc = false;
                    else failAtLine(lines, "unknown action \"" + std::string(a) + "\" (expected alloc or free)");
                    haveAction = true;
                } else if (key == "address") {
                    const std::string_view text = scalarText(v, lines, key);
                    const auto a = parseAddress(text);
                    if (!a) failAtLine(lines, "address \"" + std::string(text) + "\" is not a hex (0x...) or decimal address");
                    r.address = *a;
                    haveAddress = true;
                } else if (key == "size") {
                    const std::string_view text = scalarText(v, lines, key);
                    const auto s = parseInt64(text);
                    if (!s) failAtLine(lines, "size " + std::string(text) + " is not an integer");
                    if (*s < 0) failAtLine(lines, "negative size " + std::string(text));
                    r.size = *s;
                } else if (key == "device") {
                    r.device = stringOf(v, lines, key);
                } else if (key == "op") {
                    r.op = stringOf(v, lines, key);
                } else if (key == "category") {
                    r.category = stringOf(v, lines, key);
                } else if (key == "stack") {
                    r.stack = stringOf(v, lines, key);
                } else {
                    failAtLine(lines, "unknown field \"" + std::string(key) + "\"");
                }
            }
            if (!jsonAtEnd(doc)) failAtLine(lines, "unexpected text after the JSON object");
        } catch (const simdjson::simdjson_error& e) {
            failAtLine(lines, std::string("invalid JSON: ") + e.what());
        }
        if (!haveTime || !haveAction || !haveAddress)
            failAtLine(lines, std::string("missing \"") + (!haveTime ? "time" : !haveAction ? "action" : "address") + "\"");
        if (r.isAlloc && !r.size) failAtLine(lines, "an alloc record needs a size");
        builder.add(r, lines.lineNumber());
        reportLineProgress(lines, progress);
    }
}

} // namespace memviz
