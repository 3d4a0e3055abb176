// SPDX-License-Identifier: MIT
#pragma once
// The pickle reader's machine (PickleReader.cpp), shared with its fast path for streamed
// lists of plain dicts (PickleFlatDicts.cpp): not for other files.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "pickle/PickleMemo.h"
#include "pickle/PickleReader.h"
#include "pickle/PickleStream.h"
#include "pickle/PickleValue.h"

namespace memviz::pickle {

// Streaming: bytes read from the source at a time, growing from the first size to the second
// as the data goes on (a small pickle costs no 4 MiB buffer).
inline constexpr std::size_t kFirstWindow = 64u << 10, kWindow = 4u << 20;

// The value of LONG1/LONG4's n bytes at b, or why there is none.
enum class LongProblem { None, TooWide, BelowMin };
LongProblem decodeLong(const unsigned char* b, std::uint64_t n, Value& v);

// Streaming: the item buffers of released containers, kept by size class for new ones. A 3 GB
// snapshot with a frames list per trace entry releases two buffers per entry, and malloc and
// free took a tenth of its parse (issue 33). At most kMaxBytes are kept.
class SpareItems {
public:
    // Keeps items' buffer (or frees it); items is left empty, with no buffer.
    void giveBack(std::vector<Value>& items);
    // Appends [first, last) to items, in a kept buffer when items has none yet: one whose
    // capacity is at least the count and less than four times it.
    void append(std::vector<Value>& items, const Value* first, const Value* last);

private:
    static constexpr unsigned kClasses = 10; // class k: capacities in [2^k, 2^(k+1))
    static constexpr std::size_t kMaxBytes = std::size_t{8} << 20;
    std::array<std::vector<std::vector<Value>>, kClasses> byClass_;
    std::size_t bytes_ = 0;
    bool pooling_ = false; // a buffer was kept: new ones get a class's capacity
};

// Reads a whole pickle held in memory (strings are views into it), or a stream through a window
// (strings copied into the document; items of lists the sink claims handed to it).
class Reader {
public:
    Reader(std::string bytes, const Limits& limits, const ReadProgress& progress)
        : doc_(own_), limits_(limits), progress_(progress) {
        doc_.bytes_ = std::move(bytes);
        begin_ = reinterpret_cast<const unsigned char*>(doc_.bytes_.data());
        p_ = begin_;
        end_ = begin_ + doc_.bytes_.size();
    }
    Reader(Document& doc, const ByteSource& source, StreamSink& sink, const Limits& limits)
        : doc_(doc), limits_(limits), progress_(noProgress_), source_(&source), sink_(&sink) {
        resizeWindow(kFirstWindow, 0);
        begin_ = p_ = end_ = reinterpret_cast<const unsigned char*>(window_.get());
    }

    void run();
    Document takeDocument() { return std::move(own_); }
    std::uint64_t frameEnd() const { return frameEnd_; }
    // Streaming: reads what is left of the source; returns the data's total size.
    std::uint64_t drain();

private:
    // With flat dicts pending, the whole tree may read the data differently (they are not on
    // the stack where it has them): it re-reads and names the problem itself.
    [[noreturn]] void fail(const std::string& problem) const {
        if (flatMarks_) throw StreamFallback("a problem after dicts read flat: " + problem);
        throw PickleError(problem, opAt_, op_);
    }

    std::uint64_t position() const { return base_ + static_cast<std::uint64_t>(p_ - begin_); }
    std::uint64_t remaining() const { return static_cast<std::uint64_t>(end_ - p_); }

    // The next n argument bytes of the current opcode (valid until the next take).
    const unsigned char* take(std::uint64_t n) {
        if (n > remaining() && !(source_ && fill(n)))
            fail("the data ends early: the opcode needs " + std::to_string(n) + " more bytes, " + std::to_string(remaining()) +
                 " are left");
        const unsigned char* at = p_;
        p_ += n;
        return at;
    }
    bool fill(std::uint64_t n);
    // Streaming: a window of `size` bytes keeping its first `keep` (not zeroed: only what the
    // source wrote is read).
    void resizeWindow(std::size_t size, std::size_t keep) {
        auto bigger = std::make_unique_for_overwrite<char[]>(size);
        if (keep) std::memcpy(bigger.get(), window_.get(), keep);
        window_ = std::move(bigger);
        windowSize_ = size;
    }
    template <typename T>
    T takeLittle() {
        T v;
        std::memcpy(&v, take(sizeof(T)), sizeof(T));
        return v; // little-endian host (x86-64, aarch64)
    }

