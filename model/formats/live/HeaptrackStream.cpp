// SPDX-License-Identifier: MIT
// heaptrack_interpret's output followed chunk by chunk (see HeaptrackStream.h).
#include "formats/live/HeaptrackStream.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace memviz {

namespace {

constexpr std::uint64_t kNone = ~std::uint64_t{0};

// The next space-separated hex field, or kNone.
std::uint64_t hexField(std::string_view& rest) {
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v, 16);
    if (ec != std::errc() || end == rest.data()) return kNone;
    rest.remove_prefix(static_cast<std::size_t>(end - rest.data()));
    return v;
}

// No allocation is larger than the user address space (2^47 bytes on x86-64); a size above it
// is damage, and the record is skipped.
constexpr std::uint64_t kMaxSize = std::uint64_t{1} << 47;

// heaptrack's clock in ms since the program started; a time past 2^53 ms (285,000 years) is
// damage, and the record is skipped (the next tick is stamped 10 ms later, which must not
// overflow).
constexpr std::uint64_t kMaxTimeMs = std::uint64_t{1} << 53;

// Adds as unsigned numbers: a hostile stream's sizes may sum past int64, which must wrap, not
// be undefined (a real recording never gets near).
void add(std::int64_t& to, std::int64_t v) {
    to = static_cast<std::int64_t>(static_cast<std::uint64_t>(to) + static_cast<std::uint64_t>(v));
}

} // namespace

void HeaptrackStream::feed(std::string_view bytes) {
    splitter_.feed(bytes, [this](std::string_view l) { line(l); });
}

void HeaptrackRawStream::feed(std::string_view bytes) {
    lines_.feed(bytes, [this](std::string_view l) { line(l); });
    // heaptrack's library writes its buffer when it is full, so a burst often arrives without
    // the `c` that follows it (that one waits, with the idle ticks after it, for the next
    // buffer: seconds when the program is quiet). The burst happened before that tick, which
    // comes 10 ms after the last one: it is stamped so now instead of waiting.
    if (consumed_ != last_.consumed || calls_ != last_.calls) {
        last_ = HeaptrackTick{timeMs_ + 10, consumed_, calls_};
        ticks_.push_back(last_);
    }
}

void HeaptrackRawStream::line(std::string_view l) {
    if (l.empty()) return;
    std::string_view rest = l.substr(1);
    switch (l.front()) {
    case '+': {
        const std::uint64_t size = hexField(rest);
        (void)hexField(rest); // the backtrace
        const std::uint64_t pointer = hexField(rest);
        if (size > kMaxSize || pointer == kNone) return;
        add(consumed_, static_cast<std::int64_t>(size));
        peak_ = std::max(peak_, consumed_);
        ++calls_;
        live_[pointer] = static_cast<std::int64_t>(size);
        return;
    }
    case '-': {
        const auto it = live_.find(hexField(rest));
        if (it == live_.end()) return; // allocated before an attach: heaptrack ignores it too
        add(consumed_, -it->second);
        live_.erase(it);
        return;
    }
    case 'c': {
        const std::uint64_t t = hexField(rest);
        if (t > kMaxTimeMs) return;
        timeMs_ = static_cast<std::int64_t>(t);
        if (consumed_ != last_.consumed || calls_ != last_.calls) {
            last_ = HeaptrackTick{timeMs_, consumed_, calls_};
            ticks_.push_back(last_);
        }
        return;
    }
    default: return;
    }
}

std::vector<HeaptrackTick> HeaptrackRawStream::takeTicks() {
    std::vector<HeaptrackTick> out;
    out.swap(ticks_);
    return out;
}

std::uint32_t HeaptrackStream::siteOfTrace(std::uint64_t trace) {
    const std::uint32_t ip = trace < traceIp_.size() ? traceIp_[trace] : 0;
    if (siteOfIp_.size() <= ip) siteOfIp_.resize(ip + 1, 0);
    if (siteOfIp_[ip] == 0) {
        sites_.push_back(Site{ip, 0, 0, 0});
        siteOfIp_[ip] = static_cast<std::uint32_t>(sites_.size());
    }
    return siteOfIp_[ip] - 1;
}

