// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackTimeline.h"

#include "store/TraceWriter.h"

namespace memviz {

namespace {
constexpr std::int64_t kNsPerMs = 1000000;
}

HeaptrackTimeline::HeaptrackTimeline(TraceWriter& out)
    : out_(out), device_(out.device(kDevice)), heapSeries_(out.createSeries(device_, "consumed", "bytes", true)) {
    out_.addPoint(heapSeries_, 0, 0);
}

bool HeaptrackTimeline::setTimeMs(std::int64_t ms) {
    if (ms < timeMs_) return false;
    if (ms == timeMs_) return true;
    flushMillisecond();
    const double perSecond = 1000.0 / static_cast<double>(ms - timeMs_);
    allocRate_.push_back({timeMs_, static_cast<std::int64_t>(static_cast<double>(intervalAllocs_) * perSecond + 0.5)});
    temporaryRate_.push_back({timeMs_, static_cast<std::int64_t>(static_cast<double>(intervalTemporary_) * perSecond + 0.5)});
    intervalAllocs_ = intervalTemporary_ = 0;
    timeMs_ = ms;
    return true;
}

void HeaptrackTimeline::moveHeap(std::int64_t delta) {
    live_ += delta;
    if (changes_ == 0 || live_ < minV_) {
        minV_ = live_;
        minOrder_ = changes_;
    }
    if (changes_ == 0 || live_ > maxV_) {
        maxV_ = live_;
        maxOrder_ = changes_;
    }
    ++changes_;
}

void HeaptrackTimeline::flushMillisecond() {
    if (changes_ == 0) return;
    const std::int64_t t = timeMs_ * kNsPerMs;
    const auto emit = [&](std::int64_t v) {
        if (v == lastEmitted_) return;
        out_.addPoint(heapSeries_, t, v);
        lastEmitted_ = v;
    };
    if (minOrder_ < maxOrder_) {
        emit(minV_);
        emit(maxV_);
    } else {
        emit(maxV_);
        emit(minV_);
    }
    emit(live_);
    changes_ = 0;
}

void HeaptrackTimeline::alloc(std::uint64_t info, std::int64_t size, std::int32_t op) {
    Event e;
    e.timeNs = timeMs_ * kNsPerMs;
    e.address = static_cast<std::int64_t>(info);
    e.size = size;
    e.op = op;
    e.device = device_;
    e.kind = EventKind::Alloc;
    out_.addEvent(e);
    moveHeap(size);
    ++intervalAllocs_;
}

void HeaptrackTimeline::free(std::uint64_t info, std::int64_t size, std::int32_t op, bool temporary) {
    Event e;
    e.timeNs = timeMs_ * kNsPerMs;
    e.address = static_cast<std::int64_t>(info);
    e.size = size;
    e.op = op;
    e.device = device_;
    e.kind = EventKind::Free;
    out_.addEvent(e);
    moveHeap(-size);
    if (temporary) ++intervalTemporary_;
}

void HeaptrackTimeline::finish(std::int64_t pageSize) {
    flushMillisecond();
    // heaptrack counts the run as lasting until one millisecond after the last timestamp.
    allocRate_.push_back({timeMs_, intervalAllocs_ * 1000});
    temporaryRate_.push_back({timeMs_, intervalTemporary_ * 1000});
    allocRate_.push_back({timeMs_ + 1, 0});
    temporaryRate_.push_back({timeMs_ + 1, 0});
    if (!rssPages_.empty()) {
        const std::int64_t rss = out_.createSeries(device_, "RSS", "bytes", false);
        for (const SeriesPoint& p : rssPages_) out_.addPoint(rss, p.t * kNsPerMs, p.v * pageSize);
    }
    const std::int64_t allocs = out_.createSeries(device_, "allocations per second", "calls/s", false);
    for (const SeriesPoint& p : allocRate_) out_.addPoint(allocs, p.t * kNsPerMs, p.v);
    const std::int64_t temporary = out_.createSeries(device_, "temporary allocations per second", "calls/s", false);
    for (const SeriesPoint& p : temporaryRate_) out_.addPoint(temporary, p.t * kNsPerMs, p.v);
}

} // namespace memviz
