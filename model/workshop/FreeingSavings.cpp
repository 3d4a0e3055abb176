// SPDX-License-Identifier: MIT
#include "workshop/FreeingSavings.h"

#include <algorithm>

namespace memviz::workshop {

using namespace costmodel;

namespace {

std::int64_t cat(const TimelineSample& s, Category c) { return s.byCategory[static_cast<std::size_t>(c)]; }

const TimelineSample* atMark(const Estimate& e, const char* name) {
    for (const PhaseMark& m : e.marks)
        if (m.name == name && m.sample >= 0 && static_cast<std::size_t>(m.sample) < e.timeline.size())
            return &e.timeline[static_cast<std::size_t>(m.sample)];
    return nullptr;
}

int markIndex(const Estimate& e, const char* name) {
    for (const PhaseMark& m : e.marks)
        if (m.name == name) return m.sample;
    return -1;
}

} // namespace

std::int64_t modelOutputBytes(const ResolvedModel& model, const EstimateOptions& o) {
    // Under autocast the last layer (a linear or a convolution) computes in low precision.
    const DType dtype = o.amp ? (o.device == DeviceKind::Cuda ? DType::F16 : DType::BF16) : o.dtype;
    return o.batch * numel(model.outShape) * elementSize(dtype);
}

FreeingSavings freeingSavings(const ResolvedModel& model, EstimateOptions o) {
    o.training = true;
    o.timeline = true;
    const Estimate e = estimate(model, o);
    FreeingSavings s;
    s.peakBytes = e.peakBytes;
    s.outputBytes = modelOutputBytes(model, o);

    // del out, loss: the old output lives from the step start until the forward has produced
    // the new one (the "forward end" mark).
    const int forwardEnd = markIndex(e, "forward end");
    std::int64_t forwardMax = 0;
    for (int i = 0; i < forwardEnd && i < static_cast<int>(e.timeline.size()); ++i)
        forwardMax = std::max(forwardMax, e.timeline[static_cast<std::size_t>(i)].bytes);
    s.keptOutputPeakBytes = std::max(e.peakBytes, forwardMax + s.outputBytes);
    s.delSavedBytes = s.keptOutputPeakBytes - e.peakBytes;

    // set_to_none=False: every sample holds all gradients.
    if (const TimelineSample* end = atMark(e, "backward end")) s.gradientBytes = cat(*end, Category::Gradients);
    std::int64_t zeroed = 0;
    for (const TimelineSample& t : e.timeline) zeroed = std::max(zeroed, t.bytes - cat(t, Category::Gradients) + s.gradientBytes);
    s.zeroedGradsPeakBytes = std::max(zeroed, e.peakBytes);
    s.setToNoneSavedBytes = s.zeroedGradsPeakBytes - e.peakBytes;

    // Evaluation: a forward with grad (the training step's forward, without the gradients and
    // optimizer state that evaluation has either way) against a no_grad forward. What a kept
    // loss keeps alive is what autograd saved: the activations at the forward end.
    std::int64_t withGrad = 0;
    for (int i = 0; i <= forwardEnd && i < static_cast<int>(e.timeline.size()); ++i) {
        const TimelineSample& t = e.timeline[static_cast<std::size_t>(i)];
        withGrad = std::max(withGrad, t.bytes - cat(t, Category::Gradients) - cat(t, Category::OptimizerState));
    }
    if (const TimelineSample* end = atMark(e, "forward end"))
        s.evalGraphBytes = cat(*end, Category::Activations) + cat(*end, Category::Temporaries);
    EstimateOptions inference = o;
    inference.training = false;
    inference.timeline = false;
    inference.checkpoint = {};
    s.evalWithGradPeakBytes = withGrad;
    s.evalNoGradPeakBytes = estimate(model, inference).peakBytes;
    s.noGradSavedBytes = std::max<std::int64_t>(0, withGrad - s.evalNoGradPeakBytes);
    return s;
}

} // namespace memviz::workshop
