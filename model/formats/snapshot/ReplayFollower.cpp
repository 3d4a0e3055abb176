// SPDX-License-Identifier: MIT
#include "formats/snapshot/ReplayFollower.h"

#include <algorithm>

#include "core/HugePages.h"

namespace memviz::snapshot {

namespace {
// The follower wakes when this many entries wait (fewer wake-ups than the reader's batches of
// about a thousand), and feeds at most kMostPerFeed before it lets the reader grow a vector.
constexpr std::size_t kWakeAfter = 16384;
constexpr std::size_t kMostPerFeed = 262144;
// How far ahead of the reader the follower backs the entries with memory: a feed's worth (8 MiB).
// Two feeds ahead were no faster on the 1 GB snapshot and left 8 MB more behind the last entry.
constexpr std::size_t kPopulateAhead = kMostPerFeed;
} // namespace

ReplayFollower::~ReplayFollower() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    work_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::size_t ReplayFollower::follow(std::size_t allocations) {
    std::lock_guard lock(mutex_);
    slots_.emplace_back().pass.reserveAllocations(allocations);
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
    return slots_.size() - 1;
}

void ReplayFollower::regrow(std::size_t slot, const std::function<const Entry*()>& grow) {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !busy_; });
    Slot& s = slots_[slot];
    s.entries = grow();
    s.populated = 0; // new memory; what moved into it has been touched
}

void ReplayFollower::published(std::size_t slot, const Entry* entries, std::size_t count, std::size_t capacity) {
    std::lock_guard lock(mutex_);
    Slot& s = slots_[slot];
    s.entries = entries;
    s.published = count;
    s.capacity = capacity;
    if (waiting_ && !s.failed && count - s.pass.replayed() >= kWakeAfter) work_.notify_one();
}

ReplayFollower::Slot* ReplayFollower::nextWork() {
    for (Slot& s : slots_)
        if (!s.failed && s.published > s.pass.replayed()) return &s;
    return nullptr;
}

// Under the lock: the entries to back with memory next (none when too few).
ReplayFollower::Ahead ReplayFollower::aheadOf(const Slot& s) {
    const std::size_t from = std::max(s.populated, s.published);
    const std::size_t to = std::min(s.capacity, s.published + kPopulateAhead);
    // In steps of half a feed at least: each call costs a system call and a walk of the page table.
    if (to < from + kMostPerFeed / 2) return {};
    return {s.entries + from, to - from, to};
}

void ReplayFollower::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (stop_) return;
        Slot* s = nextWork();
        if (!s) {
            if (finishing_) return;
            waiting_ = true;
            work_.wait(lock);
            waiting_ = false;
            continue;
        }
        const std::size_t from = s->pass.replayed();
        const std::span<const Entry> next(s->entries + from, std::min(s->published - from, kMostPerFeed));
        const Ahead ahead = aheadOf(*s);
        busy_ = true; // the entries stay where they are until busy_ is false
        lock.unlock();
        if (ahead.count) populateNow(ahead.from, ahead.count * sizeof(Entry));
        bool failed = false;
        try {
            s->pass.feed(next);
        } catch (...) {
            failed = true; // the builder replays the list again and reports it
        }
        lock.lock();
        busy_ = false;
        s->failed = failed;
        if (ahead.count) s->populated = ahead.to;
        idle_.notify_all();
    }
}

std::vector<ReplayedEntries> ReplayFollower::finish() {
    {
        std::lock_guard lock(mutex_);
        finishing_ = true;
    }
    work_.notify_all();
    if (thread_.joinable()) thread_.join();
    std::vector<ReplayedEntries> done;
    for (Slot& s : slots_)
        if (!s.failed && s.published && s.pass.replayed() == s.published)
            done.push_back({s.entries, s.published, std::move(s.pass)});
    slots_.clear();
    return done;
}

} // namespace memviz::snapshot
