// SPDX-License-Identifier: MIT
#include "pickle/PickleMemo.h"

#include <algorithm>

namespace memviz::pickle {

namespace {
constexpr std::uint64_t kMask = Memo::kPageSlots - 1;
constexpr std::size_t kBitWords = Memo::kPageSlots / 64;
} // namespace

bool Memo::findSparse(std::uint64_t index, Value& out) const {
    const auto it = sparse_.find(index);
    if (it == sparse_.end()) return false;
    out = it->second;
    return true;
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
                // A page compacted behind gives its slots to the new one (no 64 KB freed and
                // allocated again per page: a fragmented heap cost a 3 GB import seconds).
                std::unique_ptr<Value[]> values = spare_ ? std::move(spare_) : std::make_unique_for_overwrite<Value[]>(kPageSlots);
                pages_.push_back({std::move(values), nullptr, nullptr, nullptr});
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
        // A compacted page: the slot leaves the bitmap (or the Known values) for the map.
        Page& page = pages_[index >> kPageBits];
        std::uint64_t& word = page.dead[(index & kMask) / 64];
        const std::uint64_t bit = std::uint64_t{1} << (index % 64);
        bool wasStored = word & bit;
        word &= ~bit;
        if (page.knownIds && page.knownIds[index & kMask]) {
            page.knownIds[index & kMask] = 0;
            wasStored = true;
        }
        if (sparse_.insert_or_assign(index, v).second && !wasStored) ++count_;
        return;
    }
    if (sparse_.insert_or_assign(index, v).second) ++count_;
}

bool Memo::compact(std::uint64_t page, const std::function<bool(const Value&)>& dead, const Value& deadValue,
                   std::size_t maxLive) {
    if (page >= pages_.size() || !pages_[page].values) return false;
    Value* values = pages_[page].values.get();
    std::size_t live = 0, known = 0;
    for (std::uint64_t i = 0; i < kPageSlots; ++i) {
        if (values[i].kind == kUndefined) continue;
        if (packable(values[i])) ++known;
        else if (!dead(values[i]) && ++live > maxLive) return false;
    }
    Page compacted{nullptr, std::make_unique<std::uint64_t[]>(kBitWords), nullptr, nullptr}; // zeroed
    if (known) {
        compacted.knownIds = std::make_unique<std::uint32_t[]>(kPageSlots);
        compacted.knownShape = std::make_unique<std::uint8_t[]>(kPageSlots);
    }
    const std::uint64_t first = page << kPageBits;
    for (std::uint64_t i = 0; i < kPageSlots; ++i) {
        const Value& v = values[i];
        if (v.kind == kUndefined) continue;
        if (packable(v)) {
            compacted.knownIds[i] = static_cast<std::uint32_t>(v.payload + 2);
            compacted.knownShape[i] = static_cast<std::uint8_t>(v.length);
        } else if (dead(v)) {
            compacted.dead[i / 64] |= std::uint64_t{1} << (i % 64);
        } else {
            sparse_.emplace(first + i, v);
        }
    }
    dead_ = deadValue;
    spare_ = std::move(pages_[page].values);
    pages_[page] = std::move(compacted);
    return true;
}

std::uint64_t Memo::bytesHeld() const {
    std::uint64_t bytes = pages_.size() * sizeof(Page) + sparse_.size() * (sizeof(Value) + 32);
    for (const Page& p : pages_)
        bytes += p.values ? kPageSlots * sizeof(Value) : (p.dead ? kBitWords * 8 : 0) + (p.knownIds ? kPageSlots * 5 : 0);
    return bytes;
}

} // namespace memviz::pickle
