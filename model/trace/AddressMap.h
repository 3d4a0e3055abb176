// SPDX-License-Identifier: MIT
#pragma once
// An open-addressing hash map from addresses to live blocks: linear probing with
// backward-shift deletion (no tombstones), so millions of alloc/free pairs stay fast.
// std::unordered_map allocated a node per block and was a quarter of import time.
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "core/HugePages.h"

namespace memviz {

template <typename Value>
class AddressMap {
public:
    AddressMap() { rehash(1024); }

    std::size_t size() const { return size_ + (hasSentinel_ ? 1 : 0); }

    // Inserts or replaces; returns the replaced value, if any.
    std::optional<Value> put(std::int64_t key, const Value& value) {
        if (key == kEmpty) return swapSentinel(value);
        if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
        std::size_t i = home(key);
        while (slots_[i].key != kEmpty) {
            if (slots_[i].key == key) {
                const Value old = slots_[i].value;
                slots_[i].value = value;
                return old;
            }
            i = (i + 1) & mask_;
        }
        slots_[i] = {key, value};
        ++size_;
        return std::nullopt;
    }

    std::optional<Value> take(std::int64_t key) {
        if (key == kEmpty) {
            if (!hasSentinel_) return std::nullopt;
            hasSentinel_ = false;
            return sentinelValue_;
        }
        std::size_t i = home(key);
        while (slots_[i].key != key) {
            if (slots_[i].key == kEmpty) return std::nullopt;
            i = (i + 1) & mask_;
        }
        const Value found = slots_[i].value;
        // Backward shift: pull later members of the probe run into the hole.
        std::size_t hole = i;
        for (std::size_t j = (i + 1) & mask_; slots_[j].key != kEmpty; j = (j + 1) & mask_) {
            const std::size_t h = home(slots_[j].key);
            // Move j into the hole when its home does not lie cyclically in (hole, j].
            const bool stays = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
            if (!stays) {
                slots_[hole] = slots_[j];
                hole = j;
            }
        }
        slots_[hole].key = kEmpty;
        --size_;
        return found;
    }

    // The value stored for key, or nullptr; valid until the next put or take.
    Value* find(std::int64_t key) {
        if (key == kEmpty) return hasSentinel_ ? &sentinelValue_ : nullptr;
        for (std::size_t i = home(key);; i = (i + 1) & mask_) {
            if (slots_[i].key == key) return &slots_[i].value;
            if (slots_[i].key == kEmpty) return nullptr;
        }
    }

    template <typename F>
    void forEach(F&& f) const {
        if (hasSentinel_) f(kEmpty, sentinelValue_);
        for (const Slot& s : slots_)
            if (s.key != kEmpty) f(s.key, s.value);
    }

private:
    static constexpr std::int64_t kEmpty = std::numeric_limits<std::int64_t>::min();
    struct Slot {
        std::int64_t key = kEmpty;
        Value value{};
    };

    std::size_t home(std::int64_t key) const {
        return static_cast<std::size_t>((static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_);
    }

    std::optional<Value> swapSentinel(const Value& value) {
        std::optional<Value> old;
        if (hasSentinel_) old = sentinelValue_;
        hasSentinel_ = true;
        sentinelValue_ = value;
        return old;
    }

    void rehash(std::size_t capacity) {
        Slots old = std::move(slots_);
        slots_.assign(capacity, Slot{});
        mask_ = capacity - 1;
        shift_ = 64;
        for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
        size_ = 0;
        for (const Slot& s : old)
            if (s.key != kEmpty) put(s.key, s.value);
    }

    // A big table (a million addresses: 16 MiB) in huge pages where allowed (core/HugePages.h):
    // every slot is written when it is made, and in 4 KiB pages the first touches of a 1 GB
    // snapshot's replay table were a sixth of its import's page faults (issue 33).
    using Slots = HugeVector<Slot>;
    Slots slots_;
    std::size_t mask_ = 0;
    int shift_ = 64;
    std::size_t size_ = 0;
    bool hasSentinel_ = false;
    Value sentinelValue_{};
};

} // namespace memviz
