// SPDX-License-Identifier: MIT
#include "cli/ImportWorker.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/Errors.h"
#include "core/PreviewSink.h"
#include "core/Progress.h"
#include "formats/ImportWorkerProtocol.h"
#include "store/StoreFiles.h"

namespace memviz {

namespace {

using importworker::Line;

std::atomic<bool> cancelRequested{false};
std::atomic<bool> allocationFailed{false};
std::terminate_handler defaultTerminate = nullptr;

void onSigterm(int) { cancelRequested.store(true); }

// One write per line: lines from several threads never interleave (a pipe writes up to
// PIPE_BUF bytes at once).
void send(const Line& line) {
    const std::string text = importworker::format(line);
    std::size_t at = 0;
    while (at < text.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, text.data() + at, text.size() - at);
        if (n <= 0) return; // the window is gone: nobody to tell
        at += static_cast<std::size_t>(n);
    }
}

// operator new failing (under the ceiling) is remembered: an importer may catch bad_alloc
// and say something vaguer, but the window should hear that memory ran out.
void onAllocationFailure() {
    allocationFailed.store(true);
    std::set_new_handler(nullptr);
    throw std::bad_alloc();
}

// An exception that escaped a thread: bad_alloc is reported as such, anything else takes
// the ordinary way (the runtime's message on stderr, then abort).
void onTerminate() {
    if (const std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::bad_alloc&) {
            send(Line::outOfMemory());
            std::_Exit(importworker::kExitOutOfMemory);
        } catch (...) {}
    }
    if (defaultTerminate) defaultTerminate();
    std::abort();
}

bool limitMemory(std::int64_t bytes) {
    if (bytes <= 0) return true;
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(bytes);
    // RLIMIT_DATA, not RLIMIT_AS: the address space also counts the shared libraries' and
    // threads' reservations. Measured (docs/gui.md): a profiler trace whose import peaks at
    // 96 MB resident fails under a 256 MiB RLIMIT_AS and imports under a 256 MiB RLIMIT_DATA.
    return ::setrlimit(RLIMIT_DATA, &limit) == 0;
}

// The test-only crash (importworker::kCrashVariable), at the first progress report while
// reading, after that report went out: the window then knows how far the reader got.
void crashForTest(const std::string& how, std::int64_t ceiling) {
    rlimit noCore{};
    ::setrlimit(RLIMIT_CORE, &noCore); // a crash on purpose leaves no core file behind
    if (how == "segv") {
        std::raise(SIGSEGV);
    } else if (how == "abort") {
        std::abort();
    } else if (how == "oom") {
        // Allocates and touches memory until the ceiling stops it. Never more than twice the
        // ceiling: should the ceiling not hold, the test fails instead of the machine.
        std::vector<std::unique_ptr<char[]>> held;
        const std::size_t block = std::size_t{16} << 20;
        const std::int64_t cap = ceiling > 0 ? 2 * ceiling : std::int64_t{1} << 30;
        for (std::int64_t total = 0; total < cap; total += static_cast<std::int64_t>(block)) {
            held.emplace_back(new char[block]);
            std::memset(held.back().get(), 1, block);
        }
        send(Line::failed("the memory ceiling did not stop the test allocation"));
        std::abort();
    } else if (how == "hang") {
        std::signal(SIGTERM, SIG_IGN); // only SIGKILL ends it
        for (;;) ::pause();
    }
}

class Reporter {
public:
    explicit Reporter(std::string crash, std::int64_t ceiling) : crash_(std::move(crash)), ceiling_(ceiling) {}

    void phase(ProgressPhase phase) {
        std::lock_guard lock(mutex_);
        phase_ = phase;
        lastPermille_ = -1;
        send(Line::phaseStarts(phase));
    }
    // At most one line per permille of a phase.
    void progress(std::int64_t done, std::int64_t total) {
        std::lock_guard lock(mutex_);
        const int permille = total > 0 ? static_cast<int>(std::min<std::int64_t>(done, total) * 1000 / total) : 0;
        if (permille == lastPermille_) return;
        lastPermille_ = permille;
        send(Line::progressed(done, total));
        if (!crash_.empty() && phase_ == ProgressPhase::Reading && done > 0) crashForTest(crash_, ceiling_);
    }

    // Preview lines (PreviewSink, below), under the same lock as the progress lines.
    void sendLine(const Line& line) {
        std::lock_guard lock(mutex_);
        send(line);
    }

private:
    std::mutex mutex_;
    ProgressPhase phase_ = ProgressPhase::Reading;
    int lastPermille_ = -1;
    std::string crash_;
    std::int64_t ceiling_;
};

