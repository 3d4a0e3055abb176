// SPDX-License-Identifier: MIT
#include "workshop/StrideSim.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace memviz::workshop {

Dims contiguousStrides(const Dims& shape) {
    Dims strides(shape.size(), 1);
    std::int64_t next = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        strides[i] = next;
        next *= std::max<std::int64_t>(shape[i], 1);
    }
    return strides;
}

bool isContiguous(const Dims& shape, const Dims& strides) {
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return true; // no elements
    std::int64_t expected = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (shape[i] == 1) continue; // the stride of a size-1 dimension does not matter
        if (strides[i] != expected) return false;
        expected *= shape[i];
    }
    return true;
}

std::optional<Dims> viewStrides(const Dims& oldShape, const Dims& oldStrides, const Dims& newShape) {
    // ATen's computeStride: walk the old dimensions from the last, in chunks that are
    // contiguous with each other; every chunk must be covered exactly by new dimensions.
    Dims newStrides(newShape.size(), 1);
    if (oldShape.empty()) return newStrides;
    std::int64_t numel = 1;
    for (std::int64_t d : oldShape) numel *= d;
    if (numel == 0) {
        if (oldShape == newShape) return oldStrides;
        return contiguousStrides(newShape);
    }
    auto viewD = static_cast<std::int64_t>(newShape.size()) - 1;
    std::int64_t chunkBaseStride = oldStrides.back();
    std::int64_t tensorNumel = 1, viewNumel = 1;
    for (auto tensorD = static_cast<std::int64_t>(oldShape.size()) - 1; tensorD >= 0; --tensorD) {
        const auto t = static_cast<std::size_t>(tensorD);
        tensorNumel *= oldShape[t];
        if (tensorD == 0 || (oldShape[t - 1] != 1 && oldStrides[t - 1] != tensorNumel * chunkBaseStride)) {
            while (viewD >= 0 && (viewNumel < tensorNumel || newShape[static_cast<std::size_t>(viewD)] == 1)) {
                newStrides[static_cast<std::size_t>(viewD)] = viewNumel * chunkBaseStride;
                viewNumel *= newShape[static_cast<std::size_t>(viewD)];
                --viewD;
            }
            if (viewNumel != tensorNumel) return std::nullopt;
            if (tensorD > 0) {
                chunkBaseStride = oldStrides[t - 1];
                tensorNumel = 1;
                viewNumel = 1;
            }
        }
    }
    if (viewD != -1) return std::nullopt;
    return newStrides;
}

namespace {

std::string dimsText(const Dims& d) {
    std::ostringstream os;
    for (std::size_t i = 0; i < d.size(); ++i) os << (i ? ", " : "") << d[i];
    return os.str();
}

std::int64_t product(const Dims& d) {
    std::int64_t n = 1;
    for (std::int64_t x : d) n *= x;
    return n;
}

// Resolves one -1 in a requested shape; empty on a mismatch.
std::optional<Dims> inferShape(Dims shape, std::int64_t numel) {
    std::int64_t known = 1;
    int unknown = -1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (unknown >= 0) return std::nullopt;
            unknown = static_cast<int>(i);
        } else if (shape[i] < 0) {
            return std::nullopt;
        } else {
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || numel % known != 0) return std::nullopt;
        shape[static_cast<std::size_t>(unknown)] = numel / known;
    }
    if (product(shape) != numel) return std::nullopt;
    return shape;
}

class Interpreter {
public:
    explicit Interpreter(int elementBytes) : elementBytes_(elementBytes) {}

