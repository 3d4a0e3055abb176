// SPDX-License-Identifier: MIT
#pragma once
// Call stacks of a snapshot, deduplicated: each distinct frame {filename, line, name} once,
// each distinct sequence of frames once. Lists and frame dicts the pickle shares (memoised)
// are recognised by identity first, so a frames list referenced by 100k entries is read once.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pickle/PickleValue.h"
#include "trace/AddressMap.h"

namespace memviz::snapshot {

struct Frame {
    std::string name;
    std::string filename; // "??" for C++ frames without debug info
    std::int64_t line = 0;
};

class StackTable {
public:
    explicit StackTable(const pickle::Document& doc);

    // The stack id of a frames list (kNoName for an empty list). `where` names the list in
    // error messages; it is called only when something is wrong. Throws ImportError.
    std::int32_t intern(const pickle::Value& framesList, const std::function<std::string()>& where);

    // Whether the container (a frames list or a frame dict) has been interned: intern() knows
    // it again by identity alone.
    bool interned(std::size_t containerId) const { return containerId < byContainer_.size() && byContainer_[containerId] != -2; }
    // The id intern() gave the container (a stack for a list, a frame for a dict), if it did:
    // what the pickle reader's memo gives as a Kind::Known value for it once it is released.
    // intern() takes such a value as it took the container.
    std::optional<std::int64_t> knownAs(std::size_t containerId) const {
        if (!interned(containerId)) return std::nullopt;
        return byContainer_[containerId];
    }
    // The container's slot now holds another container (a document read as a stream).
    void forget(std::size_t containerId) {
        if (containerId < byContainer_.size()) byContainer_[containerId] = -2;
    }
    // Reading is over: frees what only interning needs (the document may go away now).
    void doneReading();

    const std::vector<Frame>& frames() const { return frames_; }
    // Frame ids of each stack, innermost first (as the snapshot lists them).
    const std::vector<std::vector<std::int32_t>>& stacks() const { return stacks_; }
    // Where a stack's memory was asked for, as people read it: its innermost Python frame,
    // "forward (model.py:54)"; empty when it has none.
    std::string siteOf(std::int32_t stack) const;

private:
    // The stack id of a frames list or the frame id of a frame dict (lists and dicts are
    // different containers), by container; -2 = not seen yet.
    std::int32_t& slot(std::size_t id);
    std::int32_t internFrame(const pickle::Value& frame, const std::function<std::string()>& where);

    // The stack id of the frame ids in scratch_, a new one when they were not met before.
    std::int32_t internSequence(const std::function<std::string()>& where);
    // Looked up with views into the pickle's text, stored with copies: a document read as a
    // stream moves its text as it grows.
    struct FrameKey {
        std::string_view name, filename;
        std::int64_t line;
    };
    struct StoredFrameKey {
        std::string name, filename;
        std::int64_t line;
        operator FrameKey() const { return {name, filename, line}; }
    };
    struct FrameKeyHash {
        using is_transparent = void;
        std::size_t operator()(const FrameKey& k) const noexcept;
        std::size_t operator()(const StoredFrameKey& k) const noexcept { return (*this)(FrameKey(k)); }
    };
    struct FrameKeyEqual {
        using is_transparent = void;
        bool operator()(const FrameKey& a, const FrameKey& b) const {
            return a.line == b.line && a.name == b.name && a.filename == b.filename;
        }
    };

    const pickle::Document& doc_;
    std::vector<std::int32_t> byContainer_;
    std::unordered_map<StoredFrameKey, std::int32_t, FrameKeyHash, FrameKeyEqual> frameIds_;
    // Stacks by the hash of their frames (trace/AddressMap.h, open addressing: a map keyed by
    // vectors took a fifth of a 3 GB snapshot's parse, most of it waiting on memory for its
    // chains of nodes, issue 33). A stack whose hash another stack took first goes at the next
    // key, and so on.
    AddressMap<std::int32_t> stackIds_;
    std::vector<Frame> frames_;
    std::vector<std::vector<std::int32_t>> stacks_;
    std::vector<std::int32_t> scratch_;
};

} // namespace memviz::snapshot
