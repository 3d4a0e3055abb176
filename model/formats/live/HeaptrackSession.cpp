// SPDX-License-Identifier: MIT
// heaptrack's pipe, interpreter and output file, run by memviz (see HeaptrackSession.h).
#include "formats/live/HeaptrackSession.h"

#include "formats/live/CapturedRun.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "formats/live/ProbeInjector.h"

extern char** environ;

namespace memviz {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPackages = "Debian: apt install heaptrack (heaptrack_print) and libheaptrack (its preload library "
                                  "and heaptrack_interpret)";

std::string onPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
        const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, colon - start);
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        start = colon + 1;
    }
    return {};
}

// Runs argv, collecting stdout and stderr; returns the exit code (128+signal), or throws.
int runCapture(const std::vector<std::string>& args, std::string& output, int timeoutMs) {
    CapturedRun run;
    try {
        run = runCaptured(args, timeoutMs);
    } catch (const std::runtime_error& e) {
        throw HeaptrackError(e.what());
    }
    if (run.spawnError == ENOENT) throw HeaptrackError(args.front() + " is not installed (not found on PATH)");
    if (run.spawnError != 0) throw HeaptrackError("cannot run " + args.front() + ": " + std::strerror(run.spawnError));
    if (run.timedOut)
        throw HeaptrackError(args.front() + " did not finish within " + std::to_string(timeoutMs / 1000) + " s; it was stopped");
    output = std::move(run.output);
    return run.exitCode;
}

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

std::string lastLines(const std::string& text, int n) {
    std::size_t at = text.size();
    while (n-- > 0 && at > 0) {
        const std::size_t nl = text.rfind('\n', at > 1 ? at - 2 : 0);
        at = nl == std::string::npos ? 0 : nl + 1;
        if (nl == std::string::npos) break;
    }
    std::string t = text.substr(at);
    while (!t.empty() && t.back() == '\n') t.pop_back();
    return t;
}

std::vector<std::string> gdbPrefix(int pid) {
    return {"gdb", "-q", "-batch", "-nx", "-iex", "set auto-solib-add off", "-iex", "set debuginfod enabled off",
            "-p", std::to_string(pid)};
}

} // namespace

HeaptrackTools findHeaptrack() {
    HeaptrackTools t;
    std::vector<std::string> roots;
    // Where heaptrack's libraries are, when not beside the heaptrack on PATH (an own build).
    if (const char* dir = std::getenv("MEMVIZ_HEAPTRACK_LIBDIR"); dir && *dir) roots.push_back(dir);
    else if (const std::string script = onPath("heaptrack"); !script.empty()) {
        std::error_code ec;
        const fs::path real = fs::canonical(script, ec);
        if (!ec) roots.push_back((real.parent_path() / "../lib/heaptrack").lexically_normal().string());
    }
    if (roots.empty() || !std::getenv("MEMVIZ_HEAPTRACK_LIBDIR")) roots.push_back("/usr/lib/heaptrack");
    for (const std::string& root : roots) {
        const std::string interpret = root + "/libexec/heaptrack_interpret";
        const std::string preload = root + "/libheaptrack_preload.so";
        if (::access(interpret.c_str(), X_OK) == 0 && ::access(preload.c_str(), R_OK) == 0) {
            t.interpret = interpret;
            t.preload = preload;
            t.inject = root + "/libheaptrack_inject.so";
            t.env = root + "/libexec/heaptrack_env";
            t.found = true;
            return t;
        }
    }
    t.problem = "heaptrack is not installed (no heaptrack_interpret and libheaptrack_preload.so in " + roots.front() +
                "): memviz record --native runs heaptrack; install it (" + kPackages + ")";
    return t;
}

int runGdb(const std::vector<std::string>& args, std::string& output, int timeoutMs) {
    try {
        return runCapture(args, output, timeoutMs);
    } catch (const HeaptrackError& e) {
        if (contains(e.what(), "not installed"))
            throw HeaptrackError("gdb is not installed: memviz attaches heaptrack to a running process through gdb, as "
                                 "heaptrack -p does; install it (Debian: apt install gdb)");
        throw;
    }
}

