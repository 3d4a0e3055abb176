// SPDX-License-Identifier: MIT
#pragma once
// A parsed pickle as a plain value tree: None, bool, int, float, str, bytes, list, tuple and
// dict. Values are 16-byte handles; strings point into the pickle's own bytes (no copies) and
// containers live in one table, so an object the pickle memoised and referenced many times
// (a frames list shared by thousands of trace entries) exists once and is shared, never
// copied. The tree is acyclic and its depth is bounded (see PickleReader).
// Read as a stream (PickleStream.h), strings are copied into the document as they are read and
// the containers a stream sink has consumed are released: reading one afterwards throws
// StreamFallback, so a pickle the streaming reader cannot honour is noticed, never misread.
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::pickle {

enum class Kind : std::uint8_t {
    None,
    Bool,
    Int,    // fits int64
    UInt64, // in [2^63, 2^64): a 64-bit unsigned value (e.g. -1 re-read as unsigned, pytorch#115234)
    Float,
    Str,   // valid UTF-8 (surrogates allowed, as Python's pickle writes them)
    Bytes, // bytes and bytearray
    List,
    Tuple,
    Dict,
    // Streaming only: a list, tuple or dict a stream sink took in and released, which the sink
    // knows by an id of its own (a frames list's stack). The memo gives this for it from then on,
    // and its container's slot goes to a new container (PickleStream.h). Reading inside it
    // throws StreamFallback, as for any released value.
    Known,
};

const char* kindName(Kind k);
// The kind with its article, for messages: "an int", "a str", "None". Every message that names
// a value's kind uses this, never "a " + kindName().
const char* kindWithArticle(Kind k);

struct Value {
    Kind kind = Kind::None;
    std::uint32_t length = 0; // Str/Bytes: byte length; containers: 0, or the reader's pin (PickleReaderImpl.h)
    std::int64_t payload = 0; // Bool/Int/UInt64: the value (bit pattern); Float: the bits;
                              // Str/Bytes: offset into the document's bytes, unique to the
                              // object (also an empty one); containers: slot (low 32 bits) and
                              // the slot's generation (streaming reuses slots)

    bool isContainer() const { return kind == Kind::List || kind == Kind::Tuple || kind == Kind::Dict; }
    // Kind::Known: the sink's id, and the container's kind and depth as they were.
    static Value known(Kind was, std::uint32_t depth, std::int64_t id) {
        return Value{Kind::Known, depth << 2 | (was == Kind::List ? 0u : was == Kind::Tuple ? 1u : 2u), id};
    }
    Kind knownKind() const { return (length & 3) == 0 ? Kind::List : (length & 3) == 1 ? Kind::Tuple : Kind::Dict; }
    std::uint32_t knownDepth() const { return length >> 2; }
    bool isInt() const { return kind == Kind::Int; }
    bool isText() const { return kind == Kind::Str; }
};

// Thrown when a pickle read as a stream does something the streaming reader cannot honour
// exactly (e.g. a value it already handed on and released is read again): the caller falls back
// to reading the whole tree. Deliberately not an ImportError, so that no handler of bad input
// swallows it.
class StreamFallback : public std::runtime_error {
public:
    explicit StreamFallback(const std::string& why) : std::runtime_error("pickle stream: " + why) {}
};

class Document {
public:
    Document() = default;
    Document(Document&&) noexcept = default;
    Document& operator=(Document&&) noexcept = default;

    const Value& root() const { return root_; }

    // Str or Bytes contents; empty for anything else.
    std::string_view text(const Value& v) const {
        return v.kind == Kind::Str || v.kind == Kind::Bytes ? std::string_view(bytes_.data() + v.payload, v.length)
                                                            : std::string_view();
    }
    double real(const Value& v) const;

    // Items of a list or tuple; alternating keys and values of a dict; empty otherwise.
    // Throws StreamFallback for a container a stream sink consumed (never in a whole-tree parse).
    std::span<const Value> items(const Value& v) const {
        if (!v.isContainer()) {
            if (v.kind == Kind::Known) [[unlikely]]
                throwReleased();
            return {};
        }
        const Container& c = at(v.payload);
        if (c.stream >= kStreamed || c.generation != generationOf(v.payload)) [[unlikely]]
            throwReleased();
        return c.items;
    }
    std::size_t size(const Value& v) const {
        const std::size_t n = items(v).size();
        return v.kind == Kind::Dict ? n / 2 : n;
    }
    // The value of a str key in a dict (the last one, as Python keeps the last duplicate);
    // nullptr when absent or when v is not a dict.
    const Value* find(const Value& dict, std::string_view key) const;

    // Identity of a container: equal for the same (shared) object. Read as a stream, the slot
    // of a container handed on may be given to a new one; a value that still refers to the old
    // one is caught where it could be met again (the memo), so it never reaches a reader.
    std::size_t containerId(const Value& v) const { return static_cast<std::size_t>(v.payload & 0xffffffff); }
    std::size_t containerCount() const { return count_; }
    // Nesting depth of a value: 0 for scalars, 1 for an empty container.
    std::uint32_t depth(const Value& v) const { return v.isContainer() ? at(v.payload).depth : 0; }
    std::size_t byteSize() const { return bytes_.size(); }
    // A list whose items a stream sink took as they were appended (it holds none itself).
    bool isStreamed(const Value& v) const { return v.kind == Kind::List && at(v.payload).stream == kStreamed; }
    // The protocol named by the pickle's PROTO opcode.
    int protocol() const { return protocol_; }

private:
    friend class Reader;
    [[noreturn]] static void throwReleased();
    static constexpr std::uint32_t kUndecided = 0, kKept = 1, kStreamed = 2, kReleased = 3;
    static constexpr std::uint32_t kLastGeneration = (1u << 24) - 1;
    struct Container {
        std::vector<Value> items;
        std::uint32_t depth = 1;
        std::uint32_t generation : 24 = 0; // streaming: how often the slot was reused
        std::uint32_t sealed : 1 = 0;      // placed inside another container: no longer changes
        std::uint32_t shared : 1 = 0;      // streaming: copied by DUP or fetched from the memo
        std::uint32_t stream : 2 = kUndecided; // streaming: whether a sink takes its items, or released
    };
    static std::uint32_t generationOf(std::int64_t payload) { return static_cast<std::uint32_t>(payload >> 32); }
    // Containers in fixed chunks: no copy of the whole table (and no doubled peak) as it grows.
    static constexpr unsigned kChunkBits = 12;
    const Container& at(std::int64_t payload) const {
        const auto i = static_cast<std::size_t>(payload & 0xffffffff);
        return chunks_[i >> kChunkBits][i & ((std::size_t{1} << kChunkBits) - 1)];
    }
    Container& at(std::int64_t payload) { return const_cast<Container&>(static_cast<const Document*>(this)->at(payload)); }
    // A new container's payload: a free slot (streaming) or a new one.
    std::int64_t addContainer() {
        if (!free_.empty()) {
            const std::uint32_t slot = free_.back();
            free_.pop_back();
            return static_cast<std::int64_t>(slot) | static_cast<std::int64_t>(at(slot).generation) << 32;
        }
        if ((count_ >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<Container[]>(std::size_t{1} << kChunkBits));
        return static_cast<std::int64_t>(count_++);
    }
    // Streaming: the slot of a container nothing refers to any more (but the memo) is reused.
    void recycle(std::int64_t payload) {
        Container& c = at(payload);
        if (c.generation == kLastGeneration) return; // retired: a stale reference must never match
        const std::uint32_t next = c.generation + 1;
        c = Container();
        c.generation = next;
        free_.push_back(static_cast<std::uint32_t>(payload & 0xffffffff));
    }
    bool stale(const Value& v) const { return v.isContainer() && at(v.payload).generation != generationOf(v.payload); }
    std::string bytes_;
    std::vector<std::unique_ptr<Container[]>> chunks_;
    std::size_t count_ = 0;
    std::vector<std::uint32_t> free_;
    Value root_;
    int protocol_ = 0;
};

// A deterministic text form of a value (used by tests against Python's own reading, and to
// quote values in messages): None, True, 12, f:<hex bits>, "text" (JSON escapes), b'hex', [..],
// (..), {k: v, ..}. Containers below `maxDepth` levels are written as "...", and the text is cut
// (ending "...") at `maxChars`: messages must pass one, since shared containers can make the
// full text exponentially long.
std::string debugString(const Document& doc, const Value& v, int maxDepth = 64,
                        std::size_t maxChars = static_cast<std::size_t>(-1));

} // namespace memviz::pickle
