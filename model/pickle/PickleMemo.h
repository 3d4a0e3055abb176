// SPDX-License-Identifier: MIT
#pragma once
// The pickle reader's memo: index -> value. Indexes that grow steadily (MEMOIZE, BINPUT n, n+1,
// ...) live in pages of 4096 slots, allocated as they fill (no copy of the whole memo, and no
// doubled peak, as it grows); a far-off index (LONG_BINPUT 4e9 in a small file) in a map.
// Streaming, a page whose values are nearly all dead (entries of a streamed list read flat, or
// containers handed on and recycled: any read of them falls back to the whole tree) is
// compacted to one bit per slot, its few live values moved to the map. The 1 GB benchmark
// snapshot memoises one dict per trace entry, 13 million: 208 MB as slots (and up to twice that
// while an array doubled), 2.3 MB compacted (issue 33). A frames list of its own per entry is
// not dead once released: the memo gives it as a Known value (the stack table's id for it),
// kept in five bytes in a compacted page.
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "pickle/PickleValue.h"

namespace memviz::pickle {

inline constexpr auto kUndefined = static_cast<Kind>(0xff); // a memo slot nothing was stored in

class Memo {
public:
    static constexpr unsigned kPageBits = 12;
    static constexpr std::uint64_t kPageSlots = std::uint64_t{1} << kPageBits;

    // The value at index into `out`; false when nothing was stored there. A dead slot of a
    // compacted page gives the dead value compact() was given. Inline: the pickle machine's
    // every memo fetch (a hundred million in a 1 GB snapshot) comes here.
    bool find(std::uint64_t index, Value& out) const {
        if (index < denseSize_) {
            const Page& page = pages_[index >> kPageBits];
            const std::uint64_t i = index & (kPageSlots - 1);
            if (page.values) {
                out = page.values[i];
                return out.kind != kUndefined;
            }
            if (page.dead && (page.dead[i / 64] >> (index % 64) & 1)) {
                out = dead_;
                return true;
            }
            if (page.knownIds && page.knownIds[i]) {
                out = Value{Kind::Known, page.knownShape[i], static_cast<std::int64_t>(page.knownIds[i]) - 2};
                return true;
            }
        }
        return findSparse(index, out);
    }
    void store(std::uint64_t index, const Value& v);
    // Slots stored (Python's len(memo): the next MEMOIZE's index).
    std::uint64_t count() const { return count_; }
    // Slots the dense pages cover: every index below was stored or is within a page.
    std::uint64_t denseSize() const { return denseSize_; }
    // Turns dense page `page` into one bit per slot when at most maxLive of its stored values are
    // neither dead(v) nor Kind::Known; those move to the map. Reading a dead slot then gives
    // `deadValue`. Known values stay in five bytes each (an id below 2^32 - 1, a depth below 64;
    // others count as live). False (the page stays as it is) when the page has more live values,
    // or is not a dense page.
    bool compact(std::uint64_t page, const std::function<bool(const Value&)>& dead, const Value& deadValue,
                 std::size_t maxLive);
    // Bytes held by the pages, the bitmaps and the map (approximately), for tests and stages.
    std::uint64_t bytesHeld() const;

private:
    struct Page {
        std::unique_ptr<Value[]> values;     // dense: every slot (kind kUndefined when empty)
        std::unique_ptr<std::uint64_t[]> dead; // compacted: one bit per dead slot
        // Compacted, when it holds Known values: the id + 2 (0: none) and the Value's length.
        std::unique_ptr<std::uint32_t[]> knownIds;
        std::unique_ptr<std::uint8_t[]> knownShape;
    };
    static bool packable(const Value& v) {
        return v.kind == Kind::Known && v.payload >= -1 && v.payload <= 0xfffffffd && v.length < 256;
    }
    Value* denseSlot(std::uint64_t index);
    bool findSparse(std::uint64_t index, Value& out) const;
    std::vector<Page> pages_;
    std::uint64_t denseSize_ = 0;
    std::uint64_t count_ = 0;
    std::unordered_map<std::uint64_t, Value> sparse_;
    std::unique_ptr<Value[]> spare_; // the slots of the page compacted last, for the next new page
    Value dead_;
};

} // namespace memviz::pickle
