#pragma once
// Progress reporting and cancellation for long work (imports, queries over big traces).
// Plain C++ so importers can be driven from the GUI thread pool, the command line or tests.
#include <atomic>
#include <cstdint>
#include <functional>

#include "core/Errors.h"

namespace memviz {

class Progress {
public:
    using Callback = std::function<void(std::int64_t done, std::int64_t total)>;

    Progress() = default;
    explicit Progress(Callback callback, const std::atomic<bool>* cancelFlag = nullptr)
        : callback_(std::move(callback)), cancel_(cancelFlag) {}

    // Reports progress (rate-limited by the caller) and throws Cancelled when asked to stop.
    void update(std::int64_t done, std::int64_t total) const {
        checkCancelled();
        if (callback_) callback_(done, total);
    }
    void checkCancelled() const {
        if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw Cancelled();
    }
    bool cancelRequested() const { return cancel_ && cancel_->load(std::memory_order_relaxed); }

private:
    Callback callback_;
    const std::atomic<bool>* cancel_ = nullptr;
};

} // namespace memviz
