// SPDX-License-Identifier: MIT
// The CSV encoding of the allocation log: a header naming the columns (the time column's
// name carries the unit: time_ns, time_us, time_ms or time_s), then one record per line.
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/alloclog/AllocLogBuilder.h"
#include "formats/alloclog/AllocLogReaders.h"
#include "io/CsvSplit.h"
#include "io/InputFile.h"
#include "io/LineReader.h"
#include "io/Numbers.h"

namespace memviz {

namespace {

enum Column { Time, Action, Address, Size, Device, Op, Category, Stack, ColumnCount };
constexpr std::array<const char*, ColumnCount> kColumnNames = {"time",   "action", "address",  "size",
                                                               "device", "op",     "category", "stack"};

struct CsvLayout {
    std::array<int, ColumnCount> index{};
    std::size_t fields = 0;
    std::int64_t nsPerUnit = 1;
};

std::string lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

CsvLayout parseHeader(const LineReader& lines, std::string_view header) {
    CsvLayout layout;
    layout.index.fill(-1);
    CsvSplitter splitter;
    std::vector<std::string_view> fields;
    if (!splitter.split(header, fields)) failAtLine(lines, "malformed quoting in the header line");
    layout.fields = fields.size();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name = lowered(trimmed(fields[i]));
        int column = -1;
        if (name.starts_with("time_")) {
            const auto unit = timeUnitNs(std::string_view(name).substr(5));
            if (!unit)
                failAtLine(lines, "unknown time unit in column \"" + name + "\" (use time_ns, time_us, time_ms or time_s)");
            layout.nsPerUnit = *unit;
            column = Time;
        } else {
            for (int c = Action; c < ColumnCount; ++c)
                if (name == kColumnNames[static_cast<std::size_t>(c)]) column = c;
        }
        if (name == "time") failAtLine(lines, "the time column must name its unit: time_ns, time_us, time_ms or time_s");
        if (column < 0) failAtLine(lines, "unknown column \"" + name + "\" in the header");
        if (layout.index[static_cast<std::size_t>(column)] >= 0)
            failAtLine(lines, "column \"" + name + "\" appears twice in the header");
        layout.index[static_cast<std::size_t>(column)] = static_cast<int>(i);
    }
    for (int c : {Time, Action, Address, Size})
        if (layout.index[static_cast<std::size_t>(c)] < 0)
            failAtLine(lines, std::string("the header has no \"") +
                                  (c == Time ? "time_<unit>" : kColumnNames[static_cast<std::size_t>(c)]) +
                                  "\" column (required: time_<unit>, action, address, size)");
    return layout;
}

std::string_view field(const std::vector<std::string_view>& f, const CsvLayout& l, Column c) {
    const int i = l.index[static_cast<std::size_t>(c)];
    return i < 0 ? std::string_view{} : trimmed(f[static_cast<std::size_t>(i)]);
}

} // namespace

void readAllocLogCsv(LineReader& lines, std::string_view header, AllocLogBuilder& builder, const Progress& progress) {
    const CsvLayout layout = parseHeader(lines, header);
    CsvSplitter splitter;
    std::vector<std::string_view> f;
    f.reserve(layout.fields);
    std::string_view line;
    while (lines.next(line)) {
        if (line.empty() || line.front() == '#') continue;
        if (!splitter.split(line, f)) failAtLine(lines, "malformed quoting");
        if (f.size() != layout.fields)
            failAtLine(lines, "expected " + std::to_string(layout.fields) + " fields as in the header, found " +
                                  std::to_string(f.size()));
        AllocLogRecord r;
        const std::string_view action = field(f, layout, Action);
        if (action == "alloc") r.isAlloc = true;
        else if (action == "free") r.isAlloc = false;
        else failAtLine(lines, "unknown action \"" + std::string(action) + "\" (expected alloc or free)");

        const auto t = parseTimeNs(field(f, layout, Time), layout.nsPerUnit);
        if (!t)
            failAtLine(lines, "time \"" + std::string(field(f, layout, Time)) +
                                  "\" is not a number, or does not fit in int64 nanoseconds");
        r.timeNs = *t;

        const std::string_view addr = field(f, layout, Address);
        const auto a = parseAddress(addr);
        if (!a) failAtLine(lines, "address \"" + std::string(addr) + "\" is not a hex (0x...) or decimal address");
        r.address = *a;

        const std::string_view size = field(f, layout, Size);
        if (!size.empty()) {
            const auto s = parseInt64(size);
            if (!s) failAtLine(lines, "size \"" + std::string(size) + "\" is not an integer");
            if (*s < 0) failAtLine(lines, "negative size " + std::string(size));
            r.size = *s;
        } else if (r.isAlloc) {
            failAtLine(lines, "an alloc record needs a size");
        }
        r.device = field(f, layout, Device);
        r.op = field(f, layout, Op);
        r.category = field(f, layout, Category);
        r.stack = field(f, layout, Stack);
        builder.add(r, lines.lineNumber());
        reportLineProgress(lines, progress);
    }
}

} // namespace memviz
