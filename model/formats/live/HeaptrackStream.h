// SPDX-License-Identifier: MIT
#pragma once
// Follows heaptrack's two streams as they arrive, chunk by chunk. HeaptrackRawStream reads
// what libheaptrack_preload/inject write (`+ size trace pointer`, `- pointer`, `c ms`): heap
// consumed now and at its peak, and the calls to allocation functions, with no delay (the
// interpreter holds its last 4 KiB of output until more comes, which would hide the end of a
// burst for seconds). HeaptrackStream reads heaptrack_interpret's text output and keeps, per
// allocation site (the innermost frame outside the allocator,
// as heaptrack_print merges them) the bytes held now, their peak and the calls. Every byte
// is read once: the state is carried from one chunk to the next (a line cut by a chunk is
// kept until its end arrives), so a long recording never is parsed again from its start.
// The complete file is imported by HeaptrackImporter when the recording stops; this reader
// only follows along, and tolerates what it does not know (it never throws on a record).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

namespace memviz {

// Splits chunks into lines, keeping a line cut by a chunk until its end arrives.
class LineSplitter {
public:
    template <typename F>
    void feed(std::string_view bytes, F&& onLine) {
        while (!bytes.empty()) {
            const std::size_t nl = bytes.find('\n');
            if (nl == std::string_view::npos) {
                partial_.append(bytes);
                return;
            }
            if (partial_.empty()) {
                onLine(bytes.substr(0, nl));
            } else {
                partial_.append(bytes.substr(0, nl));
                onLine(std::string_view(partial_));
                partial_.clear();
            }
            bytes.remove_prefix(nl + 1);
        }
    }

private:
    std::string partial_;
};

// One tick of heaptrack's clock (its `c` record, every 10 ms while the program allocates):
// the heap consumed and the calls so far at that moment.
struct HeaptrackTick {
    std::int64_t timeMs = 0;
    std::int64_t consumed = 0;
    std::int64_t calls = 0;
};

// The raw records: heap consumed, its peak, calls, heaptrack's clock.
class HeaptrackRawStream {
public:
    void feed(std::string_view bytes);
    // The ticks since the last call where the heap or the calls changed (with heaptrack's own
    // times, so the figures are drawn when they happened, not when the data arrived). A chunk
    // that ends with changes after its last tick adds one at the next tick's time (+10 ms).
    std::vector<HeaptrackTick> takeTicks();
    std::int64_t consumed() const { return consumed_; }
    std::int64_t peakConsumed() const { return peak_; }
    std::int64_t calls() const { return calls_; }
    std::int64_t timeMs() const { return timeMs_; }

private:
    void line(std::string_view l);
    LineSplitter lines_;
    std::unordered_map<std::uint64_t, std::int64_t> live_; // pointer -> size
    std::int64_t consumed_ = 0, peak_ = 0, calls_ = 0, timeMs_ = 0;
    HeaptrackTick last_;
    std::vector<HeaptrackTick> ticks_;
};

struct HeaptrackLiveSite {
    std::string function; // "main", or "0x55…" without symbols
    std::string location; // "file.cpp:12" or the module, when known
    std::int64_t bytes = 0; // held now
    std::int64_t peakBytes = 0;
    std::int64_t calls = 0;
};

class HeaptrackStream {
public:
    // Feeds the next bytes of the stream.
    void feed(std::string_view bytes);

    // heaptrack's clock: ms since the program started (the newest `c` record).
    std::int64_t timeMs() const { return timeMs_; }
    std::int64_t consumed() const { return consumed_; }
    std::int64_t peakConsumed() const { return peak_; }
    std::int64_t calls() const { return calls_; }
    std::int64_t temporary() const { return temporary_; }
    std::int64_t lines() const { return lines_; }
    std::uint64_t fileVersion() const { return fileVersion_; }
    // The `n` sites holding the most bytes now (ties: more calls first).
    std::vector<HeaptrackLiveSite> topSites(std::size_t n) const;

private:
    struct Site {
        std::uint32_t ip = 0;
        std::int64_t bytes = 0, peak = 0, calls = 0;
    };
    struct Info {
        std::int64_t size = 0;
        std::uint32_t site = 0; // index into sites_
    };
    struct Ip {
        std::uint32_t function = 0, file = 0, module = 0;
        std::uint32_t line = 0;
        std::uint64_t address = 0;
    };
    void line(std::string_view l);
    std::uint32_t siteOfTrace(std::uint64_t trace);
    std::string text(std::uint32_t index) const;

    LineSplitter splitter_;
    std::uint64_t fileVersion_ = 0;
    std::vector<std::string> strings_{std::string()};
    std::vector<Ip> ips_{Ip{}};
    std::vector<std::uint32_t> traceIp_{0};
    std::vector<Info> infos_;
    std::vector<Site> sites_;
    std::vector<std::uint32_t> siteOfIp_; // +1; 0 = none yet
    std::int64_t timeMs_ = 0, consumed_ = 0, peak_ = 0, calls_ = 0, temporary_ = 0, lines_ = 0;
    std::uint64_t lastAllocated_ = ~std::uint64_t{0};
};

} // namespace memviz
