// SPDX-License-Identifier: MIT
#pragma once
// One worker thread that runs jobs in order. The import's parser keeps parsing while the
// worker compresses chunks and writes rows, so an import uses both cores. The queue is
// bounded: a parser that runs ahead waits instead of buffering the whole file.
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace memviz {

class WorkQueue {
public:
    explicit WorkQueue(std::size_t maxPending = 6);
    ~WorkQueue(); // discards jobs not started yet, waits for the running one
    WorkQueue(const WorkQueue&) = delete;
    WorkQueue& operator=(const WorkQueue&) = delete;

    // Queues a job; rethrows the first error a job threw.
    void post(std::function<void()> job);
    // Waits until every queued job has run; rethrows the first error a job threw.
    void drain();
    // From now on post() runs jobs on the calling thread (after draining).
    void setSynchronous(bool synchronous);

private:
    void run();
    void rethrow();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::function<void()>> jobs_;
    std::size_t maxPending_;
    bool busy_ = false;
    bool stop_ = false;
    bool synchronous_ = false;
    std::exception_ptr error_;
    std::thread worker_;
};

} // namespace memviz
