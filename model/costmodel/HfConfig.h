// SPDX-License-Identifier: MIT
#pragma once
// A Hugging Face `config.json` read into the numbers memory depends on, for the families people
// fine-tune and serve: one table row per model_type (HfFamilies.cpp, listed by hfModelTypes())
// fills one block description (HfBlock.h) whose parameters HfParams.cpp counts; a config no row
// knows is read as a generic decoder when it has the common keys. Gives the exact parameter count of
// the published checkpoint's architecture (what its safetensors headers hold, buffers aside)
// and a ModelSpec the cost model simulates at a chosen sequence length; what the spec only
// approximates is said in `warnings`. Errors name the key and what is wrong (missing, wrong type,
// absurd size). See docs/costmodel.md ("Model input people already have").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "costmodel/HfBlock.h"
#include "costmodel/HfQuant.h"
#include "costmodel/ModelSpec.h"

namespace memviz::costmodel {

// How the spec simulates the model: GPT-2 blocks, Llama-style decoder layers (every decoder
// table, with its MoE), a BERT-style encoder, a ViT, or T5's one-stack approximation.
enum class HfFamily { Gpt2, Llama, Mixtral, Bert, Vit, T5 };

struct HfModel {
    std::string modelType;    // config's model_type: "llama", "mistral", "qwen2", ...
    std::string architecture; // architectures[0] when given
    HfFamily family = HfFamily::Llama;
    std::int64_t hidden = 0, layers = 0, heads = 0, kvHeads = 0, headDim = 0, intermediate = 0, vocab = 0;
    std::int64_t maxPositions = 0;   // 0: no limit from the config (RoPE, relative positions)
    std::int64_t decoderLayers = 0;  // T5
    std::int64_t experts = 0, expertsPerToken = 0; // Mixtral
    std::int64_t typeVocab = 0;      // BERT token types
    std::int64_t imageSize = 0, patchSize = 0, channels = 0, labels = 0; // ViT
    // CLIP / SigLIP's text tower (text_config; its vocabulary in vocab, positions in maxPositions)
    // and CLIP's projection_dim (0: SigLIP, whose text head is hidden x hidden)
    std::int64_t textHidden = 0, textHeads = 0, textIntermediate = 0, textLayers = 0, projection = 0;
    bool tiedEmbeddings = false;
    bool qkvBias = false, oBias = false, mlpBias = false; // Llama family (Qwen2: q, k, v)
    bool gatedFeedForward = false;                        // T5 v1.1 "gated-gelu"
    double dropout = 0.0;
    std::int64_t parameterCount = 0;         // exact, of the checkpoint's architecture
    std::int64_t largestLayerParameters = 0; // the largest transformer block (FSDP's unit)
    HfBlock block;           // the knobs the model_type's table set
    bool generic = false;    // no table knows model_type: read as a generic decoder
    std::string torchDtype;  // the config's torch_dtype (or dtype), "" when absent
    HfQuantization quantization;         // quantization_config (method "" when none)
    std::int64_t quantizedWeightBytes = 0; // the checkpoint's weight bytes under it (0: none or not modelled)
    // DeepSeek-V3's multi-token-prediction layers (num_nextn_predict_layers): in the published
    // safetensors, loaded by vLLM and SGLang for speculative decoding, not by transformers. Each is
    // one MoE decoder layer, its own embedding and head, eh_proj (2h -> h) and three norms.
    std::int64_t mtpLayers = 0, mtpParameters = 0; // mtpParameters: all of them together
    bool mtpCounted = false;                       // included in parameterCount (withMtpLayers)
    std::vector<std::string> warnings;
};

class HfConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `where` names the file in messages ("config.json: 'hidden_size': missing").
HfModel readHfConfig(std::string_view json, const std::string& where);
HfModel readHfConfigFile(const std::string& path);
// The model with its multi-token-prediction layers counted in parameterCount (and in the quantized
// weight bytes), as serving engines load them; unchanged when the config has none.
HfModel withMtpLayers(HfModel model);

// The model as a spec the cost model simulates: token ids of `sequence` positions in and
// next-token (or per-token) targets out; ViT takes its image and ignores `sequence`. Appends
// what is approximated to `warnings`. Throws HfConfigError for a sequence the model cannot take
// (longer than GPT-2's n_positions, say).
ModelSpec hfModelSpec(const HfModel& model, std::int64_t sequence, std::vector<std::string>& warnings);

// One rule for the weights of every family simulated on the nearest block: the simulated spec
// holds exactly the checkpoint's parameter count. State-space mixers (simulated as attention and a
// gated MLP, which hold more) get the MLP width that brings each layer to its share; what the
// simulated layers still lack is held as one more parameter tensor; a surplus left is said in a
// warning. The same for every sequence: worked out once per model (it resolves the spec).
struct ParameterMatch {
    std::int64_t stateSpaceFeedforward = 0; // the state-space layers' simulated MLP width (0: as built)
    std::int64_t unsimulated = 0;           // ModelSpec::unsimulatedParameters
    std::int64_t surplus = 0;               // parameters the simulated layers hold beyond the count
};
ParameterMatch matchParameterCount(const HfModel& model, const ModelSpec& spec, std::vector<std::string>& warnings);
void applyParameterMatch(const ParameterMatch& match, ModelSpec& spec);

const char* hfFamilyName(HfFamily f);
// The model_types the tables read, sorted.
std::vector<std::string> hfModelTypes();

} // namespace memviz::costmodel
