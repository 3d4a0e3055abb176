#include "trace/LiveBytesTracker.h"

namespace memviz {

void LiveBytesTracker::ensure(std::uint16_t device) {
    if (blocks_.size() <= device) {
        blocks_.resize(device + 1u);
        live_.resize(device + 1u, 0);
        blocks_[device].reserve(1024);
    }
}

std::optional<LiveBytesTracker::Block> LiveBytesTracker::alloc(std::uint16_t device, std::int64_t address,
                                                                std::int64_t size, std::int32_t op) {
    ensure(device);
    auto [it, inserted] = blocks_[device].try_emplace(address, Block{size, op});
    live_[device] += size;
    if (inserted) return std::nullopt;
    const Block previous = it->second;
    it->second = Block{size, op};
    live_[device] -= previous.size;
    return previous;
}

std::optional<LiveBytesTracker::Block> LiveBytesTracker::free(std::uint16_t device, std::int64_t address) {
    if (device >= blocks_.size()) return std::nullopt;
    auto it = blocks_[device].find(address);
    if (it == blocks_[device].end()) return std::nullopt;
    const Block b = it->second;
    blocks_[device].erase(it);
    live_[device] -= b.size;
    return b;
}

} // namespace memviz
