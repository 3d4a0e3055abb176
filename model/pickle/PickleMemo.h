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
// not dead once released: the stack table knows it again by identity if it is fetched.
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

    // The value at index, or nullptr when nothing was stored there. A dead slot of a compacted
    // page gives the dead value compact() was given. Inline: the pickle machine's every memo
    // fetch (a hundred million in a 1 GB snapshot) comes here.
    const Value* find(std::uint64_t index) const {
        if (index < denseSize_) {
            const Page& page = pages_[index >> kPageBits];
            if (page.values) {
                const Value& v = page.values[index & (kPageSlots - 1)];
                return v.kind == kUndefined ? nullptr : &v;
            }
            if (page.dead && (page.dead[(index & (kPageSlots - 1)) / 64] >> (index % 64) & 1)) return &dead_;
        }
        return findSparse(index);
    }
    void store(std::uint64_t index, const Value& v);
    // Slots stored (Python's len(memo): the next MEMOIZE's index).
    std::uint64_t count() const { return count_; }
    // Slots the dense pages cover: every index below was stored or is within a page.
    std::uint64_t denseSize() const { return denseSize_; }
    // Turns dense page `page` into one bit per slot when at most maxLive of its stored values are
    // not dead(v); those move to the map. Reading a dead slot then gives `deadValue`. False (the
    // page stays as it is) when the page has more live values, or is not a dense page.
    bool compact(std::uint64_t page, const std::function<bool(const Value&)>& dead, const Value& deadValue,
                 std::size_t maxLive);
    // Bytes held by the pages, the bitmaps and the map (approximately), for tests and stages.
    std::uint64_t bytesHeld() const;

private:
    struct Page {
        std::unique_ptr<Value[]> values;     // dense: every slot (kind kUndefined when empty)
        std::unique_ptr<std::uint64_t[]> dead; // compacted: one bit per dead slot
    };
    Value* denseSlot(std::uint64_t index);
    const Value* findSparse(std::uint64_t index) const;
    std::vector<Page> pages_;
    std::uint64_t denseSize_ = 0;
    std::uint64_t count_ = 0;
    std::unordered_map<std::uint64_t, Value> sparse_;
    Value dead_;
};

} // namespace memviz::pickle
