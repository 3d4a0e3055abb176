// SPDX-License-Identifier: MIT
#include "costmodel/SpecParser.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "costmodel/ResolvedModel.h"

namespace memviz::costmodel {

namespace {

namespace dom = simdjson::dom;

enum class Kind { Int, Size, Bool, Prob, Activation, Layers };

struct FieldRule {
    const char* name;
    Kind kind;
    bool required;
};

struct TypeRule {
    LayerType type;
    std::vector<FieldRule> fields;
};

const std::vector<TypeRule>& typeRules() {
    static const std::vector<TypeRule> rules = {
        {LayerType::Linear, {{"out_features", Kind::Int, true}, {"bias", Kind::Bool, false}, {"tied", Kind::Bool, false}}},
        {LayerType::Conv2d,
         {{"out_channels", Kind::Int, true},
          {"kernel_size", Kind::Size, true},
          {"stride", Kind::Size, false},
          {"padding", Kind::Size, false},
          {"bias", Kind::Bool, false},
          {"groups", Kind::Int, false}}},
        {LayerType::BatchNorm2d, {}},
        {LayerType::LayerNorm, {}},
        {LayerType::ReLU, {}},
        {LayerType::GELU, {}},
        {LayerType::Sigmoid, {}},
        {LayerType::Tanh, {}},
        {LayerType::Dropout, {{"p", Kind::Prob, false}}},
        {LayerType::MaxPool2d,
         {{"kernel_size", Kind::Size, true}, {"stride", Kind::Size, false}, {"padding", Kind::Size, false}}},
        {LayerType::AvgPool2d,
         {{"kernel_size", Kind::Size, true}, {"stride", Kind::Size, false}, {"padding", Kind::Size, false}}},
        {LayerType::AdaptiveAvgPool2d, {{"output_size", Kind::Size, true}}},
        {LayerType::Flatten, {}},
        {LayerType::Embedding, {{"num_embeddings", Kind::Int, true}, {"embedding_dim", Kind::Int, true}}},
        {LayerType::TransformerEncoderLayer,
         {{"d_model", Kind::Int, true},
          {"nhead", Kind::Int, true},
          {"dim_feedforward", Kind::Int, false},
          {"dropout", Kind::Prob, false},
          {"batch_first", Kind::Bool, false},
          {"activation", Kind::Activation, false},
          {"norm_first", Kind::Bool, false},
          {"causal", Kind::Bool, false}}},
        {LayerType::Residual, {{"layers", Kind::Layers, true}, {"downsample", Kind::Layers, false}}},
        {LayerType::PositionEmbedding, {{"num_embeddings", Kind::Int, true}, {"embedding_dim", Kind::Int, true}}},
        {LayerType::TokenTypeEmbedding, {{"num_embeddings", Kind::Int, true}, {"embedding_dim", Kind::Int, true}}},
        {LayerType::ClassToken, {{"embedding_dim", Kind::Int, true}}},
        {LayerType::ToSequence, {}},
        {LayerType::SelectToken, {{"index", Kind::Int, false}}},
        {LayerType::RMSNorm, {}},
        {LayerType::LlamaDecoderLayer,
         {{"d_model", Kind::Int, true},
          {"nhead", Kind::Int, true},
          {"dim_feedforward", Kind::Int, true},
          {"num_key_value_heads", Kind::Int, false},
          {"num_experts", Kind::Int, false},
          {"experts_per_token", Kind::Int, false},
          {"head_dim", Kind::Int, false},
          {"qkv_bias", Kind::Bool, false},
          {"o_bias", Kind::Bool, false},
          {"mlp_bias", Kind::Bool, false},
          {"manual_attention", Kind::Bool, false},
          {"manual_silu", Kind::Bool, false},
          {"expanded_mask", Kind::Bool, false},
          {"rope_halves", Kind::Bool, false}}},
        {LayerType::Gpt2Block,
         {{"d_model", Kind::Int, true},
          {"nhead", Kind::Int, true},
          {"dim_feedforward", Kind::Int, false},
          {"dropout", Kind::Prob, false}}},
    };
    return rules;
}

const char* kindName(Kind k) {
    switch (k) {
    case Kind::Int: return "int";
    case Kind::Size: return "size";
    case Kind::Bool: return "bool";
    case Kind::Prob: return "prob";
    case Kind::Activation: return "str";
    case Kind::Layers: return "layers";
    }
    return "?";
}

std::string quotedList(const std::vector<std::string>& names) {
    std::string s = "[";
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", '" : "'") + names[i] + "'";
    return s + "]";
}

std::string jsonText(dom::element e) {
    std::string s = simdjson::minify(e);
    return s.size() > 40 ? s.substr(0, 40) + "..." : s;
}

[[noreturn]] void badValue(const std::string& where, const std::string& name, dom::element v, Kind kind) {
    throw SpecError(where + ": bad value " + jsonText(v) + " for field '" + name + "' (expected " + kindName(kind) + ")");
}

bool isInt(dom::element v, std::int64_t& out) {
    if (v.type() == dom::element_type::INT64) return !v.get_int64().get(out);
    if (v.type() == dom::element_type::UINT64) {
        std::uint64_t u = 0;
        if (v.get_uint64().get(u) || u > static_cast<std::uint64_t>(INT64_MAX)) return false;
        out = static_cast<std::int64_t>(u);
        return true;
    }
    return false;
}

std::int64_t intField(dom::element v, const std::string& name, const std::string& where, std::int64_t lo) {
    std::int64_t n = 0;
    if (!isInt(v, n) || n < lo) badValue(where, name, v, Kind::Int);
    return n;
}

Pair sizeField(dom::element v, const std::string& name, const std::string& where, std::int64_t lo) {
    std::int64_t n = 0;
    if (isInt(v, n)) {
        if (n < lo) badValue(where, name, v, Kind::Size);
        return {n, n};
    }
    dom::array a;
    if (v.get_array().get(a) || a.size() != 2) badValue(where, name, v, Kind::Size);
    std::int64_t h = 0, w = 0;
    if (!isInt(a.at(0), h) || !isInt(a.at(1), w) || h < lo || w < lo) badValue(where, name, v, Kind::Size);
    return {h, w};
}

std::vector<Layer> layerList(dom::element v, const std::string& where);

Layer parseLayer(dom::element e, const std::string& where) {
    dom::object obj;
    std::string_view typeName;
    if (e.get_object().get(obj) || obj["type"].get_string().get(typeName))
        throw SpecError(where + ": layer must be an object with a 'type'");
    const TypeRule* rule = nullptr;
    for (const TypeRule& r : typeRules())
        if (typeName == layerTypeName(r.type)) rule = &r;
    if (!rule) throw SpecError(where + ": unknown layer type '" + std::string(typeName) + "'");
    const std::string type(typeName);
    std::vector<std::string> unknown;
    std::map<std::string, dom::element> given;
    for (auto [key, value] : obj) {
        if (key == "type") continue;
        const std::string_view k = key; // clang before 16 cannot capture a structured binding
        const bool known = std::any_of(rule->fields.begin(), rule->fields.end(), [&](const FieldRule& f) { return k == f.name; });
        if (!known) unknown.emplace_back(key);
        else given.emplace(std::string(key), value);
    }
    std::sort(unknown.begin(), unknown.end());
    if (!unknown.empty()) throw SpecError(where + ": unknown field(s) " + quotedList(unknown) + " for layer type '" + type + "'");
    std::vector<std::string> missing;
    for (const FieldRule& f : rule->fields)
        if (f.required && !given.count(f.name)) missing.emplace_back(f.name);
    if (!missing.empty()) throw SpecError(where + ": missing field(s) " + quotedList(missing) + " for layer type '" + type + "'");

    Layer l;
    l.type = rule->type;
    if (l.type == LayerType::TransformerEncoderLayer || l.type == LayerType::Gpt2Block) l.p = 0.1;
    for (const auto& [name, v] : given) {
        const std::string& fieldName = name; // clang before 16 cannot capture a structured binding
        const Kind kind = std::find_if(rule->fields.begin(), rule->fields.end(), [&](const FieldRule& f) {
                              return fieldName == f.name;
                          })->kind;
        if (name == "stride" && v.is_null() && l.type != LayerType::Conv2d) continue; // pools: null = kernel size
        switch (kind) {
        case Kind::Int: {
            const std::int64_t n = intField(v, name, where, name == "index" ? 0 : 1);
            if (name == "out_features") l.outFeatures = n;
            else if (name == "out_channels") l.outChannels = n;
            else if (name == "groups") l.groups = n;
            else if (name == "num_embeddings") l.numEmbeddings = n;
            else if (name == "embedding_dim") l.embeddingDim = n;
            else if (name == "d_model") l.dModel = n;
            else if (name == "nhead") l.nhead = n;
            else if (name == "dim_feedforward") l.dimFeedforward = n;
            else if (name == "index") l.index = n;
            else if (name == "num_key_value_heads") l.numKvHeads = n;
            else if (name == "num_experts") l.numExperts = n;
            else if (name == "experts_per_token") l.expertsPerToken = n;
            else if (name == "head_dim") l.headDim = n;
            break;
        }
        case Kind::Size: {
            const Pair s = sizeField(v, name, where, name == "padding" ? 0 : 1);
            if (name == "kernel_size") l.kernel = s;
            else if (name == "stride") l.stride = s, l.strideSet = true;
            else if (name == "padding") l.padding = s;
            else if (name == "output_size") l.outputSize = s;
            break;
        }
        case Kind::Bool: {
            bool b = false;
            if (v.get_bool().get(b)) badValue(where, name, v, kind);
            if (name == "bias") l.bias = b;
            else if (name == "tied") l.tied = b;
            else if (name == "norm_first") l.normFirst = b;
            else if (name == "causal") l.causal = b;
            else if (name == "qkv_bias") l.qkvBias = b;
            else if (name == "o_bias") l.oBias = b;
            else if (name == "mlp_bias") l.mlpBias = b;
            else if (name == "manual_attention") l.manualAttention = b;
            else if (name == "manual_silu") l.manualSilu = b;
            else if (name == "expanded_mask") l.expandedMask = b;
            else if (name == "rope_halves") l.ropeHalves = b;
            else if (name == "batch_first" && !b) throw SpecError(where + ": only batch_first=true is supported");
            break;
        }
        case Kind::Prob: {
            double p = 0;
            std::int64_t n = 0;
            if (isInt(v, n)) p = static_cast<double>(n);
            else if (v.get_double().get(p)) badValue(where, name, v, kind);
            if (!(p >= 0 && p < 1)) badValue(where, name, v, kind);
            l.p = p;
            break;
        }
        case Kind::Activation: {
            std::string_view s;
            if (v.get_string().get(s)) badValue(where, name, v, kind);
            if (s != "relu" && s != "gelu")
                throw SpecError(where + ": activation must be 'relu' or 'gelu', got '" + std::string(s) + "'");
            l.gelu = s == "gelu";
            break;
        }
        case Kind::Layers: (name == "layers" ? l.layers : l.downsample) = layerList(v, where + "." + name); break;
        }
    }
    if (l.type == LayerType::Gpt2Block && !given.count("dim_feedforward")) l.dimFeedforward = 4 * l.dModel;
    if (l.type == LayerType::Conv2d && !l.strideSet) l.stride = {1, 1};
    if (l.type == LayerType::Conv2d) l.strideSet = true;
    return l;
}

std::vector<Layer> layerList(dom::element v, const std::string& where) {
    dom::array a;
    if (v.get_array().get(a)) throw SpecError(where + ": must be a list of layers");
    std::vector<Layer> layers;
    std::size_t i = 0;
    for (dom::element e : a) layers.push_back(parseLayer(e, where + "[" + std::to_string(i++) + "]"));
    return layers;
}

TensorSpec tensorSpec(dom::element e, const char* key) {
    dom::object o;
    const std::string k(key);
    if (e.get_object().get(o) || o.size() != 2 || o["shape"].error() || o["dtype"].error())
        throw SpecError("'" + k + "' must be an object with exactly 'shape' and 'dtype'");
    TensorSpec t;
    std::string_view dtype;
    if (o["dtype"].get_string().get(dtype) || (dtype != "float32" && dtype != "int64"))
        throw SpecError("'" + k + ".dtype' must be one of ['float32', 'int64'], got " + jsonText(o["dtype"].value_unsafe()));
    t.dtype = dtype == "int64" ? DType::I64 : DType::F32;
    dom::array shape;
    if (o["shape"].get_array().get(shape)) throw SpecError("'" + k + ".shape' must be a list of positive ints");
    for (dom::element d : shape) {
        std::int64_t n = 0;
        if (!isInt(d, n) || n < 1) throw SpecError("'" + k + ".shape' must be a list of positive ints");
        t.shape.push_back(n);
    }
    return t;
}

void writeLayers(std::ostringstream& out, const std::vector<Layer>& layers, const std::string& indent);

void writeLayer(std::ostringstream& out, const Layer& l, const std::string& indent) {
    out << "{\"type\": \"" << layerTypeName(l.type) << "\"";
    auto field = [&](const char* name, auto value) { out << ", \"" << name << "\": " << value; };
    auto pair = [&](const char* name, Pair p) {
        if (p.h == p.w) field(name, p.h);
        else out << ", \"" << name << "\": [" << p.h << ", " << p.w << "]";
    };
    switch (l.type) {
    case LayerType::Linear:
        field("out_features", l.outFeatures);
        if (!l.bias) field("bias", "false");
        if (l.tied) field("tied", "true");
        break;
    case LayerType::Conv2d:
        field("out_channels", l.outChannels);
        pair("kernel_size", l.kernel);
        if (l.stride.h != 1 || l.stride.w != 1) pair("stride", l.stride);
        if (l.padding.h || l.padding.w) pair("padding", l.padding);
        if (!l.bias) field("bias", "false");
        if (l.groups != 1) field("groups", l.groups);
        break;
    case LayerType::Dropout: field("p", l.p); break;
    case LayerType::MaxPool2d:
    case LayerType::AvgPool2d:
        pair("kernel_size", l.kernel);
        if (l.strideSet) pair("stride", l.stride);
        if (l.padding.h || l.padding.w) pair("padding", l.padding);
        break;
    case LayerType::AdaptiveAvgPool2d: pair("output_size", l.outputSize); break;
    case LayerType::Embedding:
    case LayerType::PositionEmbedding:
    case LayerType::TokenTypeEmbedding:
        field("num_embeddings", l.numEmbeddings);
        field("embedding_dim", l.embeddingDim);
        break;
    case LayerType::ClassToken: field("embedding_dim", l.embeddingDim); break;
    case LayerType::SelectToken: field("index", l.index); break;
    case LayerType::TransformerEncoderLayer:
        field("d_model", l.dModel);
        field("nhead", l.nhead);
        field("dim_feedforward", l.dimFeedforward);
        field("dropout", l.p);
        field("activation", l.gelu ? "\"gelu\"" : "\"relu\"");
        if (l.normFirst) field("norm_first", "true");
        if (l.causal) field("causal", "true");
        break;
    case LayerType::LlamaDecoderLayer:
        field("d_model", l.dModel);
        field("nhead", l.nhead);
        field("dim_feedforward", l.dimFeedforward);
        if (l.numKvHeads && l.numKvHeads != l.nhead) field("num_key_value_heads", l.numKvHeads);
        if (l.numExperts) field("num_experts", l.numExperts);
        if (l.numExperts && l.expertsPerToken) field("experts_per_token", l.expertsPerToken);
        if (l.headDim) field("head_dim", l.headDim);
        if (l.qkvBias) field("qkv_bias", "true");
        if (l.oBias) field("o_bias", "true");
        if (l.mlpBias) field("mlp_bias", "true");
        if (l.manualAttention) field("manual_attention", "true");
        if (l.manualSilu) field("manual_silu", "true");
        if (l.expandedMask) field("expanded_mask", "true");
        if (l.ropeHalves) field("rope_halves", "true");
        break;
    case LayerType::Gpt2Block:
        field("d_model", l.dModel);
        field("nhead", l.nhead);
        field("dim_feedforward", l.dimFeedforward);
        field("dropout", l.p);
        break;
    case LayerType::Residual:
        out << ", \"layers\": ";
        writeLayers(out, l.layers, indent + "  ");
        if (!l.downsample.empty()) {
            out << ",\n" << indent << " \"downsample\": ";
            writeLayers(out, l.downsample, indent + "  ");
        }
        break;
    default: break;
    }
    out << "}";
}

void writeLayers(std::ostringstream& out, const std::vector<Layer>& layers, const std::string& indent) {
    out << "[";
    for (std::size_t i = 0; i < layers.size(); ++i) {
        out << (i ? ",\n" : "\n") << indent << "  ";
        writeLayer(out, layers[i], indent + "  ");
    }
    out << "]";
}

} // namespace

