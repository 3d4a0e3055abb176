// SPDX-License-Identifier: MIT
#pragma once
// The live preview of a streamed snapshot import (issue 12, core/PreviewSink.h): while the
// reader hands on each device's trace entries, keeps that device's allocated and reserved bytes
// with the semantics of the imported timeline (SnapshotReplay.h) and sends them downsampled
// (core/PreviewCurve.h: PreviewStream) to the sink.
// - allocated: `alloc` adds its size (an alloc at a live address first frees the allocation
//   there), `free_completed` / legacy `free` subtract the size of the allocation they close; a
//   free of an address already freed changes nothing; a free of an address never allocated in
//   the trace subtracts its size and adds it to the base (memory from before the trace began);
// - reserved: segment_alloc / segment_map add, segment_free / segment_unmap subtract;
// - values are relative to a base: allocated's is the pre-existing bytes met so far, reserved's
//   the least that keeps it from going below zero. SnapshotBuilder sends the exact bases
//   (the replay's baselineBytes and reservedInitial), after which base + value is the imported
//   timeline's value at every point, its last point the end value and its maximum the peak.
// - x: the entry's time_us (never going back: an earlier time is drawn at the latest so far, as
//   the builder does) while every entry so far has one, else the entry's number in its device's
//   trace (the sink is then restarted: the importer uses entry numbers for the whole trace).
// Memory: per device one open bucket and the addresses the replay also tracks (live and freed).
#include <cstdint>
#include <span>
#include <vector>

#include "core/PreviewCurve.h"
#include "core/PreviewSink.h"
#include "formats/snapshot/SnapshotData.h"
#include "trace/AddressMap.h"

namespace memviz::snapshot {

class SnapshotPreview {
public:
    explicit SnapshotPreview(PreviewSink& sink, std::size_t maxBuckets = 1024) : sink_(sink), maxBuckets_(maxBuckets) {}

    // The next entries of device `number`'s trace, in order.
    void add(std::int64_t number, std::span<const Entry> entries);
    // Hands the points of closed buckets to the sink (one batch per device that has some).
    void flush();
    // The end of the traces: closes every open bucket and flushes.
    void finish();

private:
    struct Device {
        std::int64_t number = 0;
        PreviewStream stream;
        AddressMap<std::int64_t> sizes; // address -> live allocation's size, -1: freed (open addressing: one put per entry)
        std::uint64_t running = 0, reserved = 0;              // wrapping sums (the replay checks overflow)
        std::int64_t baseline = 0, lowestReserved = 0, entries = 0, lastTime = 0;
    };
    Device& device(std::int64_t number);
    void addEntry(Device& d, const Entry& e);
    void restartUntimed();

    PreviewSink& sink_;
    std::size_t maxBuckets_;
    std::vector<Device> devices_;
    bool timed_ = true;
};

} // namespace memviz::snapshot
