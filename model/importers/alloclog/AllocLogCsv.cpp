// The CSV encoding of the allocation log: a header naming the columns (the time column's
// name carries the unit: time_ns, time_us, time_ms or time_s), then one record per line.
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "core/Errors.h"
#include "core/Progress.h"
#include "importers/alloclog/AllocLogBuilder.h"
#include "importers/alloclog/AllocLogReaders.h"
#include "io/CsvSplit.h"
#include "io/InputFile.h"
#include "io/LineReader.h"
#include "io/Numbers.h"

namespace memviz {

namespace {

enum Column { Time, Action, Address, Size, Device, Op, Category, Stack, ColumnCount };
constexpr std::array<const char*, ColumnCount> kColumnNames = {"time", "action", "address", "size",
                                                               "device", "op", "category", "stack"};

struct CsvLayout {
    std::array<int, ColumnCount> index{};
    std::size_t fields = 0;
    std::int64_t nsPerUnit = 1;
};

[[noreturn]] void failAt(const LineReader& lines, const std::string& what) {
    throw ImportError(lines.input().path() + ": " + lineLocation(lines) + ": " + what);
}

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
    if (!splitter.split(header, fields)) failAt(lines, "malformed quoting in the header line");
    layout.fields = fields.size();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name = lowered(trimmed(fields[i]));
        int column = -1;
        if (name.starts_with("time_")) {
            const auto unit = timeUnitNs(std::string_view(name).substr(5));
            if (!unit) failAt(lines, "unknown time unit in column \"" + name + "\" (use time_ns, time_us, time_ms or time_s)");
            layout.nsPerUnit = *unit;
            column = Time;
        } else {
            for (int c = Action; c < ColumnCount; ++c)
                if (name == kColumnNames[static_cast<std::size_t>(c)]) column = c;
        }
        if (name == "time") failAt(lines, "the time column must name its unit: time_ns, time_us, time_ms or time_s");
        if (column < 0) failAt(lines, "unknown column \"" + name + "\" in the header");
        if (layout.index[static_cast<std::size_t>(column)] >= 0) failAt(lines, "column \"" + name + "\" appears twice in the header");
        layout.index[static_cast<std::size_t>(column)] = static_cast<int>(i);
    }
    for (int c : {Time, Action, Address, Size})
        if (layout.index[static_cast<std::size_t>(c)] < 0)
            failAt(lines, std::string("the header has no \"") + (c == Time ? "time_<unit>" : kColumnNames[static_cast<std::size_t>(c)]) +
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
        if (!splitter.split(line, f)) failAt(lines, "malformed quoting");
        if (f.size() != layout.fields)
            failAt(lines, "expected " + std::to_string(layout.fields) + " fields as in the header, found " +
                              std::to_string(f.size()) +
                              (lines.lastLineUnterminated() ? " (the file ends in the middle of this record: truncated?)" : ""));
        AllocLogRecord r;
        const std::string_view action = field(f, layout, Action);
        if (action == "alloc") r.isAlloc = true;
        else if (action == "free") r.isAlloc = false;
        else failAt(lines, "unknown action \"" + std::string(action) + "\" (expected alloc or free)");

        const auto t = parseTimeNs(field(f, layout, Time), layout.nsPerUnit);
        if (!t) failAt(lines, "time \"" + std::string(field(f, layout, Time)) + "\" is not a number that fits in int64 nanoseconds");
        r.timeNs = *t;

        const std::string_view addr = field(f, layout, Address);
        const auto a = parseAddress(addr);
        if (!a) failAt(lines, "address \"" + std::string(addr) + "\" is not a hex (0x...) or decimal address");
        r.address = *a;

        const std::string_view size = field(f, layout, Size);
        if (!size.empty()) {
            const auto s = parseInt64(size);
            if (!s) failAt(lines, "size \"" + std::string(size) + "\" is not an integer");
            if (*s < 0) failAt(lines, "negative size " + std::string(size));
            r.size = *s;
        } else if (r.isAlloc) {
            failAt(lines, "an alloc record needs a size");
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
