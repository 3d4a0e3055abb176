// SPDX-License-Identifier: MIT
#pragma once
// Reads the records of a heaptrack data file (after heaptrack_interpret: file format
// versions 1 to 3) into a HeaptrackModel and a HeaptrackTimeline, with heaptrack_print's
// semantics: `-` names an allocation info, and a `-` of the info the last `+` named, with no
// other `+` or `-` between them, is a temporary allocation.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

class HeaptrackModel;
class HeaptrackStreamTables;
class HeaptrackTimeline;
class LineReader;
class Progress;
class TraceWriter;

struct HeaptrackHeader {
    std::uint64_t heaptrackVersion = 0;
    std::uint64_t fileVersion = 0;
    std::string command;
    std::int64_t pageSize = 4096;
    std::int64_t physicalPages = 0;
    bool attached = false;
};

class HeaptrackReader {
public:
    HeaptrackReader(LineReader& lines, TraceWriter& out, HeaptrackModel& model, HeaptrackTimeline& timeline);

    // Reads every record; throws ImportError naming the line and record for bad input.
    void run(const Progress& progress);
    // Tables written while reading (optional): told after every `i`, `t` and `a` record.
    void setStreamTables(HeaptrackStreamTables* tables) { stream_ = tables; }
    const HeaptrackHeader& header() const { return header_; }

private:
    class Fields;
    void dispatch(std::string_view line);
    void onVersion(Fields& f);
    void onString(std::string_view line);
    void onInstructionPointer(Fields& f);
    void onTraceNode(Fields& f);
    void onAllocationInfo(Fields& f);
    void onAllocation(Fields& f);
    void onDeallocation(Fields& f);
    void allocate(std::uint64_t info);
    void deallocate(std::uint64_t info);
    void onTime(Fields& f);
    void checkRssBytes(std::int64_t pages) const;
    [[noreturn]] void failTotals(const char* record, const std::string& message) const;
    std::uint32_t stringIndex(Fields& f, const char* what);
    std::uint64_t infoIndex(Fields& f);
    void requireVersion();
    [[noreturn]] void fail(const std::string& message) const;
    std::string location() const;

    LineReader& lines_;
    TraceWriter& out_;
    HeaptrackModel& model_;
    HeaptrackTimeline& timeline_;
    HeaptrackHeader header_;
    HeaptrackStreamTables* stream_ = nullptr;
    bool haveVersion_ = false;
    bool haveCommand_ = false;
    char record_ = 0;
    // heaptrack's "last allocation" for temporary detection; 0 after every `-`.
    std::uint64_t lastAllocated_ = 0;
    // Bytes of all allocations and of all frees: every sum of sizes (live bytes, a site's
    // peak, the totals) lies between -freed and +allocated, so both must fit int64.
    std::int64_t allocatedBytes_ = 0, freedBytes_ = 0;
    std::vector<std::int32_t> siteOps_; // op name per site
};

} // namespace memviz
