// SPDX-License-Identifier: MIT
#include "costmodel/ModelRunner.h"

namespace memviz::costmodel::sim {

namespace {
// Sets a graph flag for a scope (torch.no_grad / enable_grad, the category outputs count as).
template <typename T>
struct ScopedSetting {
    ScopedSetting(T& slot, T value) : slot_(slot), saved_(slot) { slot = value; }
    ~ScopedSetting() { slot_ = saved_; }
    ScopedSetting(const ScopedSetting&) = delete;
    ScopedSetting& operator=(const ScopedSetting&) = delete;
    T& slot_;
    T saved_;
};
} // namespace

const Tensor& ModelRunner::param(const ResolvedLayer& l, int k) const {
    return params_[static_cast<std::size_t>(l.firstParam + k)];
}

Tensor ModelRunner::forward(const Tensor& x, int segments) {
    blockIndex_ = 0;
    forwarding_ = true;
    const int n = model_.topLevelLayerCount();
    if (blocks_ && blocks_->perLayer && g_.gradEnabled) {
        // transformers' gradient checkpointing: every block under its own reentrant checkpoint
        Tensor cur = x;
        for (int i = 0; i < n; ++i) {
            const ResolvedLayer& l = model_.layers[static_cast<std::size_t>(i)];
            Tensor out = isTransformerBlock(l.def.type) ? checkpointSegment(i, i, cur) : hooked(i, layer(l, cur));
            cur = std::move(out);
        }
        return cur;
    }
    if (segments <= 1 || !g_.gradEnabled) return range(0, n - 1, x);
    // Token ids: a reentrant checkpoint of the embedding would give the first segment no
    // gradients at all (1.13), so the embedding runs normally and the rest is split, as
    // Hugging Face's gradient checkpointing does with the transformer blocks.
    const int first = isFloating(x.dtype()) ? 0 : 1;
    Tensor input = first ? range(0, 0, x) : x;
    // checkpoint_sequential: segment_size = n // K; the first K-1 segments are checkpointed,
    // the last one (to the end) runs normally.
    const int size = (n - first) / segments;
    int end = first - 1;
    for (int start = first; size > 0 && start < first + size * (segments - 1); start += size) {
        end = start + size - 1;
        input = checkpointSegment(start, end, input);
    }
    return range(end + 1, n - 1, std::move(input));
}

Tensor ModelRunner::range(int first, int last, Tensor x) {
    for (int i = first; i <= last; ++i) {
        const ResolvedLayer& l = model_.layers[static_cast<std::size_t>(i)];
        Tensor out = hooked(i, layer(l, x));
        if (l.def.keepsOutput && forwarding_) { // DeBERTa's encoder returns every layer's hidden states
            held_.push_back(x);
            held_.push_back(out);
        }
        x = std::move(out); // Sequential: `input = module(input)` releases the old input now
    }
    return x;
}

Tensor ModelRunner::hooked(int i, Tensor out) {
    if (i != 0 || !blocks_ || !blocks_->inputRequiresGrad || !g_.gradEnabled) return out;
    Tensor leaf = g_.newLeafAlias(out, true, Category::Temporaries); // output.requires_grad_(True)
    blocks_->hookLeaves.push_back(leaf.leaf);
    return leaf;
}

Tensor ModelRunner::list(const std::vector<ResolvedLayer>& layers, Tensor x) {
    for (const ResolvedLayer& l : layers) {
        Tensor out = layer(l, x);
        x = std::move(out);
    }
    return x;
}

Tensor ModelRunner::checkpointSegment(int first, int last, const Tensor& x) {
    Tensor out;
    {
        ScopedSetting<bool> noGrad(g_.gradEnabled, false); // CheckpointFunction.forward runs the segment under no_grad
        out = range(first, last, x);
    }
    // ...and saves only its input. Backward: detach the input, re-run the segment with grad,
    // backward through it (nested), and return the input's gradient.
    g_.record("CheckpointFunctionBackward", {&out}, {&x}, {x},
              [this, first, last](Graph& g, Node& node, std::vector<Tensor>& grads) {
                  const Tensor& saved = node.saved[0];
                  Tensor detached = g.newLeafAlias(saved, node.needs(0), Category::Temporaries);
                  g.op("aten.detach");
                  Tensor outputs;
                  {
                      ScopedSetting<bool> withGrad(g.gradEnabled, true);
                      ScopedSetting<Category> activations(g.outputCategory, Category::Activations);
                      outputs = range(first, last, detached);
                  }
                  g.backward({{std::move(outputs), std::move(grads[0])}});
                  Tensor inputGrad = g.retireLeaf(detached.leaf);
                  return std::vector<Tensor>{std::move(inputGrad)};
              });
    return out;
}

Tensor ModelRunner::layer(const ResolvedLayer& l, const Tensor& x) {
    const Layer& d = l.def;
    Shape out = x.shape();
    switch (d.type) {
    case LayerType::Linear: {
        const Tensor& w = l.tiedParam >= 0 ? params_[static_cast<std::size_t>(l.tiedParam)] : param(l, 0);
        return ops_.linear(x, w, d.bias && l.tiedParam < 0 ? &param(l, 1) : nullptr);
    }
    case LayerType::Conv2d: {
        Conv2dGeometry geo{d.kernel.h, d.kernel.w, d.stride.h, d.stride.w, d.padding.h, d.padding.w, d.groups};
        return ops_.conv2d(x, param(l, 0), d.bias ? &param(l, 1) : nullptr, geo, d.outChannels);
    }
    case LayerType::BatchNorm2d: return ops_.batchNorm(x, param(l, 0), param(l, 1));
    case LayerType::LayerNorm: return ops_.layerNorm(x, param(l, 0), &param(l, 1));
    case LayerType::RMSNorm: return ops_.rmsNorm(x, param(l, 0));
    case LayerType::ReLU: return ops_.relu(x);
    case LayerType::GELU: return ops_.gelu(x);
    case LayerType::Sigmoid: return ops_.sigmoid(x);
    case LayerType::Tanh: return ops_.tanh(x);
    case LayerType::Dropout: return ops_.dropout(x, d.p);
    case LayerType::MaxPool2d:
    case LayerType::AvgPool2d:
    case LayerType::AdaptiveAvgPool2d: {
        Shape s{x.dim(0)};
        s.insert(s.end(), l.out.begin(), l.out.end());
        if (d.type == LayerType::MaxPool2d) return ops_.maxPool2d(x, s);
        if (d.type == LayerType::AvgPool2d) return ops_.avgPool2d(x, s);
        return ops_.adaptiveAvgPool2d(x, s);
    }
    case LayerType::Flatten: return ops_.reshape(x, {x.dim(0), x.numel() / x.dim(0)});
    case LayerType::Embedding: return ops_.embedding(x, param(l, 0));
    case LayerType::TransformerEncoderLayer: return encoderLayer(l, x);
    case LayerType::LlamaDecoderLayer: return llamaLayer(l, x);
    case LayerType::Gpt2Block: return gpt2Block(l, x);
    case LayerType::Residual: {
        Tensor skip = l.skip.empty() ? x : list(l.skip, x);
        Tensor body = list(l.body, x);
        return ops_.add(body, skip);
    }
    case LayerType::Scale: return ops_.scalarOp(x, "aten.mul");
    case LayerType::TextTower: {
        // CLIPModel / SiglipModel: the text tower runs on input_ids [B, T]; the two embeddings
        // meet in the contrastive logits (image_embeds @ text_embeds.T, [B, B]), simulated as
        // a sum of the two [B, E] embeddings (the same bytes at this size).
        Tensor ids = g_.empty({x.dim(0), d.tokens}, DType::I64);
        Tensor text = list(l.body, ids);
        ids.reset();
        return ops_.add(x, text);
    }
    case LayerType::PositionEmbedding: {
        // x + weight[:S]: the slice's backward writes into a zero tensor of the table's size
        const std::int64_t s = x.dim(1);
        Tensor table = s == d.numEmbeddings ? param(l, 0) : ops_.select(param(l, 0), {s, d.embeddingDim});
        return ops_.add(x, table);
    }
    case LayerType::TokenTypeEmbedding: {
        // BERT: token_type_embeddings(zeros) is a [B, S, E] lookup, then added
        Tensor ids = g_.empty({x.dim(0), x.dim(1)}, DType::I64);
        g_.op("aten.zeros");
        Tensor lookup = ops_.embedding(ids, param(l, 0));
        ids.reset();
        return ops_.add(x, lookup);
    }
    case LayerType::ClassToken: {
        Tensor token = ops_.expand(param(l, 0), {x.dim(0), 1, x.dim(2)}); // class_token.expand(B, -1, -1)
        return ops_.cat({token, x}, 1);
    }
    case LayerType::ToSequence: // x.flatten(2).transpose(1, 2): a view
        return ops_.view(x, {x.dim(0), x.dim(2) * x.dim(3), x.dim(1)}, false);
    case LayerType::SelectToken: return ops_.select(x, {x.dim(0), x.dim(2)});
    }
    return x;
}

} // namespace memviz::costmodel::sim
