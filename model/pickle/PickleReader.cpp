// SPDX-License-Identifier: MIT
#include "pickle/PickleReader.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "io/Utf8.h"
#include "pickle/PickleOpcodes.h"
#include "pickle/PickleReaderImpl.h"
#include "pickle/PickleStream.h"

namespace memviz::pickle {

namespace {

std::string hexByte(std::uint8_t b) {
    static const char* digits = "0123456789abcdef";
    return std::string("0x") + digits[b >> 4] + digits[b & 15];
}

std::string describeOp(std::uint8_t op) {
    const char* name = opName(op);
    return (name[0] == '?' ? std::string("byte") : std::string(name)) + " (" + hexByte(op) + ")";
}

constexpr std::uint64_t kProgressEvery = 16u << 20;

} // namespace

PickleError::PickleError(const std::string& problem, std::uint64_t offset, int opcode)
    : ImportError("pickle: " + problem + " (" +
                  (opcode >= 0 ? "opcode " + describeOp(static_cast<std::uint8_t>(opcode)) + " at " : std::string()) + "byte " +
                  std::to_string(offset) + ")"),
      offset_(offset), opcode_(opcode) {}

void Reader::pushText(Kind kind, std::uint64_t length) {
    if (length > limits_.maxStringBytes)
        fail("a string of " + std::to_string(length) + " bytes (limit " + std::to_string(limits_.maxStringBytes) + ")");
    const unsigned char* at = take(length);
    Value v;
    v.kind = kind;
    v.length = static_cast<std::uint32_t>(length);
    if (source_) { // the window moves on: the string goes into the document
        v.payload = static_cast<std::int64_t>(doc_.bytes_.size());
        doc_.bytes_.append(reinterpret_cast<const char*>(at), length);
        // A str's payload is its identity (readers cache what a memoised key means by it): an
        // empty one would share its offset with the next string, so it takes a byte of its own.
        if (length == 0) doc_.bytes_.push_back('\0');
    } else {
        v.payload = at - begin_;
    }
    if (kind == Kind::Str && !isValidUtf8(doc_.text(v), true)) fail("a string that is not valid UTF-8");
    push(v);
}

// LONG1/LONG4: little-endian two's complement of n bytes. Values must fit 64 bits: signed, or
// unsigned in [2^63, 2^64) (a -1 that went through an unsigned type, pytorch#115234).
LongProblem decodeLong(const unsigned char* b, std::uint64_t n, Value& v) {
    const bool negative = n > 0 && (b[n - 1] & 0x80);
    std::uint64_t m = n;
    while (m > 8 && b[m - 1] == (negative ? 0xff : 0x00)) --m;
    if (m > 8) return LongProblem::TooWide;
    std::uint64_t u = 0;
    for (std::uint64_t i = 0; i < m; ++i) u |= static_cast<std::uint64_t>(b[i]) << (8 * i);
    v.kind = Kind::Int;
    if (negative) {
        if (m < 8) u |= ~0ull << (8 * m);
        else if (!(u >> 63)) return LongProblem::BelowMin;
    } else if (u >> 63) {
        v.kind = Kind::UInt64;
    }
    v.payload = static_cast<std::int64_t>(u);
    return LongProblem::None;
}

void Reader::pushLong(std::uint64_t n) {
    Value v;
    switch (decodeLong(take(n), n, v)) {
    case LongProblem::TooWide: fail("an integer wider than 64 bits (" + std::to_string(n) + " bytes)");
    case LongProblem::BelowMin: fail("a negative integer below -2^63");
    case LongProblem::None: break;
    }
    push(v);
}

void Reader::memoStore(std::uint64_t index, const Value& v) {
    memo_.store(index, v);
    if (sink_ && (index & (Memo::kPageSlots - 1)) == 0) compactMemoBehind(index);
}

void Reader::compactMemoBehind(std::uint64_t index) {
    // Four pages behind: the entries they memoised have been handed on and released by then
    // (PyTorch's pickler appends a list's items 1000 at a time). A page with more live values
    // stays as it is; at most 256 move to the map.
    constexpr std::uint64_t kLag = 4;
    constexpr std::size_t kMaxLive = 256;
    const std::uint64_t page = index >> Memo::kPageBits;
    const auto dead = [this](const Value& m) { return doc_.stale(m); };
    for (; memoCompactNext_ + kLag <= page; ++memoCompactNext_) memo_.compact(memoCompactNext_, dead, staleSentinel(), kMaxLive);
}

const Value& Reader::staleSentinel() {
    if (flatSentinel_.kind != Kind::Dict) {
        // A slot no value refers to, named by a newer generation: stale wherever it is read.
        flatSentinel_ = newContainer(Kind::Dict);
        flatSentinel_.payload += std::int64_t{1} << 32;
    }
    return flatSentinel_;
}

void Reader::memoGet(std::uint64_t index) {
    Value v;
    if (!memo_.find(index, v)) fail("memo entry " + std::to_string(index) + " was never stored");
    if (sink_ && v.isContainer() && !pinned(v)) {
        if (doc_.stale(v)) throw StreamFallback("memo entry " + std::to_string(index) + " was handed on and released");
        markFetched(index, v);
    }
    push(v);
}

// Streaming: a container fetched from the memo at `index` is shared from now on (never recycled);
// once it is also sealed and released it is pinned there too (v as well).
void Reader::markFetched(std::uint64_t index, Value& v) {
    Document::Container& c = container(v);
    c.shared = true;
    if (c.sealed && c.stream == Document::kReleased) {
        pin(v, c.depth);
        memo_.store(index, v);
    }
}

// Streaming: whether the items appended to `list` (at stack_[listIndex]) go to the sink. The
// sink decides when the list gets its first items, from what is on the stack below it.
bool Reader::streamed(Document::Container& list, std::size_t listIndex) {
    if (!sink_) return false;
    if (list.stream == Document::kUndecided)
        list.stream = list.items.empty() && sink_->claim(doc_, std::span<const Value>(stack_.data(), listIndex))
                          ? Document::kStreamed
                          : Document::kKept;
    return list.stream == Document::kStreamed;
}

// Hands stack_[from..] (appended to a claimed list) to the sink with the checks an ordinary
// append makes, then releases the containers among them and those inside that the sink allows.
void Reader::handOn(Document::Container& list, const Value& listValue, std::size_t from) {
    if (flatMarks_) throw StreamFallback("items built while dicts read flat are pending");
    std::uint64_t& count = streamedItems_[doc_.containerId(listValue)];
    checkItemCount(count + (stack_.size() - from));
    // An item nothing else refers to (not inside another container, never copied by DUP or
    // fetched from the memo) gives its slot back: only the memo may still name it, and
    // memoGet() catches that. (Not the containers inside it: a frames list met for the first
    // time is usually fetched from the memo by later entries, and is kept by identity.)
    recyclable_.clear();
    for (std::size_t i = from; i < stack_.size(); ++i) {
        const Value& v = stack_[i];
        const bool alone = v.isContainer() && !pinned(v) && !container(v).sealed && !container(v).shared;
        adopt(list, listValue, v);
        if (alone) recyclable_.push_back(v.payload);
    }
    count += stack_.size() - from;
    sink_->take(doc_, listValue, std::span<const Value>(stack_.data() + from, stack_.size() - from));
    releaseHandedOn(std::span<const Value>(stack_.data() + from, stack_.size() - from), true);
    for (const std::int64_t payload : recyclable_) {
        sink_->forget(static_cast<std::size_t>(payload & 0xffffffff));
        doc_.recycle(payload);
    }
    uncount(stack_.size() - from);
    stack_.resize(from);
}

// Releases `values` handed on (or, with !themselves, only the containers among them that the
// sink allows), then the containers inside the released ones that the sink allows, and so on.
void Reader::releaseHandedOn(std::span<const Value> values, bool themselves) {
    // `inside`: a container inside a handed-on item, which the sink allowed to release and may
    // know by an id of its own; the items themselves are recycled by handOn() when alone.
    const auto release = [this](const Value& v, bool inside) {
        Document::Container& c = doc_.at(v.payload);
        if (c.stream >= Document::kStreamed) return;
        c.stream = Document::kReleased;
        // (Containers released before, like the shared frame dicts of every frames list, are
        // not looked at again.)
        for (const Value& item : c.items)
            if (item.isContainer() && !pinned(item) && doc_.at(item.payload).stream < Document::kStreamed)
                releasing_.push_back(item);
        uncount(c.items.size());
        spareItems_.giveBack(c.items);
        if (inside && !c.shared) knownFromNowOn(v, c);
    };
    for (const Value& v : values) {
        if (!v.isContainer() || pinned(v)) continue; // (pinned: released already)
        if (themselves) release(v, false);
        else releasing_.push_back(v);
    }
    while (!releasing_.empty()) {
        const Value v = releasing_.back();
        releasing_.pop_back();
        const Document::Container& c = doc_.at(v.payload);
        if (c.stream < Document::kStreamed && sink_->mayRelease(doc_, v)) release(v, true);
    }
    for (const std::int64_t payload : becameKnown_) {
        sink_->forget(static_cast<std::size_t>(payload & 0xffffffff));
        doc_.recycle(payload);
    }
    becameKnown_.clear();
}

// A released container that only its (released) parent and the memo refer to (never fetched
// from the memo, never DUP'd), and that the sink knows by an id of its own (a frames list of
// one trace entry: 17 million in a 3 GB snapshot, issue 33): the memo gives it as a Known value
// from now on, and its slot goes to a new container instead of staying taken for a fetch that
// may come (the sink reads the id from the Known value then).
void Reader::knownFromNowOn(const Value& v, const Document::Container& c) {
    const std::size_t slot = doc_.containerId(v);
    if (slot >= memoOfSlot_.size() || memoOfSlot_[slot] == kNoMemo) return;
    const std::uint64_t index = memoOfSlot_[slot];
    Value m;
    if (!memo_.find(index, m) || m.kind != v.kind || m.payload != v.payload) return;
    const std::optional<std::int64_t> id = sink_->knownAs(doc_, v);
    if (!id) return;
    memo_.store(index, Value::known(v.kind, c.depth, *id));
    memoOfSlot_[slot] = kNoMemo;
    becameKnown_.push_back(v.payload);
}

void SpareItems::giveBack(std::vector<Value>& items) {
    const std::size_t capacity = items.capacity();
    const auto k = static_cast<unsigned>(std::bit_width(capacity)) - 1;
    if (capacity == 0 || k >= kClasses || bytes_ + capacity * sizeof(Value) > kMaxBytes) {
        std::vector<Value>().swap(items);
        return;
    }
    pooling_ = true;
    items.clear();
    byClass_[k].push_back(std::move(items));
    items = std::vector<Value>();
    bytes_ += capacity * sizeof(Value);
}

void SpareItems::append(std::vector<Value>& items, const Value* first, const Value* last) {
    const auto n = static_cast<std::size_t>(last - first);
    if (items.capacity() == 0 && n > 0) {
        const auto k = static_cast<unsigned>(std::bit_width(n - 1)); // 2^k >= n
        if (k < kClasses && !byClass_[k].empty()) {
            items = std::move(byClass_[k].back());
            byClass_[k].pop_back();
            bytes_ -= items.capacity() * sizeof(Value);
        } else if (k < kClasses && pooling_) {
            items.reserve(std::size_t{1} << k); // comes back to class k, for counts up to 2^k
        }
    }
    items.insert(items.end(), first, last);
}

void Reader::appendItems(std::size_t from, Value listValue) {
    Document::Container& list = mutableTarget(listValue, Kind::List);
    if (streamed(list, from - 1)) return handOn(list, listValue, from);
    const std::size_t n = stack_.size() - from;
    checkItemCount(list.items.size() + n);
    for (std::size_t i = from; i < stack_.size(); ++i) adopt(list, listValue, stack_[i]);
    spareItems_.append(list.items, stack_.data() + from, stack_.data() + stack_.size());
    stack_.resize(from);
}

void Reader::setItems(std::size_t from, Value dictValue) {
    Document::Container& dict = mutableTarget(dictValue, Kind::Dict);
    const std::size_t n = stack_.size() - from;
    if (n % 2) fail("an odd number of items for keys and values");
    checkItemCount(dict.items.size() / 2 + n / 2);
    for (std::size_t i = from; i < stack_.size(); i += 2) {
        checkKey(stack_[i]);
        adopt(dict, dictValue, stack_[i]);
        adopt(dict, dictValue, stack_[i + 1]);
    }
    spareItems_.append(dict.items, stack_.data() + from, stack_.data() + stack_.size());
    stack_.resize(from);
}

// LIST, DICT, TUPLE: a new container from the items above the topmost MARK.
void Reader::buildFromMark(Kind kind) {
    const std::size_t from = popMark();
    const Value v = newContainer(kind);
    if (kind == Kind::Dict) {
        setItems(from, v);
    } else {
        Document::Container& c = container(v);
        checkItemCount(stack_.size() - from);
        for (std::size_t i = from; i < stack_.size(); ++i) adopt(c, v, stack_[i]);
        c.items.assign(stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
        stack_.resize(from);
    }
    push(v);
}

void Reader::buildTuple(std::size_t n) {
    if (stack_.size() < floor() + n) fail("the stack holds fewer than " + std::to_string(n) + " items (below the last MARK)");
    const Value v = newContainer(Kind::Tuple);
    Document::Container& c = container(v);
    const std::size_t from = stack_.size() - n;
    for (std::size_t i = from; i < stack_.size(); ++i) adopt(c, v, stack_[i]);
    c.items.assign(stack_.begin() + static_cast<std::ptrdiff_t>(from), stack_.end());
    stack_.resize(from);
    push(v);
}

// Streaming: moves the unread bytes to the front of the window and reads until n bytes are
// there (the window grows only as data arrives, so a hostile length costs no memory) and the
// window is full or the data ends. False when the data ends first.
bool Reader::fill(std::uint64_t n) {
    const std::size_t keep = static_cast<std::size_t>(end_ - p_);
    base_ += static_cast<std::uint64_t>(p_ - begin_);
    if (keep && p_ != reinterpret_cast<const unsigned char*>(window_.get())) std::memmove(window_.get(), p_, keep);
    if (windowSize_ < kWindow && base_ >= windowSize_) resizeWindow(windowSize_ * 2, keep);
    std::size_t have = keep;
    while (!eof_ && (have < n || have < windowSize_)) {
        if (have == windowSize_) resizeWindow(windowSize_ * 2, have);
        const std::size_t got = (*source_)(window_.get() + have, windowSize_ - have);
        if (got == 0) eof_ = true;
        have += got;
    }
    begin_ = p_ = reinterpret_cast<const unsigned char*>(window_.get());
    end_ = begin_ + have;
    return have >= n;
}

std::uint64_t Reader::drain() {
    std::uint64_t total = base_ + static_cast<std::uint64_t>(end_ - begin_);
    while (!eof_) {
        const std::size_t got = (*source_)(window_.get(), windowSize_);
        if (got == 0) eof_ = true;
        total += got;
    }
    begin_ = p_ = end_ = reinterpret_cast<const unsigned char*>(window_.get());
    return total;
}

void Reader::run() {
    if (source_) fill(1);
    if (p_ == end_) throw PickleError("the data is empty", 0);
    if (*p_ != static_cast<std::uint8_t>(Op::Proto)) {
        opAt_ = 0;
        op_ = *p_;
        fail("the data does not start with PROTO: not a pickle of protocol 2 or newer");
    }
    std::uint64_t nextProgress = kProgressEvery;
    const std::uint64_t total = doc_.bytes_.size();
    for (;;) {
        if (p_ == end_ && !(source_ && fill(1))) break;
        if (progress_ && static_cast<std::uint64_t>(p_ - begin_) >= nextProgress) {
            progress_(static_cast<std::uint64_t>(p_ - begin_), total);
            nextProgress += kProgressEvery;
        }
        opAt_ = position();
        op_ = *p_++;
        switch (static_cast<Op>(op_)) {
        case Op::Proto: {
            const std::uint8_t version = *take(1);
            if (version < 2 || version > 5)
                fail("pickle protocol " + std::to_string(version) + " (memviz reads protocols 2 to 5)");
            doc_.protocol_ = version;
            break;
        }
        case Op::Frame: {
            const auto length = takeLittle<std::uint64_t>();
            if (source_) { // how much follows is known only at the end (checked after STOP)
                frameEnd_ = std::max<std::uint64_t>(frameEnd_, length > ~0ull - position() ? ~0ull : position() + length);
                break;
            }
            if (length > remaining())
                fail("a frame of " + std::to_string(length) + " bytes, but only " + std::to_string(remaining()) +
                     " bytes follow");
            break;
        }
        case Op::Stop: {
            if (!marks_.empty()) fail("STOP inside an open MARK");
            if (stack_.size() != 1) fail("STOP with " + std::to_string(stack_.size()) + " values on the stack (expected 1)");
            doc_.root_ = stack_.back();
            if (progress_) progress_(total, total);
            if (source_ && drain() < frameEnd_) throw StreamFallback("a FRAME announces more bytes than follow");
            return;
        }
        case Op::Mark:
            if (marks_.size() >= limits_.maxMarks) fail("more than " + std::to_string(limits_.maxMarks) + " open MARKs (limit)");
            marks_.push_back(stack_.size());
            break;
        case Op::Pop:
            if (flatMarks_ && flatMarks_ == marks_.size() && marks_.back() == stack_.size())
                throw StreamFallback("POP of a dict read flat");
            if (!marks_.empty() && marks_.back() == stack_.size()) marks_.pop_back();
            else pop();
            break;
        case Op::PopMark: stack_.resize(popMark()); break;
        case Op::Dup:
            if (sink_ && top().isContainer()) container(top()).shared = true;
            push(top());
            break;
        case Op::None: push(Value{}); break;
        case Op::NewTrue:
        case Op::NewFalse: push(Value{Kind::Bool, 0, op_ == static_cast<std::uint8_t>(Op::NewTrue) ? 1 : 0}); break;
        case Op::BinInt: push(Value{Kind::Int, 0, takeLittle<std::int32_t>()}); break;
        case Op::BinInt1: push(Value{Kind::Int, 0, *take(1)}); break;
        case Op::BinInt2: push(Value{Kind::Int, 0, takeLittle<std::uint16_t>()}); break;
        case Op::Long1: pushLong(*take(1)); break;
        case Op::Long4: {
            const auto n = takeLittle<std::int32_t>();
            if (n < 0) fail("a negative length (" + std::to_string(n) + ")");
            pushLong(static_cast<std::uint64_t>(n));
            break;
        }
        case Op::BinFloat: {
            const auto bits = __builtin_bswap64(takeLittle<std::uint64_t>()); // stored big-endian
            push(Value{Kind::Float, 0, static_cast<std::int64_t>(bits)});
            break;
        }
        case Op::ShortBinUnicode: pushText(Kind::Str, *take(1)); break;
        case Op::BinUnicode: pushText(Kind::Str, takeLittle<std::uint32_t>()); break;
        case Op::BinUnicode8: pushText(Kind::Str, takeLittle<std::uint64_t>()); break;
        case Op::ShortBinBytes: pushText(Kind::Bytes, *take(1)); break;
        case Op::BinBytes: pushText(Kind::Bytes, takeLittle<std::uint32_t>()); break;
        case Op::BinBytes8:
        case Op::ByteArray8: pushText(Kind::Bytes, takeLittle<std::uint64_t>()); break;
        case Op::EmptyList: push(newContainer(Kind::List)); break;
        case Op::EmptyDict:
            if (!(sink_ && tryFlatDict())) push(newContainer(Kind::Dict));
            break;
        case Op::EmptyTuple: push(newContainer(Kind::Tuple)); break;
        case Op::List: buildFromMark(Kind::List); break;
        case Op::Dict: buildFromMark(Kind::Dict); break;
        case Op::Tuple: buildFromMark(Kind::Tuple); break;
        case Op::Tuple1: buildTuple(1); break;
        case Op::Tuple2: buildTuple(2); break;
        case Op::Tuple3: buildTuple(3); break;
        case Op::Append: {
            const Value item = pop();
            const Value list = top();
            Document::Container& c = mutableTarget(list, Kind::List);
            if (streamed(c, stack_.size() - 1)) {
                stack_.push_back(item); // already counted
                handOn(c, list, stack_.size() - 1);
                break;
            }
            checkItemCount(c.items.size() + 1);
            adopt(c, list, item);
            c.items.push_back(item);
            break;
        }
        case Op::Appends: {
            if (flatMarks_ && flatMarks_ == marks_.size()) flushFlat();
            const std::size_t from = popMark();
            if (from <= floor()) fail("no list below the MARK");
            appendItems(from, stack_[from - 1]);
            break;
        }
        case Op::SetItem: {
            const Value value = pop();
            const Value key = pop();
            const Value dict = top();
            Document::Container& c = mutableTarget(dict, Kind::Dict);
            checkItemCount(c.items.size() / 2 + 1);
            checkKey(key);
            adopt(c, dict, key);
            adopt(c, dict, value);
            c.items.push_back(key);
            c.items.push_back(value);
            break;
        }
        case Op::SetItems: {
            const std::size_t from = popMark();
            if (from <= floor()) fail("no dict below the MARK");
            setItems(from, stack_[from - 1]);
            break;
        }
        case Op::Memoize: memoPut(memo_.count()); break;
        case Op::BinPut: memoPut(*take(1)); break;
        case Op::LongBinPut: memoPut(takeLittle<std::uint32_t>()); break;
        case Op::BinGet: memoGet(*take(1)); break;
        case Op::LongBinGet: memoGet(takeLittle<std::uint32_t>()); break;
        default:
            switch (opClass(op_)) {
            case OpClass::Forbidden:
                fail(std::string("forbidden opcode ") + opName(op_) +
                     ": it names a class, calls a function or refers to an outside object; memviz reads only "
                     "plain data");
            case OpClass::Unsupported:
                fail(std::string("unsupported opcode ") + opName(op_) +
                     " (text protocols 0/1, sets and out-of-band buffers are not part of memory snapshots)");
            default: fail("not a pickle opcode");
            }
        }
    }
    if (flatMarks_) throw StreamFallback("the data ends with dicts read flat pending");
    throw PickleError("the data ends before STOP (truncated file?)", base_ + static_cast<std::uint64_t>(end_ - begin_));
}

Document parse(std::string bytes, const Limits& limits, const ReadProgress& progress) {
    Reader reader(std::move(bytes), limits, progress);
    reader.run();
    return reader.takeDocument();
}

void parseStream(Document& doc, const ByteSource& source, StreamSink& sink, const Limits& limits) {
    Reader reader(doc, source, sink, limits);
    try {
        reader.run();
    } catch (const PickleError&) {
        // Read whole, a damaged compressed tail is reported before any pickle problem, and a
        // FRAME announcing more bytes than the data holds before anything after it.
        if (reader.drain() < reader.frameEnd()) throw StreamFallback("a FRAME announces more bytes than follow");
        throw;
    }
}

} // namespace memviz::pickle