    std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    // Streaming: values handed on and released no longer count against the limit, which bounds
    // the values held (a 3 GB snapshot creates more values than a quarter of memory could hold
    // at once, but holds few of them at a time).
    void uncount(std::uint64_t n) { values_ -= std::min(values_, n); }
    void counted() {
        if (++values_ > limits_.maxValues) fail("more than " + std::to_string(limits_.maxValues) + " values (limit)");
    }
    // Every value placed on the stack counts, shared ones (BINGET, DUP) too: that bounds the
    // memory of the stack and of every container together.
    void push(const Value& v) {
        counted();
        stack_.push_back(v);
    }
    Value pop() {
        if (stack_.size() <= floor()) fail("the stack is empty (below the last MARK)");
        const Value v = stack_.back();
        stack_.pop_back();
        return v;
    }
    Value& top() {
        if (stack_.size() <= floor()) fail("the stack is empty (below the last MARK)");
        return stack_.back();
    }
    // Removes the topmost MARK; returns where the marked items start.
    std::size_t popMark() {
        if (marks_.empty()) fail("no MARK before this opcode");
        if (flatMarks_ == marks_.size()) throw StreamFallback("dicts read flat inside a MARK that is not appended");
        const std::size_t at = marks_.back();
        marks_.pop_back();
        return at;
    }

    Value newContainer(Kind kind) {
        if (doc_.containerCount() >= 0x7fffffffu) fail("too many containers");
        Value v;
        v.kind = kind;
        v.payload = doc_.addContainer();
        return v;
    }
    Document::Container& container(const Value& v) { return doc_.at(v.payload); }
    // Streaming: a container value the memo gives as pinned (its length, unused for containers,
    // holds depth << 1 | 1) is shared, sealed and released: its slot is never recycled and it
    // never changes, so the machine need not look at its slot again. A 3 GB snapshot fetches a
    // few thousand frame dicts 400 million times (issue 33), and each look was a cache miss.
    static bool pinned(const Value& v) { return v.length & 1; }
    static void pin(Value& v, std::uint32_t depth) { v.length = depth << 1 | 1; }
    std::uint32_t depthOf(const Value& container) { return pinned(container) ? container.length >> 1 : this->container(container).depth; }
    void markFetched(std::uint64_t index, Value& v);

    // Places `child` inside `target`: seals a container child (it may be shared, never changed
    // again) and keeps the depth exact. A sealed target or a container put inside itself
    // would make a changing or cyclic structure: snapshots never contain one.
    void adopt(Document::Container& target, const Value& targetValue, const Value& child) {
        std::uint32_t depth = 0;
        if (child.isContainer()) {
            if (child.payload == targetValue.payload) fail("a container placed inside itself (recursive structure)");
            depth = depthOf(child);
            if (!pinned(child)) container(child).sealed = true;
        } else if (child.kind == Kind::Known) {
            depth = child.knownDepth(); // as deep as the container it stands for
        } else {
            return;
        }
        if (depth + 1 > target.depth) {
            if (depth + 1 > limits_.maxDepth)
                fail("containers nested deeper than " + std::to_string(limits_.maxDepth) + " levels (limit)");
            target.depth = depth + 1;
        }
    }
    Document::Container& mutableTarget(const Value& v, Kind expected) {
        if (v.kind == Kind::Known) throw StreamFallback("items added to a container already handed on and released");
        if (v.kind != expected)
            fail(std::string("expected ") + kindWithArticle(expected) + " to add items to, found " + kindWithArticle(v.kind));
        Document::Container& c = container(v);
        if (c.sealed) fail("changes a container after it was placed inside another (not plain data)");
        return c;
    }
    void checkItemCount(std::uint64_t n) {
        if (n > limits_.maxContainerItems)
            fail("a container with more than " + std::to_string(limits_.maxContainerItems) + " items (limit)");
    }
    void checkKey(const Value& key) {
        if (key.kind == Kind::Known) throw StreamFallback("a container already handed on and released as a dict key");
        if (key.kind == Kind::List || key.kind == Kind::Dict)
            fail(std::string("a dict key that is ") + kindWithArticle(key.kind) + " (unhashable)");
    }

