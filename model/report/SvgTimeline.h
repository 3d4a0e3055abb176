// SPDX-License-Identifier: MIT
#pragma once
// The report's memory timeline as inline SVG: step lines of one or more curves on shared axes
// (bytes on y, the trace's own time axis on x, ticked by plot/AxisTicks.h's rule as the window's
// axes are: numbers on the ticks, the unit in the axis title), a legend, and the peak marked with
// its exact value. Coordinates are written with one decimal, so a 2,000-column curve stays a
// few hundred kilobytes. Its texts (the peak labels) are placed by plot/LabelPlacement.h with
// the legend as an obstacle, each on a white box (<rect class="label-box">) that says where it is.
#include <cstdint>
#include <string>
#include <vector>

#include "store/ChunkCodec.h"

namespace memviz {

struct SvgCurve {
    std::string label;    // legend text
    std::string color;    // CSS colour
    std::int64_t shift = 0; // added to every time (a baseline lined up at the peaks)
    bool dashed = false;
    const std::vector<SeriesPoint>* points = nullptr;
};

struct SvgPeak {
    std::int64_t t = 0, bytes = 0;
    std::string label; // "peak 1.23 GiB at 12.5 ms"
    // A second, hollow mark: the file's own peak where the curve goes higher (massif's).
    std::string namedLabel; // empty: none
    std::int64_t namedT = 0, namedBytes = 0;
};

// The y axis runs from 0 to the highest point times this (room above the curve, as the window's).
inline constexpr double kSvgValueHeadroom = 1.08;

// `timeKind`: the trace's axis ("time" in ns, "index", "instructions", "bytes"). The x axis runs
// from the first point (or 0) to the last point or `xEnd` (the trace's duration), whichever is
// later; each curve holds its last value to the end.
std::string timelineSvg(const std::vector<SvgCurve>& curves, const SvgPeak& peak, const std::string& timeKind,
                        const std::string& id, std::int64_t xEnd = 0);

// A position on an axis of this kind: "12.5 ms", "event 95", "1200 instr" (the ticks).
std::string axisPosition(const std::string& timeKind, double x);
// The same position as the window's labels and read-outs write it (widgets/TraceAxis's
// xValueText): "25.380 ms", "event 1,234", "13,949,341 instructions", "after 2.00 MiB
// allocated and freed" — for the report's peak labels and tables.
std::string positionText(const std::string& timeKind, double x);

} // namespace memviz
