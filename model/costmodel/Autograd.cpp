// SPDX-License-Identifier: MIT
#include "costmodel/Autograd.h"

#include <algorithm>

namespace memviz::costmodel::sim {

Tensor::Tensor(const Tensor& o)
    : contiguous(o.contiguous), gradFn(o.gradFn), outputNr(o.outputNr), leaf(o.leaf), graph_(o.graph_), storage_(o.storage_),
      shape_(o.shape_), dtype_(o.dtype_) {
    if (graph_) graph_->mem.retain(storage_);
}

Tensor::Tensor(Tensor&& o) noexcept
    : contiguous(o.contiguous), gradFn(o.gradFn), outputNr(o.outputNr), leaf(o.leaf), graph_(o.graph_), storage_(o.storage_),
      shape_(std::move(o.shape_)), dtype_(o.dtype_) {
    o.graph_ = nullptr;
}

Tensor& Tensor::operator=(const Tensor& o) {
    if (this != &o) {
        Tensor copy(o);
        *this = std::move(copy);
    }
    return *this;
}

Tensor& Tensor::operator=(Tensor&& o) noexcept {
    if (this != &o) {
        reset();
        contiguous = o.contiguous;
        gradFn = o.gradFn;
        outputNr = o.outputNr;
        leaf = o.leaf;
        graph_ = o.graph_;
        storage_ = o.storage_;
        shape_ = std::move(o.shape_);
        dtype_ = o.dtype_;
        o.graph_ = nullptr;
    }
    return *this;
}

Tensor::~Tensor() { reset(); }

void Tensor::reset() {
    if (graph_) graph_->mem.release(storage_);
    graph_ = nullptr;
}

bool Tensor::requiresGrad() const {
    if (!graph_) return false;
    if (gradFn >= 0) return true;
    return leaf >= 0 && graph_->leaves[static_cast<std::size_t>(leaf)].requiresGrad;
}

Tensor Graph::empty(Shape shape, DType dtype, Category category) {
    Tensor t;
    t.graph_ = this;
    t.dtype_ = dtype;
    t.storage_ = mem.allocate(numel(shape) * elementSize(dtype), category);
    t.shape_ = std::move(shape);
    return t;
}

Tensor Graph::alias(const Tensor& base, Shape shape, bool contiguous) {
    Tensor t(base);
    t.shape_ = std::move(shape);
    t.contiguous = contiguous;
    return t;
}

Tensor Graph::newLeaf(Shape shape, DType dtype, Category category, bool requiresGrad) {
    Tensor t = empty(std::move(shape), dtype, category);
    t.leaf = static_cast<int>(leaves.size());
    leaves.push_back({t, Tensor(), requiresGrad, Category::Gradients});
    return t;
}

Tensor Graph::newLeafAlias(const Tensor& base, bool requiresGrad, Category gradCategory) {
    Tensor t(base);
    t.gradFn = -1;
    t.outputNr = 0;
    t.leaf = static_cast<int>(leaves.size());
    leaves.push_back({t, Tensor(), requiresGrad, gradCategory});
    return t;
}

Tensor Graph::retireLeaf(int leaf) {
    Leaf& l = leaves[static_cast<std::size_t>(leaf)];
    Tensor g = std::move(l.grad);
    l.grad.reset();
    l.value.reset();
    l.requiresGrad = false;
    return g;
}

bool Graph::anyRequiresGrad(std::initializer_list<const Tensor*> inputs) const {
    return std::any_of(inputs.begin(), inputs.end(), [](const Tensor* t) { return t && t->requiresGrad(); });
}

Edge Graph::edgeOf(const Tensor& t) const {
    if (t.gradFn >= 0) return {t.gradFn, t.outputNr, -1};
    if (t.leaf >= 0 && leaves[static_cast<std::size_t>(t.leaf)].requiresGrad) return {-1, 0, t.leaf};
    return {};
}

void Graph::record(const char* name, std::initializer_list<Tensor*> outputs, std::initializer_list<const Tensor*> inputs,
                   std::vector<Tensor> saved, BackwardFn fn) {
    if (!gradEnabled || !anyRequiresGrad(inputs)) return;
    Node n;
    n.name = name;
    for (const Tensor* in : inputs) n.next.push_back(in ? edgeOf(*in) : Edge{});
    n.saved = std::move(saved);
    n.fn = std::move(fn);
    const int id = static_cast<int>(nodes.size());
    int nr = 0;
    for (Tensor* out : outputs) {
        n.outShapes.push_back(out->shape());
        n.outDtypes.push_back(out->dtype());
        out->gradFn = id;
        out->outputNr = nr++;
        out->leaf = -1;
    }
    nodes.push_back(std::move(n));
}

void Graph::accumulate(int leafIndex, Tensor grad) {
    Leaf& leaf = leaves[static_cast<std::size_t>(leafIndex)];
    if (!leaf.grad.defined()) {
        if (mem.refs(grad.storage()) == 1) { // AccumulateGrad steals a gradient nobody else holds
            mem.recategorize(grad.storage(), leaf.gradCategory);
            leaf.grad = alias(grad, leaf.value.shape());
        } else {
            leaf.grad = empty(leaf.value.shape(), leaf.value.dtype(), leaf.gradCategory);
            op("aten.clone");
        }
        leaf.grad.gradFn = -1;
        leaf.grad.leaf = -1;
        return;
    }
    op("aten.add_"); // param.grad += grad, in place
}

void Graph::route(const Edge& edge, Tensor grad, Buffers& buffers) {
    if (edge.leaf >= 0) {
        accumulate(edge.leaf, std::move(grad));
        return;
    }
    std::vector<Tensor>& buf = buffers[edge.node];
    const Node& target = nodes[static_cast<std::size_t>(edge.node)];
    if (buf.size() < target.outShapes.size()) buf.resize(target.outShapes.size());
    Tensor& slot = buf[static_cast<std::size_t>(edge.output)];
    if (!slot.defined()) {
        slot = std::move(grad);
        return;
    }
    // Two gradients meet (a residual input, a tensor used twice): old + new, out of place.
    Tensor sum = empty(target.outShapes[static_cast<std::size_t>(edge.output)], slot.dtype(), Category::Temporaries);
    op("aten.add");
    slot = std::move(sum);
}

void Graph::backward(std::vector<std::pair<Tensor, Tensor>> roots) {
    std::vector<char> reach(nodes.size(), 0);
    std::vector<int> stack;
    Buffers buffers;
    for (auto& [out, grad] : roots) {
        if (out.gradFn < 0) continue;
        stack.push_back(out.gradFn);
        std::vector<Tensor>& buf = buffers[out.gradFn];
        buf.resize(nodes[static_cast<std::size_t>(out.gradFn)].outShapes.size());
        buf[static_cast<std::size_t>(out.outputNr)] = std::move(grad);
        out.reset();
    }
    roots.clear();
    int highest = -1;
    while (!stack.empty()) {
        const int id = stack.back();
        stack.pop_back();
        if (reach[static_cast<std::size_t>(id)] || !nodes[static_cast<std::size_t>(id)].fn) continue;
        reach[static_cast<std::size_t>(id)] = 1;
        highest = std::max(highest, id);
        for (const Edge& e : nodes[static_cast<std::size_t>(id)].next)
            if (e.node >= 0) stack.push_back(e.node);
    }
    for (int id = highest; id >= 0; --id) {
        if (!reach[static_cast<std::size_t>(id)]) continue;
        Node& node = nodes[static_cast<std::size_t>(id)];
        auto it = buffers.find(id);
        std::vector<Tensor> grads;
        if (it != buffers.end()) {
            grads = std::move(it->second);
            buffers.erase(it);
        }
        std::vector<Tensor> out;
        if (std::any_of(grads.begin(), grads.end(), [](const Tensor& g) { return g.defined(); })) {
            grads.resize(node.outShapes.size());
            BackwardFn fn = std::move(node.fn);
            out = fn(*this, node, grads);
        }
        grads.clear();
        node.saved.clear();
        node.fn = nullptr;
        for (std::size_t i = 0; i < out.size() && i < node.next.size(); ++i)
            if (out[i].defined() && node.next[i].valid()) route(node.next[i], std::move(out[i]), buffers);
    }
}

} // namespace memviz::costmodel::sim