    StrideStep run(const StrideStatement& s) {
        StrideStep step;
        step.code = statementCode(s);
        if (s.op == StrideOp::Create) {
            TensorMeta t{s.shape, contiguousStrides(s.shape), 0, -1};
            if (std::any_of(s.shape.begin(), s.shape.end(), [](std::int64_t d) { return d < 0; }))
                return fail(step, "negative dimension");
            t.storage = allocate(product(s.shape), step);
            bind(s.name, t, step);
            return finish(step, t, false);
        }
        if (s.op == StrideOp::Delete) {
            auto it = tensors_.find(s.name);
            if (it == tensors_.end()) return fail(step, "name '" + s.name + "' is not defined");
            step.freedBytes = release(it->second.storage);
            tensors_.erase(it);
            step.liveBytes = liveBytes();
            return step;
        }
        auto src = tensors_.find(s.source);
        if (src == tensors_.end()) return fail(step, "name '" + s.source + "' is not defined");
        const TensorMeta in = src->second;
        const auto rank = static_cast<int>(in.shape.size());
        const auto normalize = [rank](int d) { return d < 0 ? d + rank : d; };
        TensorMeta out = in;
        bool shares = true;
        switch (s.op) {
        case StrideOp::View:
        case StrideOp::Reshape: {
            auto shape = inferShape(s.shape, product(in.shape));
            if (!shape)
                return fail(step, "shape '[" + dimsText(s.shape) + "]' is invalid for input of size " +
                                      std::to_string(product(in.shape)));
            auto strides = viewStrides(in.shape, in.strides, *shape);
            if (strides) {
                out.shape = *shape;
                out.strides = *strides;
            } else if (s.op == StrideOp::View) {
                return fail(step, "view size is not compatible with input tensor's size and stride (at least one "
                                  "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
            } else {
                out = copyOf(in, step);
                out.shape = *shape;
                out.strides = contiguousStrides(*shape);
                shares = false;
            }
            break;
        }
        case StrideOp::Transpose: {
            const int a = normalize(s.dim0), b = normalize(s.dim1);
            if (a < 0 || a >= rank || b < 0 || b >= rank) return fail(step, "dimension out of range");
            std::swap(out.shape[static_cast<std::size_t>(a)], out.shape[static_cast<std::size_t>(b)]);
            std::swap(out.strides[static_cast<std::size_t>(a)], out.strides[static_cast<std::size_t>(b)]);
            break;
        }
        case StrideOp::Slice: {
            const int d = normalize(s.dim0);
            if (d < 0 || d >= rank) return fail(step, "dimension out of range");
            if (s.step <= 0) return fail(step, "slice step must be positive");
            const auto u = static_cast<std::size_t>(d);
            const std::int64_t size = in.shape[u];
            const auto clampIndex = [size](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + size : i, 0, size); };
            const std::int64_t start = clampIndex(s.start), stop = std::max(start, clampIndex(s.stop));
            out.shape[u] = (stop - start + s.step - 1) / s.step;
            out.offset += start * in.strides[u];
            out.strides[u] *= s.step;
            break;
        }
        case StrideOp::Contiguous:
            if (!isContiguous(in.shape, in.strides)) {
                out = copyOf(in, step);
                shares = false;
            }
            break;
        case StrideOp::Clone:
            out = copyOf(in, step);
            shares = false;
            break;
        case StrideOp::Create:
        case StrideOp::Delete: break;
        }
        bind(s.name, out, step);
        return finish(step, out, shares);
    }

private:
    struct Storage {
        std::int64_t bytes = 0;
        int refs = 0;
    };

    StrideStep& fail(StrideStep& step, const std::string& message) {
        step.error = message;
        step.liveBytes = liveBytes();
        return step;
    }

    StrideStep& finish(StrideStep& step, const TensorMeta& t, bool shares) {
        step.result = t;
        step.sharesStorage = shares;
        step.contiguous = isContiguous(t.shape, t.strides);
        step.liveBytes = liveBytes();
        return step;
    }

    int allocate(std::int64_t elements, StrideStep& step) {
        storages_.push_back({elements * elementBytes_, 0});
        step.allocatedBytes += storages_.back().bytes;
        return static_cast<int>(storages_.size()) - 1;
    }

    TensorMeta copyOf(const TensorMeta& in, StrideStep& step) {
        TensorMeta t{in.shape, contiguousStrides(in.shape), 0, -1};
        t.storage = allocate(product(in.shape), step);
        return t;
    }

    // Python assignment: the new value takes a reference, then the old value of the name lets go.
    void bind(const std::string& name, const TensorMeta& t, StrideStep& step) {
        ++storages_[static_cast<std::size_t>(t.storage)].refs;
        auto it = tensors_.find(name);
        if (it != tensors_.end()) step.freedBytes += release(it->second.storage);
        tensors_[name] = t;
    }

    std::int64_t release(int storage) {
        Storage& s = storages_[static_cast<std::size_t>(storage)];
        return --s.refs == 0 ? s.bytes : 0;
    }

    std::int64_t liveBytes() const {
        std::int64_t total = 0;
        for (const Storage& s : storages_)
            if (s.refs > 0) total += s.bytes;
        return total;
    }

    int elementBytes_;
    std::vector<Storage> storages_;
    std::map<std::string, TensorMeta> tensors_;
};

} // namespace

std::vector<StrideStep> runStrideProgram(const std::vector<StrideStatement>& program, int elementBytes) {
    Interpreter interpreter(elementBytes);
    std::vector<StrideStep> steps;
    steps.reserve(program.size());
    for (const StrideStatement& s : program) steps.push_back(interpreter.run(s));
    return steps;
}

std::string statementCode(const StrideStatement& s) {
    const std::string lhs = s.name + " = ";
    switch (s.op) {
    case StrideOp::Create: return lhs + "torch.empty(" + dimsText(s.shape) + ")";
    case StrideOp::View: return lhs + s.source + ".view(" + dimsText(s.shape) + ")";
    case StrideOp::Reshape: return lhs + s.source + ".reshape(" + dimsText(s.shape) + ")";
    case StrideOp::Transpose:
        return lhs + s.source + ".transpose(" + std::to_string(s.dim0) + ", " + std::to_string(s.dim1) + ")";
    case StrideOp::Slice: {
        std::string index;
        for (int i = 0; i < s.dim0; ++i) index += ":, ";
        index += std::to_string(s.start) + ":" + std::to_string(s.stop);
        if (s.step != 1) index += ":" + std::to_string(s.step);
        return lhs + s.source + "[" + index + "]";
    }
    case StrideOp::Contiguous: return lhs + s.source + ".contiguous()";
    case StrideOp::Clone: return lhs + s.source + ".clone()";
    case StrideOp::Delete: return "del " + s.name;
    }
    return {};
}

} // namespace memviz::workshop
