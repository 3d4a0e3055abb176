// SPDX-License-Identifier: MIT
#pragma once
// Call stacks of a snapshot, deduplicated: each distinct frame {filename, line, name} once,
// each distinct sequence of frames once. Lists and frame dicts the pickle shares (memoised)
// are recognised by identity first, so a frames list referenced by 100k entries is read once.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pickle/PickleValue.h"

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

    const std::vector<Frame>& frames() const { return frames_; }
    // Frame ids of each stack, innermost first (as the snapshot lists them).
    const std::vector<std::vector<std::int32_t>>& stacks() const { return stacks_; }
    // Where a stack's memory was asked for, as people read it: its innermost Python frame,
    // "forward (model.py:54)"; empty when it has none.
    std::string siteOf(std::int32_t stack) const;

private:
    std::int32_t internFrame(const pickle::Value& frame, const std::function<std::string()>& where);

    struct SequenceHash {
        std::size_t operator()(const std::vector<std::int32_t>& v) const noexcept;
    };
    struct FrameKey {
        std::string_view name, filename;
        std::int64_t line;
        bool operator==(const FrameKey&) const = default;
    };
    struct FrameKeyHash {
        std::size_t operator()(const FrameKey& k) const noexcept;
    };

    const pickle::Document& doc_;
    std::vector<std::int32_t> stackByContainer_; // -2 = not seen yet
    std::vector<std::int32_t> frameByContainer_;
    std::unordered_map<FrameKey, std::int32_t, FrameKeyHash> frameIds_; // views into the pickle's bytes
    std::unordered_map<std::vector<std::int32_t>, std::int32_t, SequenceHash> stackIds_;
    std::vector<Frame> frames_;
    std::vector<std::vector<std::int32_t>> stacks_;
    std::vector<std::int32_t> scratch_;
};

} // namespace memviz::snapshot
