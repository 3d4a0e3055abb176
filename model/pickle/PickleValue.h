// SPDX-License-Identifier: MIT
#pragma once
// A parsed pickle as a plain value tree: None, bool, int, float, str, bytes, list, tuple and
// dict. Values are 16-byte handles; strings point into the pickle's own bytes (no copies) and
// containers live in one table, so an object the pickle memoised and referenced many times
// (a frames list shared by thousands of trace entries) exists once and is shared, never
// copied. The tree is acyclic and its depth is bounded (see PickleReader).
#include <cstdint>
#include <span>
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
    std::span<const Value> items(const Value& v) const {
        return v.isContainer() ? std::span<const Value>(containers_[static_cast<std::size_t>(v.payload)].items)
                               : std::span<const Value>();
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
    std::size_t containerCount() const { return containers_.size(); }
    // Nesting depth of a value: 0 for scalars, 1 for an empty container.
    std::uint32_t depth(const Value& v) const {
        return v.isContainer() ? containers_[static_cast<std::size_t>(v.payload)].depth : 0;
    }
    std::size_t byteSize() const { return bytes_.size(); }

private:
    friend class Reader;
    struct Container {
        std::vector<Value> items;
        std::uint32_t depth = 1;
        bool sealed = false; // placed inside another container: no longer changes
    };
    std::string bytes_;
    std::vector<Container> containers_;
    Value root_;
};

// A deterministic text form of a value (used by tests against Python's own reading, and to
// quote values in messages): None, True, 12, f:<hex bits>, "text" (JSON escapes), b'hex', [..],
// (..), {k: v, ..}. Containers below `maxDepth` levels are written as "...", and the text is cut
// (ending "...") at `maxChars`: messages must pass one, since shared containers can make the
// full text exponentially long.
std::string debugString(const Document& doc, const Value& v, int maxDepth = 64,
                        std::size_t maxChars = static_cast<std::size_t>(-1));

} // namespace memviz::pickle
