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
};

const char* kindName(Kind k);
// The kind with its article, for messages: "an int", "a str", "None". Every message that names
// a value's kind uses this, never "a " + kindName().
const char* kindWithArticle(Kind k);

struct Value {
    Kind kind = Kind::None;
    std::uint32_t length = 0; // Str/Bytes: byte length
    std::int64_t payload = 0; // Bool/Int/UInt64: the value (bit pattern); Float: the bits;
                              // Str/Bytes: offset into the document's bytes; containers: index

    bool isContainer() const { return kind == Kind::List || kind == Kind::Tuple || kind == Kind::Dict; }
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
        if (!v.isContainer()) return {};
        const Container& c = at(v.payload);
        if (c.stream >= kStreamed) [[unlikely]]
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

    // Identity of a container: equal for the same (shared) object.
    std::size_t containerId(const Value& v) const { return static_cast<std::size_t>(v.payload); }
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
    static constexpr std::uint8_t kUndecided = 0, kKept = 1, kStreamed = 2, kReleased = 3;
    struct Container {
        std::vector<Value> items;
        std::uint32_t depth = 1;
        bool sealed = false;                // placed inside another container: no longer changes
        std::uint8_t stream = kUndecided;   // streaming: whether a sink takes its items, or released
    };
    // Containers in fixed chunks: no copy of the whole table (and no doubled peak) as it grows.
    static constexpr unsigned kChunkBits = 14;
    const Container& at(std::int64_t id) const {
        const auto i = static_cast<std::size_t>(id);
        return chunks_[i >> kChunkBits][i & ((std::size_t{1} << kChunkBits) - 1)];
    }
    Container& at(std::int64_t id) { return const_cast<Container&>(static_cast<const Document*>(this)->at(id)); }
    std::size_t addContainer() {
        if ((count_ >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<Container[]>(std::size_t{1} << kChunkBits));
        return count_++;
    }
    std::string bytes_;
    std::vector<std::unique_ptr<Container[]>> chunks_;
    std::size_t count_ = 0;
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
