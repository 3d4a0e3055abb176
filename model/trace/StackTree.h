// SPDX-License-Identifier: MIT
#pragma once
// A format-independent call tree for flame graphs and `memviz stacks`: frames (function, file,
// line, module) as a tree from the outermost caller (under one root) down to where memory was
// asked for, each node with its inclusive value (itself and everything it called) and self
// value (charged to it directly). Built from (stack, value) pairs by StackTreeBuilder, which
// interns frames, drops the frames a FrameFolder elides and bounds depth.
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/FrameFolder.h"

namespace memviz {

struct StackFrameInfo {
    std::string function; // "??" or an address when unresolved
    std::string file;     // empty when unknown
    std::int64_t line = 0;
    std::string module; // empty when unknown

    bool operator==(const StackFrameInfo&) const = default;
};

struct StackNode {
    std::int32_t frame = -1;  // into StackTree::frames; -1 for the root
    std::int32_t parent = -1; // -1 for the root
    std::int32_t depth = 0;   // 0 for the root
    std::int64_t inclusive = 0;
    std::int64_t self = 0;
    std::vector<std::int32_t> children; // largest inclusive first
    std::int32_t row = 0;               // its index in its parent's children
};

struct StackTree {
    std::vector<StackFrameInfo> frames;
    std::vector<StackNode> nodes; // nodes[0] is the root
    std::int64_t stacksTruncated = 0; // stacks deeper than the depth limit (their tail is one frame)
    std::int64_t samples = 0;         // (stack, value) pairs added

    StackTree();
    std::int64_t total() const { return nodes[0].inclusive; }
    const StackFrameInfo* frameOf(std::int32_t node) const {
        const std::int32_t f = nodes[static_cast<std::size_t>(node)].frame;
        return f < 0 ? nullptr : &frames[static_cast<std::size_t>(f)];
    }
    // The frame of a node; for the root, a frame without function.
    const StackFrameInfo& frameAt(std::int32_t node) const {
        static const StackFrameInfo none;
        const StackFrameInfo* f = frameOf(node);
        return f ? *f : none;
    }
    // The node ids from the root's child down to `node`.
    std::vector<std::int32_t> pathTo(std::int32_t node) const;
    int maxDepth() const;
};

// The text of a frame in collapsed stacks and labels: "function (file.c)", heaptrack_print's
// flame-graph spelling; the function alone when the file is unknown.
std::string frameLabel(const StackFrameInfo& f);

// The bottom-up tree (heaptrack_gui's): the same stacks read from the innermost frame, so
// the root's children are where values were charged (self), each with its callers below it.
StackTree invertedStackTree(const StackTree& topDown);

class StackTreeBuilder {
public:
    static constexpr std::size_t kDefaultMaxDepth = 10000;

    explicit StackTreeBuilder(FrameFolder folder = {}, std::size_t maxDepth = kDefaultMaxDepth);

    // Interns a frame; the id is only for add().
    std::int32_t frameId(const StackFrameInfo& frame);
    // A stack given outermost frame first (frame ids from frameId()) and its value.
    void add(std::span<const std::int32_t> outermostFirst, std::int64_t value);
    // Same, innermost frame first (as most formats list them).
    void addInnermostFirst(std::span<const std::int32_t> innermostFirst, std::int64_t value);
    // For providers whose stacks share prefixes (heaptrack's backtrace tree): appends frames
    // below `node` (outermost first; elided ones skipped, depth bounded) and returns the node
    // reached; addAt() then charges a value there. add() is extend() from the root + addAt().
    std::int32_t extend(std::int32_t node, std::span<const std::int32_t> outermostFirst);
    void addAt(std::int32_t node, std::int64_t value);
    // Every byte has a box: a value added without frames (or charged to the root) goes to a
    // frame of this name under the root, so a flame graph has no blank width. The default,
    // kNoStackRecorded, suits any format; a snapshot says why its blocks have no stack.
    void setNoStackLabel(std::string label) { noStackLabel_ = std::move(label); }
    // The frame for bytes without a stack (for providers that put a grouping frame, a device,
    // above the stacks: the stackless bytes go under it as this frame).
    std::int32_t noStackFrame();
    StackTree finish();

    static constexpr const char* kNoStackRecorded = "stack not recorded";
    static constexpr const char* kNoStackBeforeRecording = "allocated before the recording started: no stack";

private:
    std::int32_t child(std::int32_t node, std::int32_t frame);
    std::int32_t tailFrame(std::size_t folded);

    struct FrameHash {
        std::size_t operator()(const StackFrameInfo& f) const;
    };
    struct EdgeHash {
        std::size_t operator()(const std::pair<std::int32_t, std::int32_t>& e) const {
            return std::hash<std::int64_t>()((static_cast<std::int64_t>(e.first) << 32) ^ static_cast<std::uint32_t>(e.second));
        }
    };

    FrameFolder folder_;
    std::size_t maxDepth_;
    StackTree tree_;
    std::unordered_map<StackFrameInfo, std::int32_t, FrameHash> frameIds_;
    std::vector<signed char> elided_; // by frame id: 1 elided, 0 kept
    std::unordered_map<std::pair<std::int32_t, std::int32_t>, std::int32_t, EdgeHash> edges_;
    std::vector<std::int32_t> scratch_;
    std::int32_t deepTail_ = -1; // extend()'s frame for what is deeper than the limit
    std::string noStackLabel_ = kNoStackRecorded;
};

} // namespace memviz
