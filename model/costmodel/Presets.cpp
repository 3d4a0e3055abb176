// SPDX-License-Identifier: MIT
#include "costmodel/Presets.h"

#include "costmodel/LayerBuilders.h"

#include <algorithm>
#include <cctype>

namespace memviz::costmodel {

namespace {

using namespace build;

Layer conv(std::int64_t out, std::int64_t k, std::int64_t stride = 1, std::int64_t pad = 0, bool bias = true) {
    Layer l = make(LayerType::Conv2d);
    l.outChannels = out;
    l.kernel = {k, k};
    l.stride = {stride, stride};
    l.strideSet = true;
    l.padding = {pad, pad};
    l.bias = bias;
    return l;
}
Layer pool(LayerType t, std::int64_t k, std::int64_t stride, std::int64_t pad = 0) {
    Layer l = make(t);
    l.kernel = {k, k};
    l.stride = {stride, stride};
    l.strideSet = true;
    l.padding = {pad, pad};
    return l;
}
Layer adaptive(std::int64_t size) {
    Layer l = make(LayerType::AdaptiveAvgPool2d);
    l.outputSize = {size, size};
    return l;
}

ModelSpec classifier(std::string name, Shape input) {
    ModelSpec s;
    s.name = std::move(name);
    s.input = {std::move(input), DType::F32};
    s.target = {{}, DType::I64};
    s.loss = Loss::CrossEntropy;
    return s;
}

// torchvision's resnet18/50 (v1.5: the stride on the 3x3 conv of a bottleneck).
ModelSpec resnet(const char* name, bool bottleneck, const std::vector<int>& blocks) {
    ModelSpec s = classifier(name, {3, 224, 224});
    auto& L = s.layers;
    L = {conv(64, 7, 2, 3, false), make(LayerType::BatchNorm2d), make(LayerType::ReLU), pool(LayerType::MaxPool2d, 3, 2, 1)};
    std::int64_t in = 64;
    for (std::size_t stage = 0; stage < blocks.size(); ++stage) {
        const std::int64_t width = 64 << stage;
        const std::int64_t out = bottleneck ? width * 4 : width;
        for (int b = 0; b < blocks[stage]; ++b) {
            const std::int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
            Layer r = make(LayerType::Residual);
            if (bottleneck)
                r.layers = {conv(width, 1, 1, 0, false),      make(LayerType::BatchNorm2d), make(LayerType::ReLU),
                            conv(width, 3, stride, 1, false), make(LayerType::BatchNorm2d), make(LayerType::ReLU),
                            conv(out, 1, 1, 0, false),        make(LayerType::BatchNorm2d)};
            else
                r.layers = {conv(width, 3, stride, 1, false), make(LayerType::BatchNorm2d), make(LayerType::ReLU),
                            conv(width, 3, 1, 1, false), make(LayerType::BatchNorm2d)};
            if (stride != 1 || in != out) r.downsample = {conv(out, 1, stride, 0, false), make(LayerType::BatchNorm2d)};
            L.push_back(r);
            L.push_back(make(LayerType::ReLU));
            in = out;
        }
    }
    L.push_back(adaptive(1));
    L.push_back(make(LayerType::Flatten));
    L.push_back(linear(1000));
    return s;
}

ModelSpec vgg16() {
    ModelSpec s = classifier("vgg16", {3, 224, 224});
    const int cfg[] = {64, 64, -1, 128, 128, -1, 256, 256, 256, -1, 512, 512, 512, -1, 512, 512, 512, -1};
    for (int c : cfg) {
        if (c < 0) s.layers.push_back(pool(LayerType::MaxPool2d, 2, 2));
        else {
            s.layers.push_back(conv(c, 3, 1, 1));
            s.layers.push_back(make(LayerType::ReLU));
        }
    }
    s.layers.push_back(adaptive(7));
    s.layers.push_back(make(LayerType::Flatten));
    for (int i = 0; i < 2; ++i) {
        s.layers.push_back(linear(4096));
        s.layers.push_back(make(LayerType::ReLU));
        s.layers.push_back(dropout(0.5));
    }
    s.layers.push_back(linear(1000));
    return s;
}

ModelSpec vitB16() {
    ModelSpec s = classifier("vit_b_16", {3, 224, 224});
    Layer cls = make(LayerType::ClassToken);
    cls.embeddingDim = 768;
    s.layers = {conv(768, 16, 16), make(LayerType::ToSequence), cls, embedding(LayerType::PositionEmbedding, 197, 768),
                dropout(0.0)};
    for (int i = 0; i < 12; ++i) s.layers.push_back(encoder(768, 12, 3072, 0.0, true, true, false));
    Layer select = make(LayerType::SelectToken);
    s.layers.push_back(make(LayerType::LayerNorm));
    s.layers.push_back(select);
    s.layers.push_back(linear(1000));
    return s;
}

ModelSpec bertBase() {
    ModelSpec s;
    s.name = "bert-base";
    s.input = {{512}, DType::I64};
    s.target = {{}, DType::I64};
    s.layers = {embedding(LayerType::Embedding, 30522, 768), embedding(LayerType::TokenTypeEmbedding, 2, 768),
                embedding(LayerType::PositionEmbedding, 512, 768), make(LayerType::LayerNorm), dropout(0.1)};
    for (int i = 0; i < 12; ++i) s.layers.push_back(encoder(768, 12, 3072, 0.1, true, false, false));
    // pooler (first token, dense, tanh) and a 2-class head, as BertForSequenceClassification
    s.layers.push_back(make(LayerType::SelectToken));
    s.layers.push_back(linear(768));
    s.layers.push_back(make(LayerType::Tanh));
    s.layers.push_back(dropout(0.1));
    s.layers.push_back(linear(2));
    return s;
}

ModelSpec gpt2(const char* name, std::int64_t d, std::int64_t heads, int layers) {
    ModelSpec s;
    s.name = name;
    s.input = {{1024}, DType::I64};
    s.target = {{1024}, DType::I64};
    s.layers = {embedding(LayerType::Embedding, 50257, d), embedding(LayerType::PositionEmbedding, 1024, d), dropout(0.1)};
    // transformers' GPT2Block (eager): the same parameters as a pre-norm encoder layer
    for (int i = 0; i < layers; ++i) s.layers.push_back(gpt2Block(d, heads, 4 * d, 0.1));
    s.layers.push_back(make(LayerType::LayerNorm));
    Layer head = linear(50257, false);
    head.tied = true; // lm_head shares wte
    s.layers.push_back(head);
    return s;
}

ModelSpec llama2_7b() {
    ModelSpec s;
    s.name = "llama-2-7b";
    s.input = {{4096}, DType::I64};
    s.target = {{4096}, DType::I64};
    s.layers = {embedding(LayerType::Embedding, 32000, 4096)};
    for (int i = 0; i < 32; ++i) {
        Layer l = make(LayerType::LlamaDecoderLayer);
        l.dModel = 4096;
        l.nhead = 32;
        l.dimFeedforward = 11008;
        s.layers.push_back(l);
    }
    s.layers.push_back(make(LayerType::RMSNorm));
    s.layers.push_back(linear(32000, false));
    return s;
}

ModelSpec mlp() { // bench/costmodel/specs/mlp.json
    ModelSpec s = classifier("mlp", {3, 32, 32});
    s.layers = {make(LayerType::Flatten), linear(2048), make(LayerType::ReLU), dropout(0.1), linear(2048),
                make(LayerType::GELU),    linear(512),  make(LayerType::Tanh), linear(10)};
    return s;
}

// The CNN of the classic "CNN memory consumption" question (datascience.stackexchange.com
// 17286): 50x50x3 input, 32 and 64 3x3 convs with padding, 2x2 pools, FC 500, 10 classes.
ModelSpec smallCnn() {
    ModelSpec s = classifier("small-cnn", {3, 50, 50});
    s.layers = {conv(32, 3, 1, 1),
                make(LayerType::ReLU),
                pool(LayerType::MaxPool2d, 2, 2),
                conv(64, 3, 1, 1),
                make(LayerType::ReLU),
                pool(LayerType::MaxPool2d, 2, 2),
                make(LayerType::Flatten),
                linear(500),
                make(LayerType::ReLU),
                linear(10)};
    return s;
}

// 3-channel 4096x4096 medical images (the workshop's 1000x3x4096x4096 dataset is batch 1000):
// a strided stem and five conv-BN-ReLU stages down to 64x64, global pooling, 2 classes.
ModelSpec large3dcnn() {
    ModelSpec s = classifier("large3dcnn", {3, 4096, 4096});
    s.layers = {conv(32, 7, 2, 3, false), make(LayerType::BatchNorm2d), make(LayerType::ReLU),
                pool(LayerType::MaxPool2d, 3, 2, 1)};
    for (std::int64_t c : {64, 128, 256, 512, 512}) {
        s.layers.push_back(conv(c, 3, 2, 1, false));
        s.layers.push_back(make(LayerType::BatchNorm2d));
        s.layers.push_back(make(LayerType::ReLU));
        s.layers.push_back(conv(c, 3, 1, 1, false));
        s.layers.push_back(make(LayerType::BatchNorm2d));
        s.layers.push_back(make(LayerType::ReLU));
    }
    s.layers.push_back(adaptive(1));
    s.layers.push_back(make(LayerType::Flatten));
    s.layers.push_back(linear(2));
    return s;
}

struct Entry {
    PresetInfo info;
    ModelSpec (*build)();
};

const std::vector<Entry>& entries() {
    static const std::vector<Entry> list = {
        {{"mlp", "MLP", "3x32x32 -> 2048 -> 2048 -> 512 -> 10 (bench/costmodel/specs/mlp.json), 11.5 M parameters"}, mlp},
        {{"small-cnn", "Small CNN (seed article)", "50x50x3, conv 32/64 3x3, 2x2 pools, FC 500, 10 classes"}, smallCnn},
        {{"resnet18", "ResNet-18", "torchvision resnet18, 3x224x224, 1000 classes"},
         [] {
             return resnet("resnet18", false, {2, 2, 2, 2});
         }},
        {{"resnet50", "ResNet-50", "torchvision resnet50 (v1.5), 3x224x224, 1000 classes"},
         [] {
             return resnet("resnet50", true, {3, 4, 6, 3});
         }},
        {{"vgg16", "VGG-16", "torchvision vgg16, 3x224x224, 1000 classes"}, vgg16},
        {{"vit-b16", "ViT-B/16", "torchvision vit_b_16, 3x224x224 (196 patches + class token), 1000 classes"}, vitB16},
        {{"bert-base", "BERT-base", "BERT-base (uncased) for 2-class sequence classification, 512 tokens"}, bertBase},
        {{"gpt2", "GPT-2 small", "GPT-2 (124 M, tied lm_head), 1024 tokens, next-token loss"},
         [] { return gpt2("gpt2", 768, 12, 12); }},
        {{"gpt2-medium", "GPT-2 medium", "GPT-2 medium (355 M, tied lm_head), 1024 tokens"},
         [] { return gpt2("gpt2-medium", 1024, 16, 24); }},
        {{"llama2-7b", "Llama-2-7B", "Llama-2-7B (eager attention), 4096 tokens, next-token loss"}, llama2_7b},
        {{"large3dcnn", "Large3DCNN", "CNN for 3x4096x4096 medical images (1000 of them = batch 1000)"}, large3dcnn},
    };
    return list;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

const std::vector<PresetInfo>& presets() {
    static const std::vector<PresetInfo> list = [] {
        std::vector<PresetInfo> v;
        for (const Entry& e : entries()) v.push_back(e.info);
        return v;
    }();
    return list;
}

ModelSpec presetSpec(const std::string& id) {
    const std::string key = lower(id);
    std::string known;
    for (const Entry& e : entries()) {
        if (e.info.id == key) return e.build();
        known += (known.empty() ? "" : ", ") + e.info.id;
    }
    throw SpecError("unknown model preset \"" + id + "\" (known: " + known + ")");
}

} // namespace memviz::costmodel