HeaptrackSession::HeaptrackSession(const HeaptrackTools& tools, std::string outputPath)
    : tools_(tools), outputPath_(std::move(outputPath)) {
    if (!tools_.found) throw HeaptrackError(tools_.problem);
    std::string pattern = "/tmp/memviz-heaptrack-XXXXXX";
    if (!::mkdtemp(pattern.data())) throw HeaptrackError(std::string("cannot make a temporary directory: ") + std::strerror(errno));
    dir_ = pattern;
    fifo_ = dir_ + "/heaptrack.fifo";
    if (::mkfifo(fifo_.c_str(), 0600) != 0) throw HeaptrackError("cannot make the pipe " + fifo_ + ": " + std::strerror(errno));
    FILE* probe = std::fopen(outputPath_.c_str(), "wb");
    if (!probe) throw HeaptrackError("cannot write " + outputPath_ + ": " + std::strerror(errno));
    std::fclose(probe);

    int out[2], in[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(in, O_CLOEXEC) != 0)
        throw HeaptrackError(std::string("cannot make a pipe: ") + std::strerror(errno));
    const std::vector<std::string> args = {tools_.interpret};
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0); // its own group: the terminal's Ctrl+C is not for it
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t child = -1;
    const int rc = ::posix_spawn(&child, tools_.interpret.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out[1]);
    ::close(in[0]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(in[1]);
        throw HeaptrackError(std::string("cannot start heaptrack_interpret: ") + std::strerror(rc));
    }
    interpreterPid_ = child;
    outFd_ = out[0];
    toInterpFd_ = in[1];
    rawReader_ = std::thread([this] { rawLoop(); });
    forwarder_ = std::thread([this] { forwardLoop(); });
    reader_ = std::thread([this] { readLoop(); });
}

HeaptrackSession::~HeaptrackSession() {
    finish(0);
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

std::vector<std::string> HeaptrackSession::launchEnvironment() const {
    const char* old = std::getenv("LD_PRELOAD");
    std::string preload = tools_.preload;
    if (old && *old) preload += std::string(":") + old;
    return {"LD_PRELOAD=" + preload, "DUMP_HEAPTRACK_OUTPUT=" + fifo_};
}

void HeaptrackSession::readLoop() {
    FILE* file = std::fopen(outputPath_.c_str(), "wb");
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::vector<char> in(1 << 16), zout(ZSTD_CStreamOutSize());
    auto compress = [&](const char* data, std::size_t size, ZSTD_EndDirective mode) {
        ZSTD_inBuffer input{data, size, 0};
        for (;;) {
            ZSTD_outBuffer output{zout.data(), zout.size(), 0};
            const std::size_t left = ZSTD_compressStream2(cctx, &output, &input, mode);
            if (ZSTD_isError(left)) {
                std::lock_guard lock(mutex_);
                writeError_ = ZSTD_getErrorName(left);
                return;
            }
            if (file && output.pos) std::fwrite(zout.data(), 1, output.pos, file);
            const bool done = mode == ZSTD_e_end ? left == 0 : input.pos == input.size;
            if (done) return;
        }
    };
    for (;;) {
        const ssize_t got = ::read(outFd_, in.data(), in.size());
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        compress(in.data(), static_cast<std::size_t>(got), ZSTD_e_continue);
        std::lock_guard lock(mutex_);
        stream_.feed(std::string_view(in.data(), static_cast<std::size_t>(got)));
        bytesRead_ += got;
    }
    compress(nullptr, 0, ZSTD_e_end);
    ZSTD_freeCCtx(cctx);
    if (file) std::fclose(file);
    std::lock_guard lock(mutex_);
    ended_ = true;
}

void HeaptrackSession::rawLoop() {
    // Blocks until the program opens the pipe for writing (or unblockOpen does).
    const int fd = ::open(fifo_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        {
            std::lock_guard lock(mutex_);
            rawOpened_ = true;
        }
        std::vector<char> buf(1 << 16);
        while (!abort_.load()) {
            pollfd p{fd, POLLIN, 0};
            const int n = ::poll(&p, 1, 100);
            if (n < 0 && errno != EINTR) break;
            if (n <= 0) continue;
            const ssize_t got = ::read(fd, buf.data(), buf.size());
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) break;
            const std::string_view chunk(buf.data(), static_cast<std::size_t>(got));
            {
                std::lock_guard lock(mutex_);
                raw_.feed(chunk);
            }
            std::lock_guard lock(queueMutex_);
            queue_.emplace_back(chunk);
            queueReady_.notify_one();
        }
        ::close(fd);
    }
    std::lock_guard lock(queueMutex_);
    rawDone_ = true;
    queueReady_.notify_one();
}

void HeaptrackSession::forwardLoop() {
    // A write to an interpreter that died fails with EPIPE here instead of killing memviz.
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    bool forward = true;
    for (;;) {
        std::string chunk;
        {
            std::unique_lock lock(queueMutex_);
            queueReady_.wait(lock, [&] { return !queue_.empty() || rawDone_ || abort_.load(); });
            if (abort_.load() || queue_.empty()) break; // aborted, or the data ended and all went on
            chunk = std::move(queue_.front());
            queue_.pop_front();
        }
        for (std::size_t done = 0; forward && done < chunk.size();) {
            const ssize_t w = ::write(toInterpFd_, chunk.data() + done, chunk.size() - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) forward = false; // the interpreter is gone: the rest is dropped
            else done += static_cast<std::size_t>(w);
        }
    }
    ::close(toInterpFd_); // the interpreter reads the end of the data
    toInterpFd_ = -1;
}