const char* layerTypeName(LayerType t) {
    switch (t) {
    case LayerType::Linear: return "linear";
    case LayerType::Conv2d: return "conv2d";
    case LayerType::BatchNorm2d: return "batchnorm2d";
    case LayerType::LayerNorm: return "layernorm";
    case LayerType::ReLU: return "relu";
    case LayerType::GELU: return "gelu";
    case LayerType::Sigmoid: return "sigmoid";
    case LayerType::Tanh: return "tanh";
    case LayerType::Dropout: return "dropout";
    case LayerType::MaxPool2d: return "maxpool2d";
    case LayerType::AvgPool2d: return "avgpool2d";
    case LayerType::AdaptiveAvgPool2d: return "adaptiveavgpool2d";
    case LayerType::Flatten: return "flatten";
    case LayerType::Embedding: return "embedding";
    case LayerType::TransformerEncoderLayer: return "transformer_encoder_layer";
    case LayerType::Residual: return "residual";
    case LayerType::PositionEmbedding: return "position_embedding";
    case LayerType::TokenTypeEmbedding: return "token_type_embedding";
    case LayerType::ClassToken: return "class_token";
    case LayerType::ToSequence: return "to_sequence";
    case LayerType::SelectToken: return "select_token";
    case LayerType::RMSNorm: return "rmsnorm";
    case LayerType::LlamaDecoderLayer: return "llama_decoder_layer";
    case LayerType::Gpt2Block: return "gpt2_block";
    case LayerType::TextTower: return "text_tower";
    case LayerType::Scale: return "scale";
    }
    return "?";
}

