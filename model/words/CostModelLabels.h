// SPDX-License-Identifier: MIT
#pragma once
// The cost model's words as the user reads them, translated: breakdown categories, phases of
// a step, what-if knobs, optimizers and the presets' descriptions. The model (plain C++) keeps
// its English identifiers for JSON and the command line; the GUI shows these.
#include <QString>
#include <string>

#include "costmodel/CostModel.h"

namespace memviz {

QString categoryLabel(costmodel::Category c);       // "optimizer state"
QString phaseLabel(costmodel::Phase p);             // "backward"
QString optimizerLabel(costmodel::OptimizerKind k); // "SGD with momentum"
QString dtypeLabel(costmodel::DType d);             // "bfloat16"
// A knob of costmodel::knobSavings, by its id ("batch/2"), with the model's text as fallback.
QString knobLabel(const std::string& knob, const std::string& fallback);
// A preset's description (a tooltip), translated where a translation exists.
QString presetDescription(const std::string& description);

} // namespace memviz
