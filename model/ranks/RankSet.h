// SPDX-License-Identifier: MIT
#pragma once
// Every rank of a distributed job (`memviz ranks`, issue 13): several traces — a store's live
// probe recordings, one file per rank, or a folder of rank files — read on the figure they
// have in common (a device's bytes): per rank the peak, when it is reached, the final bytes
// and the operator holding the most at the peak; and the imbalance between the ranks (max /
// min peak, which rank, which operator). Plain C++ over stores; no Qt, no GUI thread.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/ChunkCodec.h"
#include "store/TraceQueries.h"

namespace memviz {

class Database;
class Progress;

// A rank set that cannot be read: no rank files in a folder, traces without a device in
// common, a device missing from one trace. The message names what and where.
class RankSetError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One trace of the set: its store and id, and where it came from (for names and messages).
struct RankInput {
    Database* db = nullptr;
    std::int64_t traceId = 0;
    std::string source; // the file, or store#id, as the user named it
};

struct RankRow {
    std::string name;       // "rank 2" (probe's RANK, else a rank number in the file name), "pid 4242", else the file
    std::optional<int> rank;
    std::string source;
    std::int64_t traceId = 0;
    std::string format;
    std::string device; // this trace's device of the common figure ("cuda:1" when the set's is "cuda")
    std::int64_t peakBytes = 0;
    std::int64_t peakTimeNs = 0; // from the trace's start
    std::int64_t finalBytes = 0;
    std::string topOp;           // the operator holding the most bytes at the peak ("" when none)
    // What it holds then. topOpPaired: the bytes alive at the peak that it allocated (the trace
    // pairs each free with its allocation: snapshots, profiler traces with addresses, allocation
    // logs, probe recordings that name their tensors' storages); otherwise the net of its calls
    // up to the peak (its allocations less the frees inside its calls), which can exceed what it
    // holds, even the peak: frees of its memory land in other operators.
    std::int64_t topOpBytes = 0;
    bool topOpPaired = false;
    // When the trace started after the earliest of the set, by the clock the traces recorded
    // (the wall clock for probe recordings; 0 when some trace does not know its clock's time at
    // its start, or when the offsets are more than ten times the longest trace — different
    // clocks —: then every trace starts at 0).
    std::int64_t startOffsetNs = 0;
    std::optional<std::int64_t> epochNs; // the wall clock at the trace's t = 0, when known
    std::vector<SeriesPoint> curve; // the device's bytes over time (curveColumns > 0), from the trace's start
    std::string storePath;     // the store the trace is in
    std::int64_t seriesId = 0; // the series of the device's live bytes the curve is read from (0: none)
};

struct RankImbalance {
    std::size_t maxRow = 0, minRow = 0; // rows with the largest and the smallest peak
    std::optional<double> ratio;        // max peak / min peak; none when the smallest peak is 0
    std::int64_t spreadBytes = 0;       // max peak - min peak
    // The operator whose bytes at the peak differ most between those two ranks, and by how much
    // (the largest rank's minus the smallest's): what the imbalance is made of.
    std::string op;
    std::int64_t opDeltaBytes = 0;
    bool opPaired = false; // both ranks' figures are bytes alive at the peak (else nets of calls)
};

struct RankSet {
    // The common figure: this device's bytes in every trace; "cuda" = each trace's one CUDA
    // device (rank k of a multi-GPU job records cuda:k).
    std::string device;
    std::vector<RankRow> rows; // by rank when every trace has one, else in the order given
    RankImbalance imbalance;
    bool wallClock = false; // the traces are lined up by their recorded clock (startOffsetNs)
};

// Reads the set. `device` (case-insensitive) must be in every trace; "cuda" takes each trace's
// one CUDA device; "" = "cuda" when every trace has exactly one CUDA device, else the first
// device of the first trace that every trace has. Throws RankSetError (fewer than two traces, no
// common device, a device missing from one); std::invalid_argument never.
// With `curveColumns` > 0 each row's curve is read too, reduced to about that many columns.
// The rows follow the ranks when every trace has one, else the order given; `keepOrder`: always
// the order given (`memviz ranks STORE --trace 5,3`).
RankSet readRankSet(const std::vector<RankInput>& inputs, const std::string& device, const Progress& progress,
                    int curveColumns = 0, bool keepOrder = false);

// The pieces of readRankSet, for a set read one store at a time (`memviz ranks --gather`: a
// thousand ranks' stores are never open together).
// The set's device for these summaries and the `device` asked for (see readRankSet); `sources`
// name the traces in messages. Throws RankSetError.
std::string rankSetDevice(const std::vector<TraceSummary>& summaries, const std::vector<std::string>& sources,
                          const std::string& device);
// One trace's row on the set's device, and what each operator holds at its peak (for the imbalance).
struct RankRowRead {
    RankRow row;
    std::map<std::string, std::int64_t> heldAtPeak;
    std::int64_t durationNs = 0;
};
RankRowRead readRankRow(const RankInput& in, const TraceSummary& summary, const std::string& setDevice, const Progress& progress,
                        int curveColumns = 0);
// The rows put in order (by rank unless `keepOrder`), lined up by clock, and the imbalance.
// At least one row.
RankSet assembleRankSet(const std::string& device, std::vector<RankRowRead> rows, bool keepOrder = false);

// The rank a file name gives: "rank3_snapshot.pickle", "rank-0.pt.trace.json.gz",
// "worker_rank_12.csv" (the digits after "rank", with an optional '-' or '_').
std::optional<int> rankInFileName(const std::string& fileName);

// The rank files in a folder (a rank in the name and the extension of a trace memviz reads:
// .json, .json.gz, .pickle, .csv, .jsonl, with .gz/.zst), by rank. Throws RankSetError when
// the folder cannot be read or holds none (naming the folder and what was looked for).
std::vector<std::string> rankFilesIn(const std::string& folder);

} // namespace memviz
