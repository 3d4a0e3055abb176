// SPDX-License-Identifier: MIT
#include "pickle/PickleMemo.h"

#include <algorithm>

namespace memviz::pickle {

namespace {
constexpr std::uint64_t kMask = Memo::kPageSlots - 1;
constexpr std::size_t kBitWords = Memo::kPageSlots / 64;
} // namespace

const Value* Memo::findSparse(std::uint64_t index) const {
    const auto it = sparse_.find(index);
    return it == sparse_.end() ? nullptr : &it->second;
}

Value* Memo::denseSlot(std::uint64_t index) {
    Page& page = pages_[index >> kPageBits];
    return page.values ? &page.values[index & kMask] : nullptr;
}

void Memo::store(std::uint64_t index, const Value& v) {
    if (index >= denseSize_ && index <= count_ * 2 + kPageSlots) {
        // Dense slots while indexes grow steadily; the dense part never exceeds twice the slots
        // stored (plus a page), so its memory is bounded by the input's size.
        Value undefined;
        undefined.kind = kUndefined;
        while (denseSize_ <= index) {
            if ((denseSize_ & kMask) == 0) {
                pages_.push_back({std::make_unique_for_overwrite<Value[]>(kPageSlots), nullptr});
                std::fill_n(pages_.back().values.get(), kPageSlots, undefined);
            }
            denseSize_ = (denseSize_ | kMask) + 1;
        }
    }
    if (index < denseSize_) {
        if (Value* slot = denseSlot(index)) {
            if (slot->kind == kUndefined) ++count_;
            *slot = v;
            return;
        }
        // A compacted page: the slot leaves the bitmap for the map.
        std::uint64_t& word = pages_[index >> kPageBits].dead[(index & kMask) / 64];
        const std::uint64_t bit = std::uint64_t{1} << (index % 64);
        const bool wasDead = word & bit;
        word &= ~bit;
        if (sparse_.insert_or_assign(index, v).second && !wasDead) ++count_;
        return;
    }
    if (sparse_.insert_or_assign(index, v).second) ++count_;
}

bool Memo::compact(std::uint64_t page, const std::function<bool(const Value&)>& dead, const Value& deadValue,
                   std::size_t maxLive) {
    if (page >= pages_.size() || !pages_[page].values) return false;
    Value* values = pages_[page].values.get();
    std::size_t live = 0;
    for (std::uint64_t i = 0; i < kPageSlots; ++i)
        if (values[i].kind != kUndefined && !dead(values[i]) && ++live > maxLive) return false;
    auto bits = std::make_unique<std::uint64_t[]>(kBitWords); // zeroed
    const std::uint64_t first = page << kPageBits;
    for (std::uint64_t i = 0; i < kPageSlots; ++i) {
        if (values[i].kind == kUndefined) continue;
        if (dead(values[i])) bits[i / 64] |= std::uint64_t{1} << (i % 64);
        else sparse_.emplace(first + i, values[i]);
    }
    dead_ = deadValue;
    pages_[page] = {nullptr, std::move(bits)};
    return true;
}

std::uint64_t Memo::bytesHeld() const {
    std::uint64_t bytes = pages_.size() * sizeof(Page) + sparse_.size() * (sizeof(Value) + 32);
    for (const Page& p : pages_) bytes += p.values ? kPageSlots * sizeof(Value) : p.dead ? kBitWords * 8 : 0;
    return bytes;
}

} // namespace memviz::pickle