bool isTransformerBlock(LayerType t) {
    return t == LayerType::TransformerEncoderLayer || t == LayerType::LlamaDecoderLayer || t == LayerType::Gpt2Block;
}

ModelSpec parseModelSpec(std::string_view json, const std::string& source) {
    try {
        dom::parser parser;
        const simdjson::padded_string padded(json);
        dom::element root;
        if (auto error = parser.parse(padded).get(root))
            throw SpecError(std::string("invalid JSON: ") + simdjson::error_message(error));
        dom::object top;
        if (root.get_object().get(top)) throw SpecError("the spec must be a JSON object");
        static const std::set<std::string> kTop = {"name", "input", "target", "loss", "layers"};
        std::vector<std::string> unknown, missing;
        std::set<std::string> seen;
        for (auto [key, value] : top) {
            if (!kTop.count(std::string(key))) unknown.emplace_back(key);
            seen.emplace(key);
        }
        std::sort(unknown.begin(), unknown.end());
        if (!unknown.empty()) throw SpecError("unknown top-level field(s) " + quotedList(unknown));
        for (const std::string& k : kTop)
            if (!seen.count(k)) missing.push_back(k);
        if (!missing.empty()) throw SpecError("missing top-level field(s) " + quotedList(missing));
        ModelSpec spec;
        std::string_view name, loss;
        if (top["name"].get_string().get(name)) throw SpecError("'name' must be a string");
        spec.name = name;
        spec.input = tensorSpec(top["input"].value_unsafe(), "input");
        spec.target = tensorSpec(top["target"].value_unsafe(), "target");
        if (top["loss"].get_string().get(loss) || (loss != "cross_entropy" && loss != "mse" && loss != "cross_entropy_manual"))
            throw SpecError("unknown loss " + jsonText(top["loss"].value_unsafe()) +
                            " (expected one of ['cross_entropy', 'cross_entropy_manual', 'mse'])");
        spec.loss = loss == "mse" ? Loss::Mse : Loss::CrossEntropy;
        spec.manualLoss = loss == "cross_entropy_manual";
        spec.layers = layerList(top["layers"].value_unsafe(), "layers");
        resolveModel(spec); // shape checks
        return spec;
    } catch (const SpecError& e) {
        throw SpecError(source + ": " + e.what());
    }
}

ModelSpec readModelSpecFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SpecError(path + ": cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseModelSpec(text.str(), path);
}

namespace {

// A JSON string literal: the name is the user's text, quotes and control characters included.
std::string jsonQuoted(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace

std::string modelSpecToJson(const ModelSpec& spec) {
    std::ostringstream out;
    auto tensor = [&](const TensorSpec& t) {
        out << "{\"shape\": [";
        for (std::size_t i = 0; i < t.shape.size(); ++i) out << (i ? ", " : "") << t.shape[i];
        out << "], \"dtype\": \"" << (t.dtype == DType::I64 ? "int64" : "float32") << "\"}";
    };
    out << "{\"name\": " << jsonQuoted(spec.name) << ",\n \"input\": ";
    tensor(spec.input);
    out << ",\n \"target\": ";
    tensor(spec.target);
    out << ",\n \"loss\": \"" << (spec.loss == Loss::Mse ? "mse" : spec.manualLoss ? "cross_entropy_manual" : "cross_entropy") << "\",\n \"layers\": ";
    writeLayers(out, spec.layers, "");
    out << "}\n";
    return out.str();
}

} // namespace memviz::costmodel
