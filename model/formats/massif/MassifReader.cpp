// SPDX-License-Identifier: MIT
#include "formats/massif/MassifReader.h"

#include <vector>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "formats/massif/MassifLabel.h"
#include "io/InputFile.h"
#include "io/LineReader.h"
#include "io/Numbers.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

constexpr const char* kDevice = "memory";

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string shown(std::string_view line) {
    constexpr std::size_t kMax = 80;
    return "\"" + std::string(line.substr(0, kMax)) + (line.size() > kMax ? "…" : "") + "\"";
}

// "n<children>: <bytes> <label>", indented one space per level.
struct TreeLine {
    std::int64_t children = 0;
    std::int64_t bytes = 0;
    std::string_view label;
};

std::optional<TreeLine> parseTreeLine(std::string_view line) {
    line = trim(line);
    if (line.size() < 2 || line[0] != 'n') return std::nullopt;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    TreeLine t;
    const auto children = parseInt64(line.substr(1, colon - 1));
    if (!children || *children < 0) return std::nullopt;
    t.children = *children;
    std::string_view rest = trim(line.substr(colon + 1));
    const std::size_t space = rest.find(' ');
    const auto bytes = parseInt64(rest.substr(0, space));
    if (!bytes || *bytes < 0) return std::nullopt;
    t.bytes = *bytes;
    // No label ("n0: 5000", or one cut by a '#' comment) is an empty label, not a null one
    // (the store's label column is NOT NULL; fuzz_massif found it).
    t.label = space == std::string_view::npos ? std::string_view("") : trim(rest.substr(space + 1));
    return t;
}

} // namespace

MassifReader::MassifReader(LineReader& lines, TraceWriter& out)
    : lines_(lines), out_(out),
      insertSnapshot_(out.database(), "INSERT INTO massif_snapshots(trace_id, snapshot, time, x, heap_bytes, extra_bytes, "
                                      "stacks_bytes, tree) VALUES (?,?,?,?,?,?,?,?)"),
      insertNode_(out.database(), "INSERT INTO massif_tree_nodes(trace_id, snapshot, node_id, parent_id, bytes, address, "
                                  "function, location, label) VALUES (?,?,?,?,?,?,?,?,?)") {}

std::string MassifReader::where() const {
    std::string w = "line " + std::to_string(lines_.lineNumber());
    if (currentSnapshot_ >= 0) w += " (snapshot " + std::to_string(currentSnapshot_) + ")";
    return w;
}

void MassifReader::fail(const std::string& message) const {
    throw ImportError(lines_.input().path() + ": " + where() + ": " + message);
}

bool MassifReader::nextLine(std::string_view& line) {
    // Like ms_print: '#' starts a comment anywhere, and blank lines do not count.
    while (lines_.next(line)) {
        const std::size_t hash = line.find('#');
        if (hash != std::string_view::npos) line = line.substr(0, hash);
        if (!trim(line).empty()) return true;
    }
    return false;
}

std::string_view MassifReader::expectField(std::string_view name) {
    std::string_view line;
    if (!nextLine(line)) fail("expected a \"" + std::string(name) + "=\" line, got the end of the file");
    if (!line.starts_with(name) || line.size() <= name.size() || line[name.size()] != '=')
        fail("expected a \"" + std::string(name) + "=\" line, got " + shown(line));
    return trim(line.substr(name.size() + 1));
}

std::int64_t MassifReader::expectCount(std::string_view name) {
    const std::string_view text = expectField(name);
    const auto v = parseInt64(text);
    if (!v || *v < 0) fail(std::string(name) + " is not a byte count: " + shown(text));
    return *v;
}

void MassifReader::readHeader() {
    std::string_view line;
    std::string desc;
    bool haveLine = nextLine(line);
    while (haveLine && line.starts_with("desc:")) {
        if (!desc.empty()) desc += '\n';
        desc += trim(line.substr(5));
        haveLine = nextLine(line);
    }
    if (!haveLine || !line.starts_with("cmd:")) fail("missing the \"cmd:\" line");
    out_.setMetadata(metadata_key::kMassifDesc, desc);
    out_.setMetadata(metadata_key::kMassifCmd, trim(line.substr(4)));
    if (!nextLine(line) || !line.starts_with("time_unit:")) fail("missing the \"time_unit:\" line");
    timeUnit_ = std::string(trim(line.substr(10)));
    out_.setMetadata(metadata_key::kMassifTimeUnit, timeUnit_);
    if (timeUnit_ == "i") out_.setTimeKind("instructions");
    else if (timeUnit_ == "B") out_.setTimeKind("bytes");
    else if (const auto ns = timeUnitNs(timeUnit_)) nsPerUnit_ = *ns; // ms; s in heaptrack_print's export
    else fail("unknown time_unit \"" + timeUnit_ + "\" (expected i, ms or B)");
}

void MassifReader::setUpSeries() {
    device_ = out_.device(kDevice);
    // The useful heap, the allocator's extra bytes and the stacks stack up to the total,
    // which is the device's primary series (massif's peak is a peak of the total).
    heapSeries_ = out_.createSeries(device_, "useful heap", "bytes", false);
    extraSeries_ = out_.createSeries(device_, "extra heap", "bytes", false);
    stacksSeries_ = out_.createSeries(device_, "stacks", "bytes", false);
    totalSeries_ = out_.createSeries(device_, "total", "bytes", true);
    for (std::int64_t id : {heapSeries_, extraSeries_, stacksSeries_}) out_.setSeriesStyle(id, kSeriesStacked);
}

