// SPDX-License-Identifier: MIT
#pragma once
// A miniature of PyTorch's autograd over simulated tensors. Tensors are handles on reference-
// counted storages, so a tensor is freed exactly when its last handle goes away: the simulated
// code mirrors the lifetimes of the Python locals of torch.nn and the SavedVariables of autograd
// nodes. The backward engine runs nodes in reverse creation order (like PyTorch's ready queue
// ordered by sequence number), frees each node's saved tensors and incoming gradients after it
// ran, accumulates gradients that meet out of place, and steals gradients into param.grad.
#include <deque>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "costmodel/MemorySim.h"
#include "costmodel/Types.h"

namespace memviz::costmodel::sim {

class Graph;

class Tensor {
public:
    Tensor() = default;
    Tensor(const Tensor& other);
    Tensor(Tensor&& other) noexcept;
    Tensor& operator=(const Tensor& other);
    Tensor& operator=(Tensor&& other) noexcept;
    ~Tensor();

    bool defined() const { return graph_ != nullptr; }
    void reset();
    const Shape& shape() const { return shape_; }
    std::int64_t dim(int i) const { return shape_[static_cast<std::size_t>(i < 0 ? static_cast<int>(shape_.size()) + i : i)]; }
    int rank() const { return static_cast<int>(shape_.size()); }
    DType dtype() const { return dtype_; }
    std::int64_t numel() const { return costmodel::numel(shape_); }
    std::int64_t bytes() const { return numel() * elementSize(dtype_); }
    int storage() const { return storage_; }
    bool requiresGrad() const;

    bool contiguous = true;
    int gradFn = -1;  // producing node, or -1
    int outputNr = 0; // which output of gradFn
    int leaf = -1;    // index into Graph::leaves for parameters and inputs

private:
    friend class Graph;
    Graph* graph_ = nullptr;
    int storage_ = -1;
    Shape shape_;
    DType dtype_ = DType::F32;
};

struct Edge {
    int node = -1, output = 0, leaf = -1;
    bool valid() const { return node >= 0 || leaf >= 0; }
};

struct Node;
// Runs one node's backward: emits the ops of the backward formula and returns one gradient per
// `next` edge (undefined where the edge needs none).
using BackwardFn = std::function<std::vector<Tensor>(Graph&, Node&, std::vector<Tensor>& grads)>;

struct Node {
    const char* name = "";
    std::vector<Edge> next;
    std::vector<Tensor> saved;
    BackwardFn fn;
    std::vector<Shape> outShapes;
    std::vector<DType> outDtypes;
    bool needs(std::size_t i) const { return i < next.size() && next[i].valid(); }
};

struct Leaf {
    Tensor value;
    Tensor grad;
    bool requiresGrad = false;
    Category gradCategory = Category::Gradients; // a checkpoint's detached input: Temporaries
    // A trainable nn.Parameter: it requires grad even where autograd is off (no_grad), which is
    // what autocast's cast cache looks at (false under inference_mode, which caches nothing).
    bool parameter = false;
};

class Graph {
public:
    explicit Graph(MemorySim& memory) : mem(memory) {}
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    MemorySim& mem;
    bool gradEnabled = true;
    Category outputCategory = Category::Activations; // what new op outputs count as
    std::deque<Node> nodes;
    std::deque<Leaf> leaves;

    Tensor empty(Shape shape, DType dtype, Category category);
    Tensor empty(Shape shape, DType dtype) { return empty(std::move(shape), dtype, outputCategory); }
    // A view: the same storage and autograd identity, another shape.
    Tensor alias(const Tensor& base, Shape shape, bool contiguous = true);
    Tensor newLeaf(Shape shape, DType dtype, Category category, bool requiresGrad);
    // x.detach() with requires_grad set: a new leaf on the same storage.
    Tensor newLeafAlias(const Tensor& base, bool requiresGrad, Category gradCategory);
    // Moves a leaf's .grad out (undefined if it has none) and forgets the leaf.
    Tensor retireLeaf(int leaf);
    void op(const char* name) { mem.sample(name); }

    bool anyRequiresGrad(std::initializer_list<const Tensor*> inputs) const;
    // Records a node producing `outputs` when grad mode is on and an input requires grad.
    void record(const char* name, std::initializer_list<Tensor*> outputs, std::initializer_list<const Tensor*> inputs,
                std::vector<Tensor> saved, BackwardFn fn);
    Edge edgeOf(const Tensor& t) const;

    // loss.backward() / torch.autograd.backward(outputs, grads).
    void backward(std::vector<std::pair<Tensor, Tensor>> roots);
    // Accumulates `grad` into a leaf's .grad (steals it when nothing else holds it).
    void accumulate(int leaf, Tensor grad);

private:
    using Buffers = std::unordered_map<int, std::vector<Tensor>>;
    void route(const Edge& edge, Tensor grad, Buffers& buffers);
};

} // namespace memviz::costmodel::sim
