// SPDX-License-Identifier: MIT
#pragma once
// The memviz probe protocol, version 1 (docs/formats.md, "The PyTorch probe stream"): one
// JSON object per line, sent by the memviz_probe package (python/memviz_probe/). This parses one line into a
// record; it knows nothing about sockets or the store.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

inline constexpr int kProbeProtocolVersion = 1;

// trace_metadata keys for a probe's place in a distributed job (from its hello).
namespace probe_metadata {
inline constexpr const char* kRank = "probe_rank";
inline constexpr const char* kLocalRank = "probe_local_rank";
inline constexpr const char* kWorldSize = "probe_world_size";
} // namespace probe_metadata

class ProbeProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One device's memory in a record, bytes.
struct ProbeDeviceMemory {
    std::string device;                    // "cpu", "cuda:0"
    std::optional<std::int64_t> before;    // op records: at the record's start ...
    std::optional<std::int64_t> after;     // ... and end (allocated bytes)
    std::optional<std::int64_t> allocated; // mem records
    std::optional<std::int64_t> reserved;  // CUDA caching allocator's reserved bytes
};

// A tensor storage an operator's call made (op records' "outs", op mode).
struct ProbeStorage {
    std::int64_t id = 0;
    std::string device;
    std::int64_t bytes = 0;
};

struct ProbeRecord {
    enum class Type { Hello, Op, Mem, Phase, Step, Mark, Dropped, Bye, Free, Unknown };
    Type type = Type::Unknown;
    std::string typeName;
    std::int64_t t = 0;   // ns since the probe started (monotonic)
    std::int64_t dur = 0; // op records
    // hello
    std::string protocol;
    int version = 0;
    int pid = 0;
    std::vector<std::string> argv;
    std::string mode, python, torch;
    std::optional<std::int64_t> t0WallNs;
    // hello: the process' place in a distributed job, from its RANK / LOCAL_RANK /
    // WORLD_SIZE environment (absent or null when not set).
    std::optional<int> rank, localRank, worldSize;
    // op, phase, step, mark, dropped, bye
    std::string kind, name, phase, label, error;
    std::int64_t step = 0;
    std::int64_t count = 0;
    std::optional<int> exitCode;
    std::vector<ProbeDeviceMemory> memory;
    std::vector<ProbeStorage> outs; // op: the storages the call made
    std::int64_t storageId = 0;     // free: the storage released
};

// Parses one line. Throws ProbeProtocolError naming what is wrong. Unknown fields are
// ignored and unknown record types come back as Type::Unknown (newer probes of version 1
// may add both); a hello of a newer version is the caller's to refuse.
class ProbeParser {
public:
    ProbeParser();
    ~ProbeParser();
    ProbeParser(const ProbeParser&) = delete;
    ProbeParser& operator=(const ProbeParser&) = delete;

    ProbeRecord parse(std::string_view line);

private:
    struct Impl;
    Impl* impl_;
};

} // namespace memviz
