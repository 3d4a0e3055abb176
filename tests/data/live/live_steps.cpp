// A program with known memory steps for the live-recording tests. It maps and touches
// STEP MiB of anonymous memory twice, holding each level for HOLD ms, frees both, holds
// again and exits with the status asked for. Every phase's CLOCK_MONOTONIC time goes to the
// timeline file, so the tests compare what memviz sampled with what really happened.
//
//   live_steps [--timeline FILE] [--step-mib N] [--hold-ms H] [--exit-code C]
//              [--wait-stdin] [--in-child] [--linger-ms L]
//
// --wait-stdin: print "ready PID" and wait for a line on stdin before starting (attach tests).
// --in-child:   a forked child makes the steps while this process waits (children tests).
// --linger-ms:  stay alive this long after the last phase (a process to attach to and kill).
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

namespace {

long long nowNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

void sleepMs(long ms) {
    timespec ts{ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

FILE* timeline = nullptr;

void mark(const char* event) {
    if (!timeline) return;
    std::fprintf(timeline, "%s %lld\n", event, nowNs());
    std::fflush(timeline);
}

void* touched(std::size_t bytes) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        std::perror("mmap");
        std::exit(99);
    }
    std::memset(p, 0x5a, bytes); // every page really resident, none shared with the zero page
    return p;
}

void steps(std::size_t bytes, long holdMs) {
    mark("start");
    sleepMs(holdMs);
    mark("alloc1_begin");
    void* a = touched(bytes);
    mark("alloc1_end");
    sleepMs(holdMs);
    mark("alloc2_begin");
    void* b = touched(bytes);
    mark("alloc2_end");
    sleepMs(holdMs);
    mark("free_begin");
    munmap(a, bytes);
    munmap(b, bytes);
    mark("free_end");
    sleepMs(holdMs);
    mark("end");
}

} // namespace

int main(int argc, char** argv) {
    long stepMib = 64, holdMs = 400, lingerMs = 0;
    int exitCode = 0;
    bool waitStdin = false, inChild = false;
    const char* timelinePath = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--timeline") timelinePath = value();
        else if (a == "--step-mib") stepMib = std::atol(value());
        else if (a == "--hold-ms") holdMs = std::atol(value());
        else if (a == "--exit-code") exitCode = std::atoi(value());
        else if (a == "--linger-ms") lingerMs = std::atol(value());
        else if (a == "--wait-stdin") waitStdin = true;
        else if (a == "--in-child") inChild = true;
        else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (timelinePath && !(timeline = std::fopen(timelinePath, "w"))) {
        std::perror(timelinePath);
        return 2;
    }
    if (waitStdin) {
        std::printf("ready %d\n", static_cast<int>(getpid()));
        std::fflush(stdout);
        char line[64];
        if (!std::fgets(line, sizeof line, stdin)) return 3;
    }
    const std::size_t bytes = static_cast<std::size_t>(stepMib) * 1024 * 1024;
    if (inChild) {
        const pid_t child = fork();
        if (child == 0) {
            steps(bytes, holdMs);
            std::fflush(timeline);
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
    } else {
        steps(bytes, holdMs);
    }
    if (lingerMs > 0) sleepMs(lingerMs);
    return exitCode;
}
