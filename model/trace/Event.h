// SPDX-License-Identifier: MIT
#pragma once
// The raw event every importer emits: one allocation or free on one device, or (for formats
// that record the allocator itself, like CUDA memory snapshots) one allocator record.
#include <cstdint>

namespace memviz {

enum class EventKind : std::uint8_t {
    Alloc = 1,
    Free = 2,
    // Allocator records. They move no live bytes themselves; summaries and per-op tables
    // count only Alloc and Free.
    FreeRequested = 3, // a free was asked for; the memory is released later (Free)
    SegmentAlloc = 4,  // the allocator reserved memory from the device (size = bytes)
    SegmentFree = 5,   // ... and gave it back
    SegmentMap = 6,    // an expandable segment grew by size bytes at address
    SegmentUnmap = 7,  // ... and shrank
    Oom = 8,           // an allocation failed: size = bytes asked for, address = bytes the device had free
    Marker = 9,        // a record without bytes (a snapshot was taken, an annotation, an unknown action)
};
constexpr std::uint8_t kLastEventKind = 9;

enum EventFlags : std::uint8_t {
    kFlagNone = 0,
    kFlagUnmatched = 1,   // a free with no live allocation at its address (size 0)
    kFlagImplicit = 2,    // a free memviz inferred (an alloc reused a live address)
    kFlagPreexisting = 4, // a free of an allocation made before the trace began (counted in a baseline)
};

constexpr std::int32_t kNoName = -1; // no op / category / stack

struct Event {
    std::int64_t timeNs = 0;  // from the trace start
    std::int64_t address = 0; // unsigned bit pattern
    std::int64_t size = 0;    // bytes; for a free, the size of the allocation it released
    std::int32_t op = kNoName;
    std::int32_t category = kNoName;
    std::int32_t stack = kNoName;
    std::uint16_t device = 0;
    EventKind kind = EventKind::Alloc;
    std::uint8_t flags = kFlagNone;

    bool operator==(const Event&) const = default;
};

// Kinds of interned names (the `names.kind` column).
enum class NameKind : int { Op = 0, Category = 1, Stack = 2, Shapes = 3 };
constexpr int kNameKinds = 4;

} // namespace memviz
