// SPDX-License-Identifier: MIT
#pragma once
// Full chunk buffers lent to the writer's work queue and given back when its job is done with
// them (issue 33). A fresh buffer per chunk costs its page faults and zeroing every time, and on
// the virtual machines memviz is measured on a fresh page costs up to 2 ms per MiB; so a filled
// buffer goes to the queue, and the one filled next is one the queue gave back. At most `maxOut`
// are with the queue at a time: a producer that runs ahead waits for one to come back instead of
// filling fresh memory.
//
// The pool must outlive every job that holds a lent buffer (declare it before the queue).
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace memviz {

template <class Buffer>
class LendingPool {
public:
    // `capacity`: the size of a full buffer; only buffers of exactly that capacity come back.
    LendingPool(std::size_t maxOut, std::size_t capacity) : maxOut_(maxOut), capacity_(capacity) { spare_.reserve(maxOut); }
    LendingPool(const LendingPool&) = delete;
    LendingPool& operator=(const LendingPool&) = delete;

    // An empty buffer of `capacity` to fill: one given back, or a fresh one while fewer than
    // maxOut are lent; otherwise waits for one to come back.
    Buffer take() {
        Buffer b;
        {
            std::unique_lock lock(mutex_);
            returned_.wait(lock, [this] { return !spare_.empty() || out_ < maxOut_; });
            if (!spare_.empty()) {
                b = std::move(spare_.back());
                spare_.pop_back();
            }
        }
        if (b.capacity() < capacity_) b.reserve(capacity_);
        return b;
    }

    // `full` for a job: it comes back to the pool when the last holder lets go (the job ran,
    // threw, or was dropped).
    std::shared_ptr<const Buffer> lend(Buffer full) {
        {
            const std::lock_guard lock(mutex_);
            ++out_;
        }
        return std::shared_ptr<const Buffer>(new Buffer(std::move(full)), [this](const Buffer* b) {
            giveBack(std::move(*const_cast<Buffer*>(b)));
            delete b;
        });
    }

private:
    void giveBack(Buffer b) noexcept {
        {
            const std::lock_guard lock(mutex_);
            --out_;
            if (b.capacity() == capacity_ && spare_.size() < maxOut_) {
                b.clear();
                spare_.push_back(std::move(b)); // reserved at construction: no allocation
            }
        }
        returned_.notify_all();
    }

    const std::size_t maxOut_, capacity_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<Buffer> spare_;
    std::size_t out_ = 0;
};

} // namespace memviz
