// SPDX-License-Identifier: MIT
#include "formats/snapshot/ReplayFollower.h"

#include <algorithm>

namespace memviz::snapshot {

namespace {
// The follower wakes when this many entries wait (fewer wake-ups than the reader's batches of
// about a thousand), and feeds at most kMostPerFeed before it lets the reader grow a vector.
constexpr std::size_t kWakeAfter = 16384;
constexpr std::size_t kMostPerFeed = 262144;
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
    slots_[slot].entries = grow();
}

void ReplayFollower::published(std::size_t slot, const Entry* entries, std::size_t count) {
    std::lock_guard lock(mutex_);
    Slot& s = slots_[slot];
    s.entries = entries;
    s.published = count;
    if (waiting_ && !s.failed && count - s.pass.replayed() >= kWakeAfter) work_.notify_one();
}

ReplayFollower::Slot* ReplayFollower::nextWork() {
    for (Slot& s : slots_)
        if (!s.failed && s.published > s.pass.replayed()) return &s;
    return nullptr;
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
        busy_ = true;
        lock.unlock();
        bool failed = false;
        try {
            s->pass.feed(next);
        } catch (...) {
            failed = true; // the builder replays the list again and reports it
        }
        lock.lock();
        busy_ = false;
        s->failed = failed;
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
