// SPDX-License-Identifier: MIT
#pragma once
// Pairs frees with the live allocation at the same address on the same device and keeps
// the live byte count per device. Shared by every importer whose format has addresses.
#include <cstdint>
#include <optional>
#include <vector>

#include "trace/AddressMap.h"
#include "trace/Event.h"

namespace memviz {

class LiveBytesTracker {
public:
    struct Block {
        std::int64_t size = 0;
        std::int32_t op = kNoName;
    };

    // Records a new live block. When the address was already live on that device (a missed
    // free), returns the block it replaces; that block is no longer counted.
    std::optional<Block> alloc(std::uint16_t device, std::int64_t address, std::int64_t size, std::int32_t op);
    // Removes and returns the live block at the address, or nullopt for an unmatched free.
    std::optional<Block> free(std::uint16_t device, std::int64_t address);

    std::int64_t live(std::uint16_t device) const { return device < live_.size() ? live_[device] : 0; }
    std::size_t liveBlocks(std::uint16_t device) const { return device < blocks_.size() ? blocks_[device].size() : 0; }

private:
    void ensure(std::uint16_t device);
    std::vector<AddressMap<Block>> blocks_;
    std::vector<std::int64_t> live_;
};

} // namespace memviz
