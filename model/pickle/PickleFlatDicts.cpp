// SPDX-License-Identifier: MIT
// The streaming reader's fast path for claimed lists of plain dicts (a CUDA snapshot's trace
// entries, 13 million in a 1 GB file): EMPTY_DICT [MEMOIZE | BINPUT | LONG_BINPUT] MARK,
// keys and values that are scalars or memo references, SETITEMS. Such a dict is read in one
// go and handed to the sink as its keys and values (StreamSink::takeFlat) without becoming a
// container on the stack: no container slot, no items vector, no adopt/release per entry.
//
// Every check the machine makes on a built dict is made here too, with the same counts (the
// values limit, the depth, the list's item count, sealing the containers placed in it). Any
// dict that is not this plain shape, or that a check would refuse, is left to the machine,
// which then reads it and reports the problem as always. The pending flat dicts are not on the
// stack where the machine keeps its items, so anything that would look there (an error, a
// POP, a MARK closed other than by APPENDS, a built item handed on meanwhile) falls back to
// reading the whole tree (StreamFallback), which names any problem exactly.
#include <algorithm>

#include "pickle/PickleOpcodes.h"
#include "pickle/PickleReaderImpl.h"

namespace memviz::pickle {

namespace {

bool is(unsigned char byte, Op op) { return byte == static_cast<unsigned char>(op); }

} // namespace

bool Reader::flatValue(const unsigned char*& q, const unsigned char* end, Value& v) {
    const auto left = static_cast<std::size_t>(end - q);
    switch (static_cast<Op>(*q)) {
    case Op::BinGet:
    case Op::LongBinGet: {
        std::uint64_t index;
        if (is(*q, Op::BinGet)) {
            if (left < 2) return false;
            index = q[1];
            q += 2;
        } else {
            if (left < 5) return false;
            std::uint32_t i;
            std::memcpy(&i, q + 1, 4);
            index = i;
            q += 5;
        }
        if (!memo_.find(index, v)) return false;
        if (v.isContainer() && !pinned(v)) {
            if (doc_.stale(v)) return false;
            markFetched(index, v); // as memoGet() does (the machine re-reads it the same way)
        }
        return true;
    }
    case Op::BinInt: {
        if (left < 5) return false;
        std::int32_t i;
        std::memcpy(&i, q + 1, 4);
        v = Value{Kind::Int, 0, i};
        q += 5;
        return true;
    }
    case Op::BinInt1:
        if (left < 2) return false;
        v = Value{Kind::Int, 0, q[1]};
        q += 2;
        return true;
    case Op::BinInt2: {
        if (left < 3) return false;
        std::uint16_t i;
        std::memcpy(&i, q + 1, 2);
        v = Value{Kind::Int, 0, i};
        q += 3;
        return true;
    }
    case Op::Long1: {
        if (left < 2 || left - 2 < q[1]) return false;
        if (decodeLong(q + 2, q[1], v) != LongProblem::None) return false;
        q += 2 + q[1];
        return true;
    }
    case Op::None:
        v = Value{};
        ++q;
        return true;
    case Op::NewTrue:
    case Op::NewFalse:
        v = Value{Kind::Bool, 0, is(*q, Op::NewTrue) ? 1 : 0};
        ++q;
        return true;
    case Op::BinFloat: {
        if (left < 9) return false;
        std::uint64_t bits;
        std::memcpy(&bits, q + 1, 8);
        v = Value{Kind::Float, 0, static_cast<std::int64_t>(__builtin_bswap64(bits))}; // stored big-endian
        q += 9;
        return true;
    }
    default: return false;
    }
}

bool Reader::tryFlatDict() {
    if (marks_.empty()) return false;
    const std::size_t mark = marks_.back();
    if (mark == 0 || mark > stack_.size()) return false;
    const Value listValue = stack_[mark - 1];
    if (listValue.kind != Kind::List) return false;
    if (const Document::Container& list = container(listValue); list.stream != Document::kStreamed || list.sealed) return false;
    if (flatMarks_ ? flatMarks_ != marks_.size() || flatList_.payload != listValue.payload : !sink_->acceptsFlat(doc_, listValue))
        return false;

    // p_ is just after EMPTY_DICT; the whole dict must be in the window (else the machine reads it).
    const unsigned char* q = p_;
    const unsigned char* const end = end_;
    bool memoized = false;
    std::uint64_t memoIndex = 0;
    if (q < end && is(*q, Op::Memoize)) {
        memoized = true;
        memoIndex = memo_.count();
        ++q;
    } else if (q < end && is(*q, Op::BinPut)) {
        if (end - q < 2) return false;
        memoized = true;
        memoIndex = q[1];
        q += 2;
    } else if (q < end && is(*q, Op::LongBinPut)) {
        if (end - q < 5) return false;
        std::uint32_t i;
        std::memcpy(&i, q + 1, 4);
        memoized = true;
        memoIndex = i;
        q += 5;
    }
    if (q == end || !is(*q, Op::Mark)) return false;
    ++q;
    Value* const kv = flatScratch_.data(); // a member: no 1 KiB to clear per dict
    std::size_t n = 0;
    for (;;) {
        if (q == end) return false;
        if (is(*q, Op::SetItems)) {
            ++q;
            break;
        }
        if (n == flatScratch_.size() || !flatValue(q, end, kv[n])) return false;
        ++n;
    }
    if (n % 2) return false;

    // The machine's checks, with its counts.
    std::uint32_t depth = 1;
    for (std::size_t i = 0; i < n; ++i) {
        if (i % 2 == 0 && (kv[i].kind == Kind::List || kv[i].kind == Kind::Dict || kv[i].kind == Kind::Known))
            return false; // an unhashable key, or one the machine must look at
        if (kv[i].isContainer()) {
            if (kv[i].payload == listValue.payload) return false; // the list inside its own item
            depth = std::max(depth, depthOf(kv[i]) + 1);
        } else if (kv[i].kind == Kind::Known) {
            depth = std::max(depth, kv[i].knownDepth() + 1);
        }
    }
    if (depth + 1 > limits_.maxDepth) return false;
    if (values_ + 1 + n > limits_.maxValues) return false;
    // A node: stays where it is. Dicts after the first of a batch are in the same list (checked
    // above): one lookup per batch instead of per dict (13 million in a 1 GB snapshot).
    std::uint64_t& items = flatMarks_ ? *flatItems_ : streamedItems_[doc_.containerId(listValue)];
    if (items + 1 > limits_.maxContainerItems) return false;
    staleSentinel();

    // Items this batch built before this dict are handed on first, so the sink sees the order.
    if (stack_.size() > mark) {
        flushFlat();
        handOn(container(listValue), listValue, mark);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (kv[i].isContainer() && !pinned(kv[i])) container(kv[i]).sealed = true;
    Document::Container& list = container(listValue);
    list.depth = std::max(list.depth, depth + 1);
    values_ += 1 + n;
    ++items;
    if (memoized) memoStore(memoIndex, flatSentinel_);
    flatValues_.insert(flatValues_.end(), kv, kv + n);
    flatEnds_.push_back(static_cast<std::uint32_t>(flatValues_.size()));
    flatMarks_ = marks_.size();
    flatList_ = listValue;
    flatItems_ = &items;
    p_ = q;
    return true;
}

void Reader::flushFlat() {
    if (!flatEnds_.empty()) {
        sink_->takeFlat(doc_, flatList_, flatValues_, flatEnds_);
        releaseHandedOn(flatValues_, false);
        uncount(flatValues_.size() + flatEnds_.size());
    }
    flatValues_.clear();
    flatEnds_.clear();
    flatMarks_ = 0;
}

} // namespace memviz::pickle