// The importer's live preview, as `preview` lines: points are gathered per device and go out
// every kPreviewIntervalMs at most (the window replots a few times a second anyway); bases that
// came without points (the importer's exact ones) and restarts go out at once.
class PreviewLines : public PreviewSink {
public:
    explicit PreviewLines(Reporter& reporter) : reporter_(reporter) {}

    void preview(const PreviewBatch& batch) override {
        PreviewBatch* pending = nullptr;
        for (PreviewBatch& p : pending_)
            if (p.device == batch.device) pending = &p;
        if (!pending) pending = &pending_.emplace_back();
        pending->device = batch.device;
        pending->axis = batch.axis;
        pending->allocatedBase = batch.allocatedBase;
        pending->reservedBase = batch.reservedBase;
        pending->points.insert(pending->points.end(), batch.points.begin(), batch.points.end());
        const auto now = std::chrono::steady_clock::now();
        if (batch.points.empty() || now - lastSent_ >= std::chrono::milliseconds(kPreviewIntervalMs)) flush();
    }
    void restart() override {
        pending_.clear();
        reporter_.sendLine(Line::previewRestarts());
    }
    void flush() {
        for (PreviewBatch& p : pending_) {
            // Lines of a few KiB: at most kPointsPerLine points each.
            std::size_t at = 0;
            do {
                PreviewBatch part{p.device, p.axis, p.allocatedBase, p.reservedBase, {}};
                const std::size_t n = std::min(kPointsPerLine, p.points.size() - at);
                part.points.assign(p.points.begin() + static_cast<std::ptrdiff_t>(at),
                                   p.points.begin() + static_cast<std::ptrdiff_t>(at + n));
                reporter_.sendLine(Line::previewed(std::move(part)));
                at += n;
            } while (at < p.points.size());
        }
        pending_.clear();
        lastSent_ = std::chrono::steady_clock::now();
    }

private:
    static constexpr int kPreviewIntervalMs = 200;
    static constexpr std::size_t kPointsPerLine = 64;
    Reporter& reporter_;
    std::vector<PreviewBatch> pending_;
    std::chrono::steady_clock::time_point lastSent_{};
};

int usage() {
    const char text[] = "usage: memviz --import-worker FILE --db STORE [--memory-limit BYTES]\n";
    (void)!::write(STDERR_FILENO, text, sizeof text - 1);
    return importworker::kExitUsage;
}

} // namespace

int runImportWorker(int argc, char** argv) {
    std::string file, store;
    std::int64_t ceiling = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--db" && i + 1 < argc) store = argv[++i];
        else if (a == "--memory-limit" && i + 1 < argc) ceiling = std::strtoll(argv[++i], nullptr, 10);
        else if (file.empty() && a.rfind("--", 0) != 0) file = a;
        else return usage();
    }
    if (file.empty() || store.empty()) return usage();

    // A worker whose window is gone stops too (its import rolls back).
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    struct sigaction term {};
    term.sa_handler = onSigterm;
    ::sigaction(SIGTERM, &term, nullptr);
    defaultTerminate = std::set_terminate(onTerminate);
    std::set_new_handler(onAllocationFailure);
    if (!limitMemory(ceiling)) {
        send(Line::failed("cannot set the memory ceiling of " + std::to_string(ceiling) + " bytes: " + std::strerror(errno)));
        return importworker::kExitError;
    }

    const char* crash = std::getenv(importworker::kCrashVariable);
    auto reporter = std::make_shared<Reporter>(crash ? crash : "", ceiling);
    const Progress progress([reporter](std::int64_t done, std::int64_t total) { reporter->progress(done, total); },
                            &cancelRequested, [reporter](ProgressPhase phase) { reporter->phase(phase); });
    PreviewLines previewLines(*reporter);
    const ScopedPreviewSink previewScope(&previewLines);
    try {
        const OpenedTrace t = openTrace(file, store, progress, 0, ImportStore::Cache);
        previewLines.flush();
        send(Line::finished(t.traceId, t.imported));
        return importworker::kExitDone;
    } catch (const Cancelled&) {
        send(Line::cancelled());
        return importworker::kExitCancelled;
    } catch (const std::bad_alloc&) {
        send(Line::outOfMemory());
        return importworker::kExitOutOfMemory;
    } catch (const std::exception& e) {
        if (allocationFailed.load()) {
            send(Line::outOfMemory());
            return importworker::kExitOutOfMemory;
        }
        send(Line::failed(e.what()));
        return importworker::kExitError;
    }
}

} // namespace memviz
