// SPDX-License-Identifier: MIT
#pragma once
// Lesson 9's savings, derived from the cost model's simulated step (its per-op timeline and
// categories) for a chosen model:
//  - del out, loss: without it the previous step's output and loss stay alive through the next
//    forward, until `out = model(x)` rebinds the name;
//  - zero_grad(set_to_none=True): with set_to_none=False the gradients stay allocated (as
//    zeros) through the forward and backward, instead of being created during backward;
//  - torch.no_grad() for evaluation: a forward with grad keeps every activation autograd saves;
//  - loss.item() instead of keeping `loss`: in an evaluation loop without no_grad each kept
//    loss keeps its whole graph (in training, backward() has already freed the saved tensors).
#include <cstdint>

#include "costmodel/CostModel.h"

namespace memviz::workshop {

struct FreeingSavings {
    std::int64_t peakBytes = 0; // the step as simulated (del, set_to_none, no_grad all done right)

    std::int64_t outputBytes = 0; // the model output of one step (logits)
    std::int64_t keptOutputPeakBytes = 0;
    std::int64_t delSavedBytes = 0; // keptOutputPeak - peak

    std::int64_t gradientBytes = 0; // all .grad tensors
    std::int64_t zeroedGradsPeakBytes = 0;
    std::int64_t setToNoneSavedBytes = 0;

    std::int64_t evalGraphBytes = 0;        // what one forward with grad keeps for backward
    std::int64_t evalWithGradPeakBytes = 0; // an evaluation forward with grad
    std::int64_t evalNoGradPeakBytes = 0;   // ... under torch.no_grad()
    std::int64_t noGradSavedBytes = 0;
    std::int64_t keptLossesBytes(int batches) const { return evalGraphBytes * batches; }
};

// `training` must describe a training step; the timeline is simulated here.
FreeingSavings freeingSavings(const costmodel::ResolvedModel& model, costmodel::EstimateOptions training);

// The bytes of the model output for `options` (batch x output shape x the activation dtype).
std::int64_t modelOutputBytes(const costmodel::ResolvedModel& model, const costmodel::EstimateOptions& options);

} // namespace memviz::workshop
