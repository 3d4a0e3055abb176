// SPDX-License-Identifier: MIT
#pragma once
// The cost model's knobs on the command line, read and checked in one place for every
// subcommand that takes them (estimate, explain, screenshot --whatif). The accepted words come
// from the model (costmodel/OptionNames.h), so a bad value is the same usage error, with the
// same text, whichever command it was given to.
#include <QCommandLineParser>
#include <QString>

#include "costmodel/CostModel.h"

namespace memviz::cli {

// `base` with every knob option that is set on `parser`: --batch, --dtype, --amp, --optimizer,
// --optimizer-impl, --lbfgs-history, --checkpoint, --inference, --device, --cuda-context and
// --step, and the language-model knobs --seq, --lora-rank, --lora-targets, --frozen-layers,
// --attention, --weights, --kv-cache (implies inference) and --kv-block. A command declares only the options it accepts; the others are never set. Throws
// UsageError for a bad value (`--batch abc`, `--batch 0`, `--dtype fp8`, ...).
costmodel::EstimateOptions estimateOptionsFrom(const QCommandLineParser& parser, costmodel::EstimateOptions base = {});

} // namespace memviz::cli
