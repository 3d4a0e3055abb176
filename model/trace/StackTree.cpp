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

std::int32_t StackTreeBuilder::noStackFrame() {
    StackFrameInfo f;
    f.function = noStackLabel_;
    return frameId(f);
}

void StackTreeBuilder::add(std::span<const std::int32_t> outermostFirst, std::int64_t value) {
    ++tree_.samples;
    scratch_.clear();
    for (std::int32_t f : outermostFirst)
        if (!elided_[static_cast<std::size_t>(f)]) scratch_.push_back(f);
    // A stack whose every frame is folded keeps its innermost frame (what asked for the
    // memory), so its bytes are not mistaken for bytes without a stack.
    if (scratch_.empty() && !outermostFirst.empty()) scratch_.push_back(outermostFirst.back());
    if (scratch_.size() > maxDepth_) {
        // Keep the outermost frames (where the program's structure is) and one frame for the rest.
        const std::size_t folded = scratch_.size() - (maxDepth_ - 1);
        scratch_.resize(maxDepth_ - 1);
        scratch_.push_back(tailFrame(folded));
        ++tree_.stacksTruncated;
    }
    std::int32_t node = 0;
    for (std::int32_t f : scratch_) node = child(node, f);
    tree_.nodes[static_cast<std::size_t>(node)].self += value; // inclusive values: in finish()
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
    tree_.nodes[static_cast<std::size_t>(node)].self += value; // inclusive values: in finish()
}

void StackTreeBuilder::addInnermostFirst(std::span<const std::int32_t> innermostFirst, std::int64_t value) {
    std::vector<std::int32_t> reversed(innermostFirst.rbegin(), innermostFirst.rend());
    add(reversed, value);
}

namespace {

// Children largest inclusive first (ties keep their first-seen order), and each node's row.
void sortChildren(StackTree& t) {
    for (StackNode& n : t.nodes)
        std::stable_sort(n.children.begin(), n.children.end(), [&t](std::int32_t a, std::int32_t b) {
            return t.nodes[static_cast<std::size_t>(a)].inclusive > t.nodes[static_cast<std::size_t>(b)].inclusive;
        });
    for (StackNode& n : t.nodes)
        for (std::size_t i = 0; i < n.children.size(); ++i)
            t.nodes[static_cast<std::size_t>(n.children[i])].row = static_cast<std::int32_t>(i);
}

} // namespace

StackTree StackTreeBuilder::finish() {
    // Bytes charged to the root (no frames) get their named box.
    if (const std::int64_t rootSelf = tree_.nodes[0].self; rootSelf != 0) {
        tree_.nodes[0].self = 0;
        tree_.nodes[static_cast<std::size_t>(child(0, noStackFrame()))].self += rootSelf;
    }
    // Inclusive values once, from the self values: a child is created after its parent, so in
    // reverse id order every node is complete before it is added to its parent (instead of a
    // walk to the root for every stack added).
    for (StackNode& n : tree_.nodes) n.inclusive = n.self;
    for (std::size_t n = tree_.nodes.size(); n-- > 1;)
        tree_.nodes[static_cast<std::size_t>(tree_.nodes[n].parent)].inclusive += tree_.nodes[n].inclusive;
    sortChildren(tree_);
    edges_.clear();
    frameIds_.clear();
    StackTree out = std::move(tree_);
    tree_ = StackTree();
    elided_.clear();
    return out;
}

