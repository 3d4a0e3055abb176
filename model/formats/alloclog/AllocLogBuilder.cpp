// SPDX-License-Identifier: MIT
#include "formats/alloclog/AllocLogBuilder.h"

#include <string>

#include "core/Errors.h"
#include "formats/FormatIds.h"
#include "store/TraceWriter.h"

namespace memviz {

AllocLogBuilder::AllocLogBuilder(TraceWriter& out, std::string path) : out_(out), path_(std::move(path)) {}

std::uint16_t AllocLogBuilder::deviceIndex(std::string_view name) {
    if (name.empty()) name = "cpu";
    if (haveDevice_ && name == lastDeviceName_) return lastDevice_;
    const std::uint16_t d = out_.device(name);
    while (liveSeries_.size() <= d) {
        const auto index = static_cast<std::uint16_t>(liveSeries_.size());
        liveSeries_.push_back(out_.createSeries(index, series_name::kAllocated, "bytes", true));
        // Nothing is live on a device before its first record: the series starts at 0.
        out_.addPoint(liveSeries_.back(), 0, 0);
    }
    lastDeviceName_ = name;
    lastDevice_ = d;
    haveDevice_ = true;
    return d;
}

std::int32_t AllocLogBuilder::nameId(NameKind kind, std::string_view text, LastName& last) {
    if (text.empty()) return kNoName;
    if (last.id != kNoName && text == last.text) return last.id;
    last.text.assign(text);
    last.id = out_.name(kind, text);
    return last.id;
}

void AllocLogBuilder::add(const AllocLogRecord& r, std::int64_t line) {
    const auto where = [line] { return "line " + std::to_string(line); };
    if (!origin_) {
        origin_ = r.timeNs;
        out_.setEpochNs(r.timeNs);
    }
    std::int64_t t = 0;
    if (__builtin_sub_overflow(r.timeNs, *origin_, &t) || t < lastTime_) {
        out_.warn("out_of_order_time", where(),
                  "records with a time earlier than the record before them; drawn at the earlier record's time");
        t = lastTime_;
    }
    lastTime_ = t;

    Event e;
    e.timeNs = t;
    e.device = deviceIndex(r.device);
    e.address = r.address;
    e.op = nameId(NameKind::Op, r.op, lastOp_);
    e.category = nameId(NameKind::Category, r.category, lastCategory_);
    e.stack = nameId(NameKind::Stack, r.stack, lastStack_);

    if (r.isAlloc) {
        e.kind = EventKind::Alloc;
        e.size = *r.size;
        // Live bytes, per-operator totals and the summary are all sums of allocation sizes.
        if (__builtin_add_overflow(allocatedBytes_, e.size, &allocatedBytes_))
            throw ImportError(
                path_ + ": " + where() +
                ": the allocations add up past 2^63 - 1 bytes (8 EiB): sizes that large are not real (a damaged file?)");
        if (const auto replaced = tracker_.alloc(e.device, e.address, e.size, e.op)) {
            out_.warn("duplicate_alloc", where(),
                      "allocations at an address that was still live; the earlier allocation is counted as freed");
            Event implicitFree = e;
            implicitFree.kind = EventKind::Free;
            implicitFree.size = replaced->size;
            implicitFree.op = replaced->op;
            implicitFree.flags = kFlagImplicit;
            out_.addEvent(implicitFree);
        }
    } else {
        e.kind = EventKind::Free;
        if (const auto block = tracker_.free(e.device, e.address)) {
            e.size = block->size;
            if (e.op == kNoName) e.op = block->op;
            if (r.size && *r.size != block->size)
                out_.warn("free_size_mismatch", where(),
                          "frees whose size differs from their allocation; the allocation's size is used");
        } else {
            e.size = 0;
            e.flags = kFlagUnmatched;
            out_.warn("unmatched_free", where(), "frees of an address with no live allocation; ignored for live bytes");
        }
    }
    out_.addEvent(e);
    out_.addPoint(liveSeries_[e.device], t, tracker_.live(e.device));
}

} // namespace memviz
