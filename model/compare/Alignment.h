// SPDX-License-Identifier: MIT
#pragma once
// How two compared traces are lined up in time (`memviz diff --align`, the Compare window):
// at their starts, their peaks, a training step both mark, or a named marker. B is shifted;
// A stays where it is.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/TraceComparison.h"

namespace memviz {

class Database;

// Auto: the first training step both traces mark, else the starts.
enum class CompareAlign { Auto, Start, Peak, Step, Marker };

struct AlignSpec {
    CompareAlign kind = CompareAlign::Auto;
    std::int64_t step = 0; // Step: its number (ProfilerStep#N, the probe's step N)
    std::string marker;    // Marker: its name
};

// "auto", "start", "peak", "step:N", "marker:NAME"; std::invalid_argument naming what is wrong.
AlignSpec parseAlignSpec(const std::string& text);
std::string alignSpecText(const AlignSpec& spec);

// The training steps of a trace, in time order: a profiler trace's ProfilerStep#N calls, a
// probe recording's step marks; empty for formats without steps. At most 1,000,000.
std::vector<TraceStep> readTraceSteps(Database& db, std::int64_t traceId, const std::string& format);
// The first moment named `name`: a profiler call (record_function label, ProfilerStep#N) or a
// live recording's marker (memviz_probe.mark(), a phase); nullopt when there is none.
std::optional<std::int64_t> findMarker(Database& db, std::int64_t traceId, const std::string& format, const std::string& name);

struct Alignment {
    std::int64_t shift = 0;     // add to B's times
    CompareAlign used{};        // what Auto became (Step or Start)
    std::int64_t step = 0;      // Step: the step lined up
    std::string problem;        // non-empty: the anchor is missing in a trace (shift is 0)
};
// B's shift for `spec`. Start: 0 (both traces start at time 0). Peak: the peaks of the
// compared device's curves (0 when one is empty).
// Marker needs c.a.marker and c.b.marker filled (findMarker).
Alignment alignTraces(const TraceComparison& c, const AlignSpec& spec);

} // namespace memviz
