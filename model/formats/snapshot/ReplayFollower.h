// SPDX-License-Identifier: MIT
#pragma once
// Replays a snapshot's trace entries on a second thread while the pickle is still being read
// (issue 33: the parse runs on one core and the replay used to wait for its end). The reader
// appends entries to its lists and publishes how many there are; the follower feeds them to
// one ReplayPass per list. A list's vector grows (and its entries move) only while the
// follower holds still. A pass that fails (a byte count overflowing) is dropped: the
// builder replays that list again and reports the error where it always did.
// The follower also backs the reader's next entries with memory before the reader gets there
// (populateNow): zeroing fresh pages was a sixth of the parse thread's time.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "formats/snapshot/SnapshotReplay.h"

namespace memviz::snapshot {

class ReplayFollower {
public:
    ReplayFollower() = default;
    ~ReplayFollower(); // stops the thread without waiting for the rest, and frees every pass
    ReplayFollower(const ReplayFollower&) = delete;
    ReplayFollower& operator=(const ReplayFollower&) = delete;

    // A new list of entries to follow; its slot for published(). `allocations`: a hint.
    std::size_t follow(std::size_t allocations);
    // Runs `grow`, which may move the entries of the list in `slot` and returns where they are
    // now, while the follower holds still.
    void regrow(std::size_t slot, const std::function<const Entry*()>& grow);
    // The list in `slot` now holds `count` entries at `entries`, with room for `capacity`.
    void published(std::size_t slot, const Entry* entries, std::size_t count, std::size_t capacity);
    // Waits until everything published is replayed and ends the thread.
    std::vector<ReplayedEntries> finish();

private:
    struct Slot {
        const Entry* entries = nullptr;
        std::size_t published = 0;
        std::size_t capacity = 0;
        std::size_t populated = 0; // entries [0, populated) have memory behind them
        ReplayPass pass;
        bool failed = false;
    };
    Slot* nextWork(); // under the lock
    struct Ahead {
        const Entry* from = nullptr;
        std::size_t count = 0, to = 0;
    };
    static Ahead aheadOf(const Slot& s);
    void run();

    std::mutex mutex_;
    std::condition_variable work_, idle_;
    std::deque<Slot> slots_; // growing at the end keeps references to the others
    bool busy_ = false, waiting_ = false, finishing_ = false, stop_ = false;
    std::thread thread_;
};

} // namespace memviz::snapshot
