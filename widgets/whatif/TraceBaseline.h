// SPDX-License-Identifier: MIT
#pragma once
// The baseline for calibrating the cost model on the open trace: the recorded peak of the
// device that peaks highest, the categories at that moment where the format records them
// (memory-timeline exports), and a coarse recorded timeline. Read through store queries.
#include "costmodel/Calibration.h"

namespace memviz {

class TraceSession;

// Throws StoreError; an empty trace gives peakBytes 0.
costmodel::RecordedBaseline readTraceBaseline(TraceSession& session, int columns = 600);

} // namespace memviz
