// SPDX-License-Identifier: MIT
#pragma once
// Reads a Valgrind massif.out file the way ms_print does (comments stripped, blank lines
// skipped, heap trees structured by their child counts) and writes its snapshots, series
// and heap trees into the import.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "store/Database.h"

namespace memviz {

class LineReader;
class Progress;
class TraceWriter;

class MassifReader {
public:
    MassifReader(LineReader& lines, TraceWriter& out);
    void run(const Progress& progress);

private:
    struct Snapshot {
        std::int64_t number = 0;
        std::string time;
        std::int64_t x = 0;
        std::int64_t heap = 0, extra = 0, stacks = 0;
        std::string tree;
    };
    bool nextLine(std::string_view& line);
    std::string_view expectField(std::string_view name);
    std::int64_t expectCount(std::string_view name);
    void readHeader();
    void setUpSeries();
    void readSnapshot(std::string_view first);
    void readTree(const Snapshot& s);
    std::int64_t parseX(std::string_view time);
    [[noreturn]] void fail(const std::string& message) const;
    std::string where() const;

    LineReader& lines_;
    TraceWriter& out_;
    Statement insertSnapshot_;
    Statement insertNode_;
    std::string timeUnit_;
    std::int64_t nsPerUnit_ = 0; // 0: the unit is not a time (instructions or bytes)
    std::uint16_t device_ = 0;
    std::int64_t heapSeries_ = 0, extraSeries_ = 0, stacksSeries_ = 0, totalSeries_ = 0;
    std::int64_t lastX_ = 0;
    std::int64_t snapshotCount_ = 0;
    std::set<std::int64_t> seen_;
    bool havePeak_ = false;
    std::int64_t currentSnapshot_ = -1;
};

} // namespace memviz
