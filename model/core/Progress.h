// SPDX-License-Identifier: MIT
#pragma once
// Progress reporting and cancellation for long work (imports, queries over big traces).
// Plain C++ so importers can be driven from the GUI thread pool, the command line or tests.
// An import goes through phases (reading the file, building what the format derives from it,
// writing the store); update() reports progress within the current phase, so a caller can
// show one bar that only moves forward and names the phase.
#include <atomic>
#include <cstdint>
#include <functional>

#include "core/Errors.h"

namespace memviz {

enum class ProgressPhase { Reading, Building, Writing };

class Progress {
public:
    using Callback = std::function<void(std::int64_t done, std::int64_t total)>;
    using PhaseCallback = std::function<void(ProgressPhase phase)>;

    Progress() = default;
    explicit Progress(Callback callback, const std::atomic<bool>* cancelFlag = nullptr, PhaseCallback phase = {})
        : callback_(std::move(callback)), phase_(std::move(phase)), cancel_(cancelFlag) {}

    // Starts a phase; later update() calls are progress within it.
    void enterPhase(ProgressPhase phase) const {
        checkCancelled();
        if (phase_) phase_(phase);
    }
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
    PhaseCallback phase_;
    const std::atomic<bool>* cancel_ = nullptr;
};

} // namespace memviz
