// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotPreview.h"

#include <algorithm>

namespace memviz::snapshot {

SnapshotPreview::Device& SnapshotPreview::device(std::int64_t number) {
    for (Device& d : devices_)
        if (d.number == number) return d;
    Device& d = devices_.emplace_back();
    d.number = number;
    d.stream = PreviewStream(maxBuckets_);
    return d;
}

void SnapshotPreview::add(std::int64_t number, std::span<const Entry> entries) {
    Device& d = device(number);
    for (const Entry& e : entries) {
        if (timed_ && !e.hasTime) restartUntimed();
        addEntry(d, e);
    }
}

// The importer draws every device against entry numbers once one entry lacks a time: what was
// sent in microseconds is void. The sums go on; the curves restart at the current entries.
void SnapshotPreview::restartUntimed() {
    timed_ = false;
    sink_.restart();
    for (Device& d : devices_) d.stream = PreviewStream(maxBuckets_);
}

void SnapshotPreview::addEntry(Device& d, const Entry& e) {
    const auto size = static_cast<std::uint64_t>(e.size);
    switch (e.action) {
    case Action::Alloc: {
        const std::optional<std::int64_t> old = d.sizes.put(e.addr, e.size);
        if (old && *old >= 0) d.running -= static_cast<std::uint64_t>(*old); // displaced: freed here
        d.running += size;
        break;
    }
    case Action::FreeCompleted:
    case Action::Free: {
        const std::optional<std::int64_t> old = d.sizes.put(e.addr, -1);
        if (!old) { // allocated before the trace began
            d.baseline = static_cast<std::int64_t>(static_cast<std::uint64_t>(d.baseline) + size);
            d.running -= size;
        } else if (*old >= 0) {
            d.running -= static_cast<std::uint64_t>(*old);
        } // else a second free of the address: ignored
        break;
    }
    case Action::SegmentAlloc:
    case Action::SegmentMap: d.reserved += size; break;
    case Action::SegmentFree:
    case Action::SegmentUnmap: d.reserved -= size; break;
    default: break;
    }
    d.lowestReserved = std::min(d.lowestReserved, static_cast<std::int64_t>(d.reserved));
    std::int64_t x = d.entries;
    if (timed_) {
        x = d.entries == 0 ? e.timeUs : std::max(d.lastTime, e.timeUs);
        d.lastTime = x;
    }
    // Before the first entry: the base itself, as the imported series start.
    if (d.entries == 0) d.stream.add({x, 0, 0});
    d.stream.add({x, static_cast<std::int64_t>(d.running), static_cast<std::int64_t>(d.reserved)});
    ++d.entries;
}

void SnapshotPreview::flush() {
    for (Device& d : devices_) {
        std::vector<PreviewPoint> points = d.stream.takeClosed();
        if (points.empty()) continue;
        PreviewBatch batch;
        batch.device = deviceName(d.number);
        batch.axis = timed_ ? PreviewAxis::TimeUs : PreviewAxis::Index;
        batch.allocatedBase = d.baseline;
        batch.reservedBase = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(d.lowestReserved)); // no overflow
        batch.points = std::move(points);
        sink_.preview(batch);
    }
}

void SnapshotPreview::finish() {
    for (Device& d : devices_) d.stream.close();
    flush();
}

} // namespace memviz::snapshot