StackTree invertedStackTree(const StackTree& topDown) {
    // Every top-down node with a self value is one stack (read upwards from it). The
    // bottom-up tree is built level by level without hashing: a bottom-up node owns a slice of
    // "entries" (a top-down node on the way up from a stack's leaf, and that stack's value),
    // all at the node's frame; its children are those entries moved one caller up, grouped by
    // frame through an array indexed by frame id. Each stack costs one step per frame, as a
    // walk would, but a step is an array access instead of a hash lookup of (node, frame).
    StackTree out;
    out.frames = topDown.frames;
    out.stacksTruncated = topDown.stacksTruncated;
    struct Entry {
        std::int32_t at;    // top-down node whose frame is the bottom-up node's frame
        std::int64_t value; // the self value of the stack this entry follows
    };
    std::vector<Entry> entries;
    for (std::size_t n = 1; n < topDown.nodes.size(); ++n)
        if (topDown.nodes[n].self != 0) entries.push_back({static_cast<std::int32_t>(n), topDown.nodes[n].self});
    out.samples = static_cast<std::int64_t>(entries.size());
    // The root's own self: stacks with no frame at all (a value charged to the root).
    out.nodes[0].self = topDown.nodes[0].self;
    out.nodes[0].inclusive = topDown.nodes[0].self;
    if (topDown.nodes[0].self != 0) ++out.samples;

    // The nodes are first collected flat (no per-node allocation), then laid out once at their
    // final size: millions of bottom-up nodes are common (3.7M for a 1.6M-call heaptrack run).
    struct Flat {
        std::int32_t frame, parent;
        std::int64_t inclusive, self;
    };
    std::vector<Flat> flat{{-1, -1, out.nodes[0].inclusive, out.nodes[0].self}};
    std::vector<std::int32_t> childCount{0};
    flat.reserve(topDown.nodes.size() * 4); // a guess; bottom-up trees are usually larger
    childCount.reserve(flat.capacity());
    std::vector<std::int32_t> groupOfFrame(topDown.frames.size(), -1);
    std::vector<std::int32_t> touched;
    std::vector<std::size_t> groupCount, offset, fill;
    std::vector<Entry> scratch;
    const auto frameOf = [&topDown](std::int32_t n) { return topDown.nodes[static_cast<std::size_t>(n)].frame; };
    struct Task {
        std::int32_t node;
        std::size_t begin, end;
    };
    std::vector<Task> tasks;
    // Groups entries[begin, end) by the frame of their `at` (stably), makes a child of `parent`
    // for each group, first seen first, and queues it.
    const auto split = [&](std::int32_t parent, std::size_t begin, std::size_t end) {
        touched.clear();
        groupCount.clear();
        for (std::size_t i = begin; i < end; ++i) {
            const auto f = static_cast<std::size_t>(frameOf(entries[i].at));
            if (groupOfFrame[f] < 0) {
                groupOfFrame[f] = static_cast<std::int32_t>(touched.size());
                touched.push_back(static_cast<std::int32_t>(f));
                groupCount.push_back(0);
            }
            ++groupCount[static_cast<std::size_t>(groupOfFrame[f])];
        }
        offset.assign(touched.size() + 1, 0);
        for (std::size_t g = 0; g < touched.size(); ++g) offset[g + 1] = offset[g] + groupCount[g];
        if (touched.size() > 1) { // one group (most of a deep tree's chains): already in place
            scratch.resize(end - begin);
            fill.assign(offset.begin(), offset.end() - 1);
            for (std::size_t i = begin; i < end; ++i)
                scratch[fill[static_cast<std::size_t>(groupOfFrame[static_cast<std::size_t>(frameOf(entries[i].at))])]++] = entries[i];
            std::copy(scratch.begin(), scratch.end(), entries.begin() + static_cast<std::ptrdiff_t>(begin));
        }
        const std::size_t firstTask = tasks.size();
        for (std::size_t g = 0; g < touched.size(); ++g) {
            std::int64_t inclusive = 0;
            for (std::size_t i = begin + offset[g]; i < begin + offset[g + 1]; ++i) inclusive += entries[i].value;
            const auto id = static_cast<std::int32_t>(flat.size());
            flat.push_back({touched[g], parent, inclusive, 0});
            ++childCount[static_cast<std::size_t>(parent)];
            childCount.push_back(0);
            tasks.push_back({id, begin + offset[g], begin + offset[g + 1]});
            groupOfFrame[static_cast<std::size_t>(touched[g])] = -1;
        }
        std::reverse(tasks.begin() + static_cast<std::ptrdiff_t>(firstTask), tasks.end()); // first group first
    };
    for (const Entry& e : entries) flat[0].inclusive += e.value;
    split(0, 0, entries.size());
    while (!tasks.empty()) {
        const Task task = tasks.back();
        tasks.pop_back();
        // One caller up; a stack whose outermost frame this was ends here (its value is self).
        std::size_t kept = task.begin;
        std::int64_t self = 0;
        for (std::size_t i = task.begin; i < task.end; ++i) {
            const std::int32_t up = topDown.nodes[static_cast<std::size_t>(entries[i].at)].parent;
            if (up <= 0) self += entries[i].value;
            else entries[kept++] = {up, entries[i].value};
        }
        flat[static_cast<std::size_t>(task.node)].self = self;
        if (kept > task.begin) split(task.node, task.begin, kept);
    }
    // Children are created after their parent, so one pass in id order sets every depth.
    out.nodes.resize(flat.size());
    for (std::size_t n = 0; n < flat.size(); ++n) {
        StackNode& node = out.nodes[n];
        node.frame = flat[n].frame;
        node.parent = flat[n].parent;
        node.inclusive = flat[n].inclusive;
        node.self = flat[n].self;
        node.children.reserve(static_cast<std::size_t>(childCount[n]));
        if (n > 0) {
            StackNode& parent = out.nodes[static_cast<std::size_t>(node.parent)];
            node.depth = parent.depth + 1;
            parent.children.push_back(static_cast<std::int32_t>(n));
        }
    }
    sortChildren(out);
    return out;
}

} // namespace memviz
