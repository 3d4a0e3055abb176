// SPDX-License-Identifier: MIT
#include "trace/StackTree.h"

#include <algorithm>
#include <limits>

#include "trace/StackSite.h"

namespace memviz {

StackTree::StackTree() { nodes.emplace_back(); }

std::vector<std::int32_t> StackTree::pathTo(std::int32_t node) const {
    std::vector<std::int32_t> path;
    for (std::int32_t n = node; n > 0; n = nodes[static_cast<std::size_t>(n)].parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

int StackTree::maxDepth() const {
    int d = 0;
    for (const StackNode& n : nodes) d = std::max(d, n.depth);
    return d;
}

std::string frameLabel(const StackFrameInfo& f) {
    const std::string function = f.function.empty() ? std::string("??") : f.function;
    if (f.file.empty()) return function;
    return function + " (" + std::string(fileBaseName(f.file)) + ")";
}

std::size_t StackTreeBuilder::FrameHash::operator()(const StackFrameInfo& f) const {
    std::size_t h = std::hash<std::string>()(f.function);
    h = h * 31 + std::hash<std::string>()(f.file);
    h = h * 31 + std::hash<std::int64_t>()(f.line);
    return h * 31 + std::hash<std::string>()(f.module);
}

StackTreeBuilder::StackTreeBuilder(FrameFolder folder, std::size_t maxDepth)
    : folder_(std::move(folder)), maxDepth_(std::max<std::size_t>(maxDepth, 2)) {}

std::int32_t StackTreeBuilder::frameId(const StackFrameInfo& frame) {
    // One frame per function, file and module, whatever the line (each call site of `main`
    // has its own line; a flame graph shows `main` once, as flamegraph.pl and heaptrack_gui
    // do). The line is kept while all its call sites agree, else it becomes unknown (0).
    StackFrameInfo key = frame;
    key.line = 0;
    const auto it = frameIds_.find(key);
    if (it != frameIds_.end()) {
        StackFrameInfo& known = tree_.frames[static_cast<std::size_t>(it->second)];
        if (known.line != frame.line) known.line = 0;
        return it->second;
    }
    const auto id = static_cast<std::int32_t>(tree_.frames.size());
    tree_.frames.push_back(frame);
    elided_.push_back(folder_.elides(frame.function, frame.file) ? 1 : 0);
    frameIds_.emplace(std::move(key), id);
    return id;
}

std::int32_t StackTreeBuilder::child(std::int32_t node, std::int32_t frame) {
    const auto [it, inserted] = edges_.try_emplace({node, frame}, 0);
    if (!inserted) return it->second;
    const auto id = static_cast<std::int32_t>(tree_.nodes.size());
    StackNode n;
    n.frame = frame;
    n.parent = node;
    n.depth = tree_.nodes[static_cast<std::size_t>(node)].depth + 1;
    tree_.nodes.push_back(std::move(n));
    tree_.nodes[static_cast<std::size_t>(node)].children.push_back(id);
    it->second = id;
    return id;
}

std::int32_t StackTreeBuilder::tailFrame(std::size_t folded) {
    StackFrameInfo f;
    f.function = "[" + std::to_string(folded) + " more frames folded: deeper than " + std::to_string(maxDepth_) + "]";
    return frameId(f);
}

void StackTreeBuilder::add(std::span<const std::int32_t> outermostFirst, std::int64_t value) {
    ++tree_.samples;
    scratch_.clear();
    for (std::int32_t f : outermostFirst)
        if (!elided_[static_cast<std::size_t>(f)]) scratch_.push_back(f);
    if (scratch_.size() > maxDepth_) {
        // Keep the outermost frames (where the program's structure is) and one frame for the rest.
        const std::size_t folded = scratch_.size() - (maxDepth_ - 1);
        scratch_.resize(maxDepth_ - 1);
        scratch_.push_back(tailFrame(folded));
        ++tree_.stacksTruncated;
    }
    std::int32_t node = 0;
    tree_.nodes[0].inclusive += value;
    for (std::int32_t f : scratch_) {
        node = child(node, f);
        tree_.nodes[static_cast<std::size_t>(node)].inclusive += value;
    }
    tree_.nodes[static_cast<std::size_t>(node)].self += value;
}

std::int32_t StackTreeBuilder::extend(std::int32_t node, std::span<const std::int32_t> outermostFirst) {
    for (std::int32_t f : outermostFirst) {
        if (elided_[static_cast<std::size_t>(f)]) continue;
        const StackNode& n = tree_.nodes[static_cast<std::size_t>(node)];
        if (deepTail_ >= 0 && n.frame == deepTail_) break;
        if (static_cast<std::size_t>(n.depth) + 1 >= maxDepth_) {
            if (deepTail_ < 0) {
                StackFrameInfo tail;
                tail.function = "[more frames folded: deeper than " + std::to_string(maxDepth_) + "]";
                deepTail_ = frameId(tail);
            }
            node = child(node, deepTail_);
            break;
        }
        node = child(node, f);
    }
    return node;
}

void StackTreeBuilder::addAt(std::int32_t node, std::int64_t value) {
    ++tree_.samples;
    if (deepTail_ >= 0 && tree_.nodes[static_cast<std::size_t>(node)].frame == deepTail_) ++tree_.stacksTruncated;
    tree_.nodes[static_cast<std::size_t>(node)].self += value;
    for (std::int32_t n = node; n >= 0; n = tree_.nodes[static_cast<std::size_t>(n)].parent)
        tree_.nodes[static_cast<std::size_t>(n)].inclusive += value;
}

void StackTreeBuilder::addInnermostFirst(std::span<const std::int32_t> innermostFirst, std::int64_t value) {
    std::vector<std::int32_t> reversed(innermostFirst.rbegin(), innermostFirst.rend());
    add(reversed, value);
}

StackTree StackTreeBuilder::finish() {
    for (StackNode& n : tree_.nodes)
        std::stable_sort(n.children.begin(), n.children.end(), [this](std::int32_t a, std::int32_t b) {
            return tree_.nodes[static_cast<std::size_t>(a)].inclusive > tree_.nodes[static_cast<std::size_t>(b)].inclusive;
        });
    for (StackNode& n : tree_.nodes)
        for (std::size_t i = 0; i < n.children.size(); ++i)
            tree_.nodes[static_cast<std::size_t>(n.children[i])].row = static_cast<std::int32_t>(i);
    edges_.clear();
    frameIds_.clear();
    StackTree out = std::move(tree_);
    tree_ = StackTree();
    elided_.clear();
    return out;
}

StackTree invertedStackTree(const StackTree& topDown) {
    StackTreeBuilder builder(FrameFolder{}, std::numeric_limits<std::size_t>::max());
    std::vector<std::int32_t> frameIds(topDown.frames.size(), -1);
    for (std::size_t f = 0; f < topDown.frames.size(); ++f) frameIds[f] = builder.frameId(topDown.frames[f]);
    std::vector<std::int32_t> innermostFirst;
    for (std::size_t n = 0; n < topDown.nodes.size(); ++n) {
        if (topDown.nodes[n].self == 0) continue;
        innermostFirst.clear();
        for (auto k = static_cast<std::int32_t>(n); k > 0; k = topDown.nodes[static_cast<std::size_t>(k)].parent)
            innermostFirst.push_back(frameIds[static_cast<std::size_t>(topDown.nodes[static_cast<std::size_t>(k)].frame)]);
        builder.add(innermostFirst, topDown.nodes[n].self);
    }
    StackTree out = builder.finish();
    out.stacksTruncated = topDown.stacksTruncated;
    return out;
}

} // namespace memviz
