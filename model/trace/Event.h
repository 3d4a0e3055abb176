#pragma once
// The raw event every importer emits: one allocation or free on one device.
#include <cstdint>

namespace memviz {

enum class EventKind : std::uint8_t {
    Alloc = 1,
    Free = 2,
};

enum EventFlags : std::uint8_t {
    kFlagNone = 0,
    kFlagUnmatched = 1, // a free with no live allocation at its address (size 0)
    kFlagImplicit = 2,  // a free memviz inferred (an alloc reused a live address)
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