HeaptrackSnapshot HeaptrackSession::snapshot() const {
    std::lock_guard lock(mutex_);
    HeaptrackSnapshot s;
    s.consumed = raw_.consumed();
    s.peak = raw_.peakConsumed();
    s.calls = raw_.calls();
    s.timeMs = raw_.timeMs();
    s.bytesRead = bytesRead_;
    s.ended = ended_;
    return s;
}

std::vector<HeaptrackTick> HeaptrackSession::takeTicks() {
    std::lock_guard lock(mutex_);
    return raw_.takeTicks();
}

std::vector<HeaptrackLiveSite> HeaptrackSession::topSites(std::size_t n) const {
    std::lock_guard lock(mutex_);
    return stream_.topSites(n);
}

bool HeaptrackSession::waitForEnd(int ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (ended_) return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

void HeaptrackSession::unblockOpen() {
    // The raw thread waits in open() while no program opened the pipe: a writer that opens
    // and closes at once lets it read the end of the (empty) data.
    const int fd = ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) ::close(fd);
}

void HeaptrackSession::finish(int waitMs) {
    if (finished_) return;
    finished_ = true;
    unblockOpen();
    if (!waitForEnd(waitMs)) {
        abort_ = true; // a program still holding the pipe open: stop reading it
        {
            std::lock_guard lock(queueMutex_);
            queueReady_.notify_all();
        }
        if (interpreterPid_ > 0) ::kill(-interpreterPid_, SIGTERM);
    }
    if (!waitForEnd(2000) && interpreterPid_ > 0) ::kill(-interpreterPid_, SIGKILL);
    if (rawReader_.joinable()) rawReader_.join();
    if (forwarder_.joinable()) forwarder_.join();
    if (reader_.joinable()) reader_.join();
    if (outFd_ >= 0) ::close(outFd_);
    outFd_ = -1;
    if (interpreterPid_ > 0) {
        int status = 0;
        while (::waitpid(interpreterPid_, &status, 0) < 0 && errno == EINTR) {
        }
        interpreterPid_ = -1;
    }
}

void HeaptrackSession::attach(int pid) {
    if (::access(tools_.inject.c_str(), R_OK) != 0)
        throw HeaptrackError(std::string("libheaptrack_inject.so is not installed (") + tools_.inject + "): " + kPackages);
    std::string dlopen;
    runCapture({tools_.env, "dlopen", tools_.inject}, dlopen, 10'000);
    while (!dlopen.empty() && (dlopen.back() == '\n' || dlopen.back() == ' ')) dlopen.pop_back();
    if (dlopen.empty()) throw HeaptrackError("heaptrack_env did not say how to load libheaptrack_inject.so");
    // A target of another user (memviz run as root) must be able to open the pipe, as
    // /usr/bin/heaptrack's chown of its pipe allows.
    struct stat st {};
    if (::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0 && st.st_uid != ::geteuid()) {
        [[maybe_unused]] const int a = ::chown(dir_.c_str(), st.st_uid, st.st_gid);
        [[maybe_unused]] const int b = ::chown(fifo_.c_str(), st.st_uid, st.st_gid);
    }
    std::vector<std::string> args = gdbPrefix(pid);
    for (const std::string& e : {std::string("sharedlibrary libc.so"), "call (void) " + dlopen,
                                 std::string("sharedlibrary libheaptrack_inject"),
                                 "call (void) heaptrack_inject(\"" + fifo_ + "\")", std::string("detach")}) {
        args.push_back("-ex");
        args.push_back(e);
    }
    std::string output;
    const int code = runGdb(args, output, 120'000);
    const std::string who = "process " + std::to_string(pid);
    if (contains(output, "ptrace: Operation not permitted")) throw HeaptrackError(ptraceExplanation(pid));
    if (contains(output, "ptrace: No such process") || contains(output, "No such process"))
        throw HeaptrackError(who + " exited before gdb could attach; nothing was recorded");
    if (contains(output, "exited while in a function called from GDB") || contains(output, "exited normally]") ||
        contains(output, "exited with code") || contains(output, "The program being debugged exited"))
        throw HeaptrackError(who + " exited while heaptrack was being attached; nothing was recorded");
    if (contains(output, "No symbol \"heaptrack_inject\"") || contains(output, "No symbol table is loaded"))
        throw HeaptrackError("gdb could not load libheaptrack_inject.so into " + who +
                             " (heaptrack -p needs a process that can dlopen: " + lastLines(output, 3) + ")");
    if (code != 0)
        throw HeaptrackError("gdb could not attach heaptrack to " + who + " (exit status " + std::to_string(code) +
                             "): " + lastLines(output, 4));
}

void HeaptrackSession::detach(int pid) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return;
    std::vector<std::string> args = gdbPrefix(pid);
    for (const char* e : {"sharedlibrary libheaptrack_inject", "call (void) heaptrack_stop()", "detach"}) {
        args.push_back("-ex");
        args.push_back(e);
    }
    std::string output;
    try {
        runGdb(args, output, 60'000);
    } catch (const HeaptrackError&) {
        // gdb gone or hung: finish() ends the data without it
    }
}

} // namespace memviz
