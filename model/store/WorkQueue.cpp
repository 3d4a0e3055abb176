// SPDX-License-Identifier: MIT
#include "store/WorkQueue.h"

namespace memviz {

WorkQueue::WorkQueue(std::size_t maxPending) : maxPending_(maxPending), worker_([this] { run(); }) {}

WorkQueue::~WorkQueue() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        jobs_.clear();
    }
    changed_.notify_all();
    worker_.join();
}

void WorkQueue::rethrow() {
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

void WorkQueue::setSynchronous(bool synchronous) {
    drain();
    std::lock_guard lock(mutex_);
    synchronous_ = synchronous;
}

void WorkQueue::post(std::function<void()> job) {
    if (synchronous_) { // only the posting thread changes this flag
        job();
        return;
    }
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return jobs_.size() < maxPending_ || error_; });
    rethrow();
    jobs_.push_back(std::move(job));
    changed_.notify_all();
}

void WorkQueue::drain() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return (jobs_.empty() && !busy_) || error_; });
    rethrow();
}

void WorkQueue::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
        if (stop_) return;
        std::function<void()> job = std::move(jobs_.front());
        jobs_.pop_front();
        busy_ = true;
        lock.unlock();
        std::exception_ptr failure;
        try {
            job();
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        busy_ = false;
        if (failure && !error_) {
            error_ = failure;
            jobs_.clear(); // later jobs depend on this one
        }
        changed_.notify_all();
    }
}

} // namespace memviz
