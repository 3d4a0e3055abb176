// SPDX-License-Identifier: MIT
// Replay specs read with simdjson's DOM; the model itself goes through parseModelSpec.
#include "costmodel/SnapshotReplay.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <simdjson.h>
#include <sstream>

#include "costmodel/OptionNames.h"
#include "costmodel/SpecParser.h"

namespace memviz::costmodel {

namespace {
using simdjson::dom::element;
using simdjson::dom::object;

std::string str(const object& o, const char* key, const std::string& where) {
    std::string_view v;
    if (o[key].get_string().get(v)) throw SpecError(where + ": '" + key + "' must be a string");
    return std::string(v);
}

std::int64_t integer(const element& v, const std::string& where) {
    std::int64_t n = 0;
    if (v.get_int64().get(n) || n < 0) throw SpecError(where + " must be a non-negative integer");
    return n;
}

bool boolean(const element& v, const std::string& where) {
    bool b = false;
    if (v.get_bool().get(b)) throw SpecError(where + " must be true or false");
    return b;
}

EstimateOptions readOptions(const object& o, const std::string& where) {
    EstimateOptions e;
    e.device = DeviceKind::Cuda;
    e.timeline = true;
    for (auto [keyView, v] : o) {
        const std::string key(keyView);
        const std::string at = where + ".options." + key;
        std::string_view s;
        if (key == "batch") e.batch = integer(v, at);
        else if (key == "seq") e.seqLen = integer(v, at);
        else if (key == "amp") e.amp = boolean(v, at);
        else if (key == "training") e.training = boolean(v, at);
        else if (key == "zero_grad_after_step") e.zeroGradAfterStep = boolean(v, at);
        else if (key == "never_zero_grad") e.neverZeroGrad = boolean(v, at);
        else if (key == "inference_mode") e.inferenceMode = boolean(v, at);
        else if (key == "cublas_workspaces") e.cublasWorkspaces = static_cast<int>(integer(v, at));
        else if (key == "steps_before") e.stepsBefore = static_cast<int>(integer(v, at));
        else if (key == "step") e.step = static_cast<int>(integer(v, at));
        else if (key == "graph_forward_only") e.graphForwardOnly = boolean(v, at);
        else if (key == "output_kept") e.outputKept = boolean(v, at);
        else if (key == "output_dropped_before_recorded") e.outputDroppedBeforeReported = boolean(v, at);
        else if (key == "optimizer" || key == "optimizer_impl" || key == "dtype" || key == "torch") {
            if (v.get_string().get(s)) throw SpecError(at + " must be a string");
            const std::string w(s);
            try {
                if (key == "optimizer") e.optimizer = parseOptimizer(w);
                else if (key == "dtype") e.dtype = parseDType(w);
                else if (key == "torch") e.torch = parseTorchVersion(w);
                else e.optimizerImpl = w == "manual" ? OptimizerImpl::Manual : parseOptimizerImpl(w);
            } catch (const std::invalid_argument& x) {
                throw SpecError(at + ": " + x.what());
            }
        } else {
            throw SpecError(at + ": unknown option");
        }
    }
    return e;
}
} // namespace

ReplaySpec readReplaySpec(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SpecError(path + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(text.str());
    element root;
    if (auto error = parser.parse(padded).get(root))
        throw SpecError(path + ": invalid JSON: " + simdjson::error_message(error));
    object top;
    if (root.get_object().get(top)) throw SpecError(path + ": a replay spec is a JSON object");
    static const std::set<std::string> kKeys = {"snapshot", "repository", "commit", "gpu", "pytorch", "recorded", "compare",
                                                "source", "notes", "model", "options"};
    for (auto [key, value] : top)
        if (!kKeys.count(std::string(key))) throw SpecError(path + ": unknown field '" + std::string(key) + "'");
    ReplaySpec r;
    r.snapshot = str(top, "snapshot", path);
    r.repository = str(top, "repository", path);
    r.commit = str(top, "commit", path);
    r.gpu = str(top, "gpu", path);
    r.pytorch = str(top, "pytorch", path);
    simdjson::dom::array source;
    if (top["source"].get_array().get(source) || source.size() == 0)
        throw SpecError(path + ": 'source' must be a non-empty list of file:lines the settings were read from");
    for (element s : source) {
        std::string_view line;
        if (s.get_string().get(line)) throw SpecError(path + ": 'source' holds a non-string entry");
        r.source.emplace_back(line);
    }
    r.recorded = str(top, "recorded", path);
    simdjson::dom::array compare;
    if (top["compare"].get_array().get(compare)) throw SpecError(path + ": 'compare' must be a list of phase names");
    for (element c : compare) {
        std::string_view s;
        if (c.get_string().get(s) || phaseValue(PhaseAllocated{}, std::string(s)) < 0)
            throw SpecError(path + ": 'compare' holds an unknown phase (forward_end, forward_peak, backward_peak, step_peak, peak)");
        r.compare.emplace_back(s);
    }
    element model;
    if (top["model"].get(model)) throw SpecError(path + ": 'model' is missing");
    try {
        r.model = parseModelSpec(simdjson::minify(model), path + ": model");
    } catch (const SpecError& x) {
        throw SpecError(path + ": model: " + x.what());
    }
    object options;
    if (top["options"].get_object().get(options)) throw SpecError(path + ": 'options' must be an object");
    r.options = readOptions(options, path);
    return r;
}

PhaseAllocated phaseAllocated(const Estimate& e) {
    PhaseAllocated p;
    bool backwardSeen = false;
    for (const TimelineSample& s : e.timeline) {
        std::int64_t a = 0;
        for (std::size_t c = 0; c < s.byCategory.size(); ++c)
            if (c != static_cast<std::size_t>(Category::Overhead)) a += s.byCategory[c];
        p.peak = std::max(p.peak, a);
        switch (s.phase) {
        case Phase::Forward:
            if (!backwardSeen) {
                p.forwardPeak = std::max(p.forwardPeak, a);
                p.forwardEnd = a;
            }
            break;
        case Phase::Backward:
            backwardSeen = true;
            p.backwardPeak = std::max(p.backwardPeak, a);
            break;
        case Phase::Optimizer: p.stepPeak = std::max(p.stepPeak, a); break;
        }
    }
    return p;
}

std::int64_t phaseValue(const PhaseAllocated& p, const std::string& key) {
    if (key == "forward_end") return p.forwardEnd;
    if (key == "forward_peak") return p.forwardPeak;
    if (key == "backward_peak") return p.backwardPeak;
    if (key == "step_peak") return p.stepPeak;
    if (key == "peak") return p.peak;
    return -1;
}

} // namespace memviz::costmodel
