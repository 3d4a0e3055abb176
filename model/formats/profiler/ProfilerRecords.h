// SPDX-License-Identifier: MIT
#pragma once
// What the Chrome-trace scanner keeps of a torch.profiler trace: memory events and CPU-side
// op calls, with times already in ns from the trace start.
#include <cstdint>
#include <string>
#include <vector>

#include "core/HugePages.h"

namespace memviz {

struct MemoryRecord {
    std::int64_t t = 0;
    std::int64_t bytes = 0; // positive: allocation, negative: free
    std::int64_t address = 0;
    std::int64_t totalAllocated = 0;
    std::int64_t totalReserved = 0;
    std::int32_t deviceType = 0; // c10::DeviceType: 0 CPU, 1 CUDA, ...
    std::int32_t deviceId = -1;
    std::int32_t thread = 0;
    bool hasAddress = false;
    bool hasTotals = false;
    bool outOfMemory = false; // an [OutOfMemory] event
};

struct OpRecord {
    std::int64_t t = 0;
    std::int64_t dur = 0;
    std::int32_t thread = 0;
    std::int32_t name = 0;   // NameKind::Op id
    std::int32_t shapes = 0; // NameKind::Shapes id ("" when the trace has no Input Dims)
    std::int32_t callStack = -1; // into ScannedTrace::callStacks; -1: the event has no "Call stack"
};

// In huge pages where allowed (core/HugePages.h): the 240 MB trace's 0.5M memory records and its
// op calls are 33 MB (56 and 32 bytes each) filled front to back, and their first touches in
// 4 KiB pages were a fifth of its import's page faults (issue 33).
using MemoryRecords = HugeVector<MemoryRecord>;
using OpRecords = HugeVector<OpRecord>;

struct ScannedTrace {
    std::string path; // of the file, for errors
    MemoryRecords memory;
    OpRecords ops;
    std::int64_t originNs = 0;      // source time of t = 0
    std::int64_t endNs = 0;         // last event end, from t = 0
    std::string family;             // "pytorch<=1.9", "pytorch1.10-2.3", "pytorch>=2.4"
    std::int64_t eventCount = 0;    // all trace events
    std::int64_t skippedMemory = 0; // [memory] events with missing or non-numeric args
    std::string firstSkipLocation;
    // with_stack=True: the distinct "Call stack" texts of the op calls, and every op name by
    // its NameKind::Op id (for the stacks of memory events).
    std::vector<std::string> callStacks;
    std::int64_t callsWithStack = 0;
    bool pythonFunctions = false; // python_function events (newer with_stack traces)
    std::vector<std::string> opNames;
};

// c10::DeviceType names for device labels ("cuda:0"); unknown types are "device<N>".
std::string deviceTypeName(int type);
// key_averages counts these device types as CPU memory (CPU, MKLDNN, IDEEP).
bool countsAsCpuMemory(int type);

} // namespace memviz
