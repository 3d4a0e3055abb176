// SPDX-License-Identifier: MIT
// A live preview of an import's memory curve (issue 12): while an importer reads a big file it
// may hand the sink points of each device's allocated and reserved bytes, so that the window
// can draw the curve long before the import ends. Optional (Progress::preview()); importers
// that do not implement it simply never call it, and the command line passes no sink.
//
// Values are sent relative to a per-device base that may only become exact later (a trace
// whose beginning was dropped starts from allocations it never saw): a device's shown value is
// base + point value, and every batch carries the device's base as known so far, which applies
// to all of that device's points, earlier ones included. When the importer knows the exact base
// it sends one more batch, possibly without points.
//
// Importers find the sink through previewSink(): the sink of the imports this thread runs,
// set for a scope by ScopedPreviewSink (the import worker sets it around its one import).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace memviz {

// What a preview's x counts: microseconds of the trace's own clock (absolute: the receiver
// shows them from the earliest it has seen), or entry numbers within the device.
enum class PreviewAxis : std::uint8_t { TimeUs, Index };

struct PreviewPoint {
    std::int64_t x = 0;
    std::int64_t allocated = 0; // bytes, relative to the batch's allocatedBase
    std::int64_t reserved = 0;  // bytes, relative to the batch's reservedBase
    bool operator==(const PreviewPoint&) const = default;
};

struct PreviewBatch {
    std::string device; // the memviz device name ("cuda:0")
    PreviewAxis axis = PreviewAxis::TimeUs;
    std::int64_t allocatedBase = 0, reservedBase = 0;
    std::vector<PreviewPoint> points; // new points of this device, x not decreasing
    bool operator==(const PreviewBatch&) const = default;
};

class PreviewSink {
public:
    virtual ~PreviewSink() = default;
    virtual void preview(const PreviewBatch& batch) = 0;
    // Everything sent so far is void (the importer starts over, e.g. a streamed read that
    // falls back to reading the whole file).
    virtual void restart() = 0;
};

// The sink set on this thread, or null (the command line, tests, the window's own threads).
PreviewSink* previewSink();

class ScopedPreviewSink {
public:
    explicit ScopedPreviewSink(PreviewSink* sink);
    ~ScopedPreviewSink();
    ScopedPreviewSink(const ScopedPreviewSink&) = delete;
    ScopedPreviewSink& operator=(const ScopedPreviewSink&) = delete;

private:
    PreviewSink* previous_;
};

} // namespace memviz