void HeaptrackStream::line(std::string_view l) {
    ++lines_;
    if (l.size() < 1) return;
    const char type = l.front();
    std::string_view rest = l.substr(1);
    switch (type) {
    case '+': {
        const std::uint64_t i = hexField(rest);
        if (i >= infos_.size()) return;
        Info& info = infos_[i];
        Site& s = sites_[info.site];
        add(consumed_, info.size);
        peak_ = std::max(peak_, consumed_);
        ++calls_;
        add(s.bytes, info.size);
        s.peak = std::max(s.peak, s.bytes);
        ++s.calls;
        lastAllocated_ = i;
        return;
    }
    case '-': {
        const std::uint64_t i = hexField(rest);
        if (i >= infos_.size()) return;
        const Info& info = infos_[i];
        add(consumed_, -info.size);
        add(sites_[info.site].bytes, -info.size);
        if (lastAllocated_ == i) ++temporary_;
        lastAllocated_ = kNone;
        return;
    }
    case 'c': {
        const std::uint64_t t = hexField(rest);
        if (t <= kMaxTimeMs) timeMs_ = static_cast<std::int64_t>(t);
        return;
    }
    case 'a': {
        const std::uint64_t size = hexField(rest);
        const std::uint64_t trace = hexField(rest);
        // A damaged record still takes its index (the `+`/`-` records count the infos), with
        // no bytes or no known site.
        infos_.push_back(Info{size > kMaxSize ? 0 : static_cast<std::int64_t>(size), siteOfTrace(trace == kNone ? 0 : trace)});
        return;
    }
    case 't': {
        const std::uint64_t ip = hexField(rest);
        traceIp_.push_back(ip < ips_.size() ? static_cast<std::uint32_t>(ip) : 0);
        return;
    }
    case 'i': {
        Ip ip;
        ip.address = hexField(rest);
        const std::uint64_t module = hexField(rest), function = hexField(rest), file = hexField(rest),
                            lineNo = hexField(rest);
        ip.module = module == kNone ? 0 : static_cast<std::uint32_t>(module);
        ip.function = function == kNone ? 0 : static_cast<std::uint32_t>(function);
        ip.file = file == kNone ? 0 : static_cast<std::uint32_t>(file);
        ip.line = lineNo == kNone ? 0 : static_cast<std::uint32_t>(lineNo);
        ips_.push_back(ip);
        return;
    }
    case 's': {
        if (fileVersion_ >= 3) {
            (void)hexField(rest); // the length; the text is the rest after one space
            strings_.emplace_back(rest.empty() ? rest : rest.substr(1));
        } else {
            strings_.emplace_back(rest.empty() ? rest : rest.substr(1));
        }
        return;
    }
    case 'v': {
        (void)hexField(rest);
        const std::uint64_t version = hexField(rest);
        fileVersion_ = version == kNone ? 0 : version;
        return;
    }
    default: return; // X, I, R, A, S, comments: not needed live
    }
}

std::string HeaptrackStream::text(std::uint32_t index) const { return index < strings_.size() ? strings_[index] : std::string(); }

std::vector<HeaptrackLiveSite> HeaptrackStream::topSites(std::size_t n) const {
    std::vector<const Site*> order;
    order.reserve(sites_.size());
    for (const Site& s : sites_) order.push_back(&s);
    const std::size_t k = std::min(n, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [](const Site* a, const Site* b) {
                          if (a->bytes != b->bytes) return a->bytes > b->bytes;
                          if (a->calls != b->calls) return a->calls > b->calls;
                          return a->ip < b->ip;
                      });
    std::vector<HeaptrackLiveSite> out;
    for (std::size_t i = 0; i < k; ++i) {
        const Site& s = *order[i];
        const Ip& ip = s.ip < ips_.size() ? ips_[s.ip] : ips_[0];
        HeaptrackLiveSite site;
        site.function = text(ip.function);
        if (site.function.empty()) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(ip.address));
            site.function = s.ip == 0 ? "(unknown)" : buf;
        }
        const std::string file = text(ip.file);
        site.location = !file.empty() ? file + ":" + std::to_string(ip.line) : text(ip.module);
        site.bytes = s.bytes;
        site.peakBytes = s.peak;
        site.calls = s.calls;
        out.push_back(std::move(site));
    }
    return out;
}

} // namespace memviz
