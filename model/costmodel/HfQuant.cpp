// SPDX-License-Identifier: MIT
#include "costmodel/HfQuant.h"

#include <functional>

#include "costmodel/HfConfig.h"
#include "costmodel/HfKeys.h"
#include "costmodel/HfParams.h"

namespace memviz::costmodel {

namespace hf {

void readQuantization(const Keys& k, HfModel& m) {
    const auto qc = k.object("quantization_config");
    if (!qc) return;
    HfQuantization& q = m.quantization;
    q.method = qc->text("quant_method", "");
    if (q.method == "bitsandbytes") {
        const bool four = qc->boolean("load_in_4bit", false), eight = qc->boolean("load_in_8bit", false);
        if (four == eight) qc->fail("load_in_4bit", "one of load_in_4bit and load_in_8bit must be true");
        q.bits = four ? 4 : 8;
        q.doubleQuant = qc->boolean("bnb_4bit_use_double_quant", false);
        q.format = qc->text("bnb_4bit_quant_type", "fp4");
    } else if (q.method == "gptq" || q.method == "awq") {
        q.bits = static_cast<int>(qc->integer(q.method == "awq" ? qc->firstOf({"bits", "w_bit"}) : "bits"));
        if (q.bits != 2 && q.bits != 3 && q.bits != 4 && q.bits != 8) qc->fail("bits", std::to_string(q.bits) + " is not 2, 3, 4 or 8");
        const auto g = qc->find(q.method == "awq" ? qc->firstOf({"group_size", "q_group_size"}) : "group_size");
        std::int64_t v = 0;
        q.groupSize = g && !g->get_int64().get(v) && v > 0 ? v : 0; // -1: per channel
    } else if (q.method == "fp8") {
        q.bits = 8;
        if (const auto b = qc->find("weight_block_size")) {
            dom::array a;
            std::int64_t o = 0, i = 0;
            if (b->get_array().get(a) || a.size() != 2 || a.at(0).get_int64().get(o) || a.at(1).get_int64().get(i) || o < 1 || i < 1)
                qc->fail("weight_block_size", "must be two positive integers");
            q.blockOut = o;
            q.blockIn = i;
        }
    } else if (q.method == "compressed-tensors") {
        q.format = qc->text("format", "pack-quantized");
        const auto groups = qc->object("config_groups");
        if (!groups) qc->fail("config_groups", "missing");
        const auto first = groups->object("group_0");
        if (!first) groups->fail("group_0", "missing");
        const auto weights = first->object("weights");
        if (!weights) first->fail("weights", "missing");
        q.bits = static_cast<int>(weights->integer("num_bits"));
        if (q.bits < 2 || q.bits > 8) weights->fail("num_bits", std::to_string(q.bits) + " is not from 2 to 8");
        q.groupSize = weights->text("strategy", "group") == "group" ? weights->integer("group_size", 128) : 0;
    } else {
        m.warnings.push_back("quantization_config: quant_method '" + q.method + "' is not modelled: the weights are counted unquantized");
        q = HfQuantization{};
    }
}

} // namespace hf

namespace {

using Big = hf::Big;

Big ceilDiv(Big a, Big b) { return static_cast<Big>(static_cast<std::int64_t>((a + b - 1) / b)); }

// Bytes of one quantized linear layer of `in` inputs and `out` outputs.
Big linearBytes(const HfQuantization& q, Big in, Big out) {
    const Big groups = q.groupSize > 0 ? ceilDiv(in, Big(q.groupSize)) : 1;
    if (q.method == "gptq") // qweight [in*bits/32, out] int32, qzeros [groups, out*bits/32] int32, scales fp16, g_idx int32
        return ceilDiv(in * q.bits, 32) * out * 4 + groups * ceilDiv(out * q.bits, 32) * 4 + groups * out * 2 + in * 4;
    if (q.method == "awq") // qweight [in, out*bits/32] int32, qzeros [groups, out*bits/32] int32, scales fp16
        return in * ceilDiv(out * q.bits, 32) * 4 + groups * ceilDiv(out * q.bits, 32) * 4 + groups * out * 2;
    if (q.method == "bitsandbytes") {
        if (q.bits == 8) return in * out + out * 4; // int8 weight, fp32 SCB per row
        const Big blocks = ceilDiv(in * out, 64);
        const Big absmax = q.doubleQuant ? blocks + ceilDiv(blocks, 256) * 4 + 256 * 4 : blocks * 4;
        return ceilDiv(in * out, 2) + absmax + 16 * 4; // packed 4-bit pairs, absmax, the 16-value quant map
    }
    if (q.method == "fp8")
        return in * out + (q.blockIn > 0 ? ceilDiv(out, Big(q.blockOut)) * ceilDiv(in, Big(q.blockIn)) * 4 : 4);
    if (q.method == "compressed-tensors") {
        if (q.format == "pack-quantized") // weight_packed int32, weight_scale bf16 per group, weight_shape
            return ceilDiv(in * q.bits, 32) * out * 4 + out * groups * 2 + 16;
        return in * out * q.bits / 8 + out * groups * 2;
    }
    return in * out * 2;
}

// Each linear layer of the blocks, as (inputs, outputs).
void forEachLinear(const HfModel& m, const std::function<void(Big, Big)>& f) {
    const HfBlock& b = m.block;
    const Big h = Big(m.hidden), heads = Big(m.heads), kv = Big(m.kvHeads), hd = Big(m.headDim);
    const auto mlp = [&](Big width) {
        if (b.gatedMlp) {
            f(h, width);
            f(h, width);
        } else {
            f(h, width);
        }
        f(width, h);
    };
    for (std::int64_t i = 0; i < m.layers; ++i) {
        const bool attention = hf::hasAttention(m, i) || b.stack == HfStack::Decoder;
        if (b.stack == HfStack::StateSpace || (b.stack == HfStack::Hybrid && !hf::hasAttention(m, i))) {
            const Big di = Big(b.ssmInner), r = Big(b.ssmDtRank), n = Big(b.ssmState);
            f(h, 2 * di);
            f(di, r + 2 * n);
            f(r, di);
            f(di, h);
        } else if (attention && b.attention == HfAttention::Mla) {
            const Big qk = Big(b.qkNopeDim + b.qkRopeDim);
            if (b.qLoraRank) {
                f(h, Big(b.qLoraRank));
                f(Big(b.qLoraRank), heads * qk);
            } else {
                f(h, heads * qk);
            }
            f(h, Big(b.kvLoraRank + b.qkRopeDim));
            f(Big(b.kvLoraRank), heads * Big(b.qkNopeDim + b.vHeadDim));
            f(heads * Big(b.vHeadDim), h);
        } else if (attention) {
            f(h, heads * hd);
            f(h, kv * hd);
            f(h, kv * hd);
            f(heads * hd, h);
        }
        if (b.stack == HfStack::StateSpace) continue;
        if (hf::hasExperts(m, i)) {
            for (std::int64_t e = 0; e < b.experts; ++e) mlp(Big(b.moeIntermediate));
            if (b.sharedIntermediate) mlp(Big(b.sharedIntermediate));
        } else {
            mlp(Big(m.intermediate));
        }
    }
}

} // namespace

std::int64_t quantizedWeightBytes(const HfModel& m) {
    const HfQuantization& q = m.quantization;
    if (q.method.empty()) return 0;
    const HfStack s = m.block.stack;
    if (s != HfStack::Decoder && s != HfStack::StateSpace && s != HfStack::Hybrid) return 0;
    Big quantized = 0, linearElements = 0;
    forEachLinear(m, [&](Big in, Big out) {
        quantized += linearBytes(q, in, out);
        linearElements += in * out;
    });
    // Everything else (embeddings, norms, biases, routers, the head) in the 16-bit dtype.
    const Big rest = Big(m.parameterCount) - linearElements;
    const Big total = quantized + 2 * rest;
    return total > 0 && total < Big(hf::kLimit) ? static_cast<std::int64_t>(total) : 0;
}

std::string quantizationText(const HfQuantization& q) {
    if (q.method.empty()) return "none";
    std::string s = q.method + " " + std::to_string(q.bits) + "-bit";
    if (q.method == "bitsandbytes" && q.bits == 4) s += " " + q.format + (q.doubleQuant ? ", double quantization" : "");
    if (q.groupSize > 0) s += ", group " + std::to_string(q.groupSize);
    if (q.blockIn > 0) s += ", blocks " + std::to_string(q.blockOut) + "x" + std::to_string(q.blockIn);
    if (q.method == "compressed-tensors") s += ", " + q.format;
    return s;
}

} // namespace memviz::costmodel