    void appendItems(std::size_t from, Value listValue);
    bool streamed(Document::Container& list, std::size_t listIndex);
    void handOn(Document::Container& list, const Value& listValue, std::size_t from);
    void setItems(std::size_t from, Value dictValue);
    void buildFromMark(Kind kind);
    void buildTuple(std::size_t n);
    void pushText(Kind kind, std::uint64_t length);
    void pushLong(std::uint64_t n);
    void memoPut(std::uint64_t index) {
        const Value& v = top();
        memoStore(index, v);
        if (sink_ && v.isContainer() && index < kNoMemo) noteMemoIndex(v, index);
    }
    // Streaming: where the memo holds a container (the last index it was stored at), so that a
    // released one the sink knows by an id of its own becomes a Known value there and gives
    // its slot back (knownFromNowOn).
    static constexpr std::uint32_t kNoMemo = 0xffffffffu;
    void noteMemoIndex(const Value& v, std::uint64_t index) {
        const std::size_t slot = doc_.containerId(v);
        if (slot >= memoOfSlot_.size()) memoOfSlot_.resize(std::max<std::size_t>(slot + 1, memoOfSlot_.size() * 2), kNoMemo);
        memoOfSlot_[slot] = static_cast<std::uint32_t>(index);
    }
    void knownFromNowOn(const Value& v, const Document::Container& c);
    void memoStore(std::uint64_t index, const Value& v);
    // Streaming, at EMPTY_DICT: reads the dict flat if it is one more plain dict of a claimed
    // list whose sink takes them (StreamSink::acceptsFlat); false, with nothing read, if not.
    bool tryFlatDict();
    // One scalar or memo reference at q (before end) for a flat dict; false if it is none.
    bool flatValue(const unsigned char*& q, const unsigned char* end, Value& out);
    // Hands the pending flat dicts to the sink and releases what they held.
    void flushFlat();
    // Releases `values` handed on (with !themselves, only the containers among them that the
    // sink allows), then the containers inside released ones that the sink allows, and so on.
    void releaseHandedOn(std::span<const Value> values, bool themselves);
    void memoGet(std::uint64_t index);
    // Streaming: memo pages well behind the one being filled are compacted (PickleMemo.h).
    void compactMemoBehind(std::uint64_t index);
    // A value that is stale wherever it is read (the memo's value for a flat dict).
    const Value& staleSentinel();

    Document own_;
    Document& doc_;
    Limits limits_;
    const ReadProgress noProgress_;
    const ReadProgress& progress_;
    const unsigned char* begin_ = nullptr;
    const unsigned char* p_ = nullptr;
    const unsigned char* end_ = nullptr;
    std::uint64_t opAt_ = 0; // byte offset of the current opcode
    std::uint8_t op_ = 0;
    // Streaming only.
    const ByteSource* source_ = nullptr;
    StreamSink* sink_ = nullptr;
    std::unique_ptr<char[]> window_;
    std::size_t windowSize_ = 0;
    std::uint64_t base_ = 0; // offset of begin_ in the data
    bool eof_ = false;
    std::uint64_t frameEnd_ = 0; // the furthest end a FRAME announced
    std::unordered_map<std::size_t, std::uint64_t> streamedItems_; // items handed on, per claimed list
    std::vector<Value> releasing_;
    SpareItems spareItems_;
    std::vector<std::int64_t> recyclable_;
    std::vector<std::uint32_t> memoOfSlot_; // per container slot: its memo index, or kNoMemo
    std::vector<std::int64_t> becameKnown_;  // released containers now Known in the memo: to recycle
    std::vector<Value> stack_;
    std::vector<std::size_t> marks_;
    Memo memo_;
    std::uint64_t memoCompactNext_ = 0; // streaming: the next memo page to try to compact
    std::uint64_t values_ = 0;
    // Streaming: dicts read flat and not yet handed on, all of one claimed list and one MARK.
    std::vector<Value> flatValues_;      // their keys and values
    std::vector<std::uint32_t> flatEnds_; // where each ends in flatValues_
    std::size_t flatMarks_ = 0;          // marks_.size() when they were read; 0: none pending
    Value flatList_;
    std::uint64_t* flatItems_ = nullptr; // flatList_'s node in streamedItems_, while flatMarks_
    Value flatSentinel_; // what the memo holds for a flat dict: reading it falls back
    std::array<Value, 64> flatScratch_; // the dict being read (a snapshot entry has 8 to 12 pairs)
};

} // namespace memviz::pickle
