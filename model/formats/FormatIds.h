// SPDX-License-Identifier: MIT
#pragma once
// The words the store's rows carry and that code outside a format's folder looks for, as
// constants in one place: the format id of every trace (`traces.format`), the series and
// devices that views treat specially, and the metadata keys the formats write. Widgets,
// queries and the command line compare with these, never with text of their own. A new
// format adds its id here (see ARCHITECTURE.md, "Adding a format").
#include <cstddef>
#include <string>
#include <string_view>

namespace memviz {

// `traces.format`: which format wrote a trace.
namespace format_id {
inline constexpr const char* kAllocLog = "memviz-alloc-log";              // formats/alloclog
inline constexpr const char* kProfiler = "pytorch-profiler";              // formats/profiler
inline constexpr const char* kMemoryTimeline = "pytorch-memory-timeline"; // formats/memtimeline
inline constexpr const char* kHeaptrack = "heaptrack";                    // formats/heaptrack
inline constexpr const char* kMassif = "massif";                          // formats/massif
inline constexpr const char* kSnapshot = "pytorch-cuda-snapshot";         // formats/snapshot
inline constexpr const char* kLiveProc = "memviz-live-proc";              // formats/live, /proc sampler
inline constexpr const char* kLiveProbe = "memviz-live-probe";            // formats/live, PyTorch probe
inline constexpr const char* kEstimate = "memviz-estimate";               // costmodel/EstimateTrace (memviz estimate --save)
} // namespace format_id

// `series.name` of series with a meaning across formats.
namespace series_name {
inline constexpr const char* kAllocated = "allocated"; // a device's live allocated bytes
inline constexpr const char* kReserved = "reserved";   // bytes a caching allocator holds
} // namespace series_name

// `series.name` of a /proc recording's series (device device_name::kProcess).
namespace proc_series {
inline constexpr const char* kRss = "rss";
inline constexpr const char* kHwm = "hwm";
inline constexpr const char* kRssAnon = "rss_anon";
inline constexpr const char* kRssFile = "rss_file";
inline constexpr const char* kRssShmem = "rss_shmem";
inline constexpr const char* kSwap = "swap";
inline constexpr const char* kPss = "pss";
inline constexpr const char* kPrivate = "private";
inline constexpr const char* kProcesses = "processes";
} // namespace proc_series

// `devices.name` of devices with a meaning of their own.
namespace device_name {
inline constexpr const char* kProcess = "process"; // a /proc recording's process (and children)
} // namespace device_name

// `trace_metadata.key` values the formats write.
namespace metadata_key {
// Profiler traces, per device: where its allocated series comes from (one of the two values).
inline std::string allocatedSource(std::string_view device) { return "allocated_source:" + std::string(device); }
inline constexpr const char* kAllocatedFromTotals = "Total Allocated";
inline constexpr const char* kAllocatedFromRunningSum = "running sum of Bytes (the trace has no totals)";
// Some events' Total Allocated belongs to another allocator on the same device: the running sum
// of Bytes plus the memory allocated before the trace that most events' totals agree with.
inline constexpr const char* kAllocatedFromMostTotals =
    "running sum of Bytes, offset by the Total Allocated most events agree with (other events' totals are another allocator's)";
inline constexpr const char* kProfilerFamily = "profiler_family";
// Profiler traces: every other top-level member of the trace object ("traceName",
// "deviceProperties", "cupti_version", ...) is kept as "trace.<member>" with its JSON text (a
// string without its quotes), cut at kTraceMemberMaxBytes.
inline constexpr const char* kTraceMemberPrefix = "trace.";
inline constexpr std::size_t kTraceMemberMaxBytes = 16384;
// Profiler traces recorded with_stack=True: how many op calls carry a "Call stack".
inline constexpr const char* kProfilerCallsWithStack = "profiler_calls_with_stack";
// Memory timeline exports: what the stacked series are.
inline constexpr const char* kStacked = "stacked";
// heaptrack.
inline constexpr const char* kHeaptrackCommand = "heaptrack.command";
inline constexpr const char* kHeaptrackFileVersion = "heaptrack.file_version";
inline constexpr const char* kHeaptrackAttached = "heaptrack.attached";
// massif.
inline constexpr const char* kMassifDesc = "massif.desc";
inline constexpr const char* kMassifCmd = "massif.cmd";
inline constexpr const char* kMassifTimeUnit = "massif.time_unit";
inline constexpr const char* kMassifSnapshots = "massif.snapshots";
inline constexpr const char* kMassifPeakSnapshot = "massif.peak_snapshot";
// CUDA memory snapshots: the allocator settings (flattened) and facts about the file.
inline constexpr const char* kAllocatorSettings = "allocator_settings"; // then ".<setting>"
inline constexpr const char* kSnapshotInfoPrefix = "snapshot.";
inline constexpr const char* kSnapshotLayout = "snapshot.layout";
inline constexpr const char* kSnapshotTime = "snapshot.time";
inline constexpr const char* kSnapshotPickleProtocol = "snapshot.pickle_protocol";
inline constexpr const char* kSnapshotUnreadKeys = "snapshot.unread_keys";
// Live recordings.
inline constexpr const char* kLiveSeriesNotDrawn = "live_series_not_drawn";
inline constexpr const char* kLiveMonotonicStart = "live_monotonic_start_ns";
inline constexpr const char* kProbeProtocolVersion = "probe_protocol_version";
inline constexpr const char* kProbeMode = "probe_mode";
inline constexpr const char* kTorchVersion = "torch_version";
inline constexpr const char* kPythonVersion = "python_version";
inline constexpr const char* kProbeDroppedRecords = "probe_dropped_records";
inline constexpr const char* kProbeMalformedLines = "probe_malformed_lines";
} // namespace metadata_key

} // namespace memviz