std::int64_t MassifReader::parseX(std::string_view time) {
    if (nsPerUnit_ > 0) {
        const auto ns = parseTimeNs(time, nsPerUnit_);
        if (!ns || *ns < 0) fail("time is not a non-negative number: " + shown(time));
        return *ns;
    }
    const auto v = parseInt64(time);
    if (!v || *v < 0) fail("time is not a non-negative whole number: " + shown(time));
    return *v;
}

void MassifReader::run(const Progress& progress) {
    readHeader();
    setUpSeries();
    std::string_view line;
    while (nextLine(line)) {
        readSnapshot(line);
        if ((snapshotCount_ & 63) == 0) progress.update(lines_.input().fileOffset(), lines_.input().fileSize());
    }
    if (snapshotCount_ == 0) fail("the file has no snapshots");
    out_.setMetadata(metadata_key::kMassifSnapshots, std::to_string(snapshotCount_));
}

void MassifReader::readSnapshot(std::string_view first) {
    if (!first.starts_with("snapshot=")) fail("expected a \"snapshot=\" line, got " + shown(first));
    Snapshot s;
    const auto number = parseInt64(trim(first.substr(9)));
    if (!number || *number < 0) fail("snapshot number is not a whole number: " + shown(first));
    s.number = *number;
    currentSnapshot_ = s.number;
    if (!seen_.insert(s.number).second) fail("snapshot " + std::to_string(s.number) + " appears twice");
    s.time = std::string(expectField("time"));
    s.x = parseX(s.time);
    s.heap = expectCount("mem_heap_B");
    s.extra = expectCount("mem_heap_extra_B");
    s.stacks = expectCount("mem_stacks_B");
    s.tree = std::string(expectField("heap_tree"));
    if (s.tree != "empty" && s.tree != "detailed" && s.tree != "peak")
        fail("heap_tree must be empty, detailed or peak, got " + shown(s.tree));
    std::int64_t total = 0;
    if (__builtin_add_overflow(s.heap, s.extra, &total) || __builtin_add_overflow(total, s.stacks, &total))
        fail("mem_heap_B + mem_heap_extra_B + mem_stacks_B is past 2^63 - 1 bytes");

    if (s.x < lastX_) {
        out_.warn("out_of_order_time", where(), "snapshots earlier than the one before them; drawn at the earlier time");
        s.x = lastX_;
    }
    lastX_ = s.x;
    out_.addPoint(heapSeries_, s.x, s.heap);
    out_.addPoint(extraSeries_, s.x, s.extra);
    out_.addPoint(stacksSeries_, s.x, s.stacks);
    out_.addPoint(totalSeries_, s.x, total);
    if (s.tree == "peak") {
        if (havePeak_) out_.warn("second_peak", where(), "more than one peak snapshot; the last one is the peak");
        havePeak_ = true;
        out_.setDevicePeak(device_, total, s.x);
        out_.setMetadata(metadata_key::kMassifPeakSnapshot, std::to_string(s.number));
    }
    insertSnapshot_.bind(1, out_.traceId())
        .bind(2, s.number)
        .bind(3, s.time)
        .bind(4, s.x)
        .bind(5, s.heap)
        .bind(6, s.extra)
        .bind(7, s.stacks)
        .bind(8, s.tree)
        .run();
    ++snapshotCount_;
    if (s.tree != "empty") readTree(s);
}

void MassifReader::readTree(const Snapshot& s) {
    struct Open {
        std::int64_t id, remaining, bytes, childBytes, line;
    };
    std::vector<Open> open;
    std::int64_t nextId = 0;
    std::int64_t rootBytes = 0;
    const auto readNode = [&](std::int64_t parent) {
        std::string_view line;
        if (!nextLine(line)) fail("expected a heap-tree node line (n<children>: <bytes> <label>), got the end of the file");
        const auto node = parseTreeLine(line);
        if (!node) fail("expected a heap-tree node line (n<children>: <bytes> <label>), got " + shown(line));
        const MassifLabel label = parseMassifLabel(node->label);
        insertNode_.bind(1, out_.traceId()).bind(2, s.number).bind(3, nextId).bind(4, parent).bind(5, node->bytes);
        insertNode_.bindOptional(6, label.address);
        insertNode_.bind(7, label.function).bind(8, label.location).bind(9, node->label).run();
        if (parent < 0) rootBytes = node->bytes;
        else if (Open& p = open.back(); p.childBytes >= 0 && __builtin_add_overflow(p.childBytes, node->bytes, &p.childBytes))
            p.childBytes = -1; // past int64: cannot add up to the node's bytes (warned below)
        if (node->children > 0) open.push_back({nextId, node->children, node->bytes, 0, lines_.lineNumber()});
        ++nextId;
    };
    readNode(-1);
    while (!open.empty()) {
        Open& top = open.back();
        if (top.remaining == 0) {
            if (top.childBytes != top.bytes)
                out_.warn("massif_tree_sum", "line " + std::to_string(top.line) + " (snapshot " + std::to_string(s.number) + ")",
                          "heap-tree nodes whose children's bytes do not add up to the node's own; stored as written");
            open.pop_back();
            continue;
        }
        --top.remaining;
        readNode(top.id);
    }
    if (rootBytes != s.heap)
        out_.warn("massif_tree_total", where(),
                  "heap trees whose total differs from the snapshot's mem_heap_B; stored as written");
}

} // namespace memviz
