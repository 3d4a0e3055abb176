// SPDX-License-Identifier: MIT
#include "trace/LiveBytesTracker.h"

namespace memviz {

void LiveBytesTracker::ensure(std::uint16_t device) {
    if (blocks_.size() <= device) {
        blocks_.resize(device + 1u);
        live_.resize(device + 1u, 0);
    }
}

std::optional<LiveBytesTracker::Block> LiveBytesTracker::alloc(std::uint16_t device, std::int64_t address, std::int64_t size,
                                                               std::int32_t op) {
    ensure(device);
    const auto previous = blocks_[device].put(address, Block{size, op});
    live_[device] += size - (previous ? previous->size : 0);
    return previous;
}

std::optional<LiveBytesTracker::Block> LiveBytesTracker::free(std::uint16_t device, std::int64_t address) {
    if (device >= blocks_.size()) return std::nullopt;
    const auto b = blocks_[device].take(address);
    if (b) live_[device] -= b->size;
    return b;
}

} // namespace memviz
