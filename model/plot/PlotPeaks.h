// SPDX-License-Identifier: MIT
#pragma once
// What a memory chart marks as each device's peak, shared by the window's timeline and the
// report's SVG: the maximum of the curve drawn for the device (so the mark is at the top of
// its curve), the peak the file itself names when that is lower (massif's detailed peak
// snapshot: massif takes a new one only when the total grows by more than
// --peak-inaccuracy, so a later snapshot can be higher), and whether the device is too small
// to be seen on an axis shared with the largest one (below 1/1000 of its peak).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/TraceQueries.h"

namespace memviz {

class Database;

// A device whose peak is below this share of the largest device's peak is "tiny".
inline constexpr double kTinyDeviceShare = 1.0 / 1000.0;

struct NamedPeak {
    std::int64_t t = 0, bytes = 0;
    std::string what; // "massif's detailed peak (snapshot 27)"
    std::int64_t snapshot = -1; // massif's snapshot number; -1: the file names none
};

struct PlotPeak {
    int device = 0;
    std::string deviceName;
    std::int64_t seriesId = 0; // the curve drawn for the device
    std::string seriesName;
    std::int64_t t = 0, bytes = 0; // that curve's maximum (its first point at that value)
    bool tiny = false;
    std::optional<NamedPeak> named; // the file's own peak, where it is not the curve's maximum
};

// The device's curve: "allocated", else the bytes line whose maximum is the summary's peak,
// else its first bytes line (stacked bands are parts, not the curve).
const SeriesInfo* primaryCurve(const std::vector<SeriesInfo>& series, const DeviceSummary& d);

// The peaks of the devices that have a curve with data, in the summary's order.
std::vector<PlotPeak> plotPeaks(Database& db, std::int64_t traceId, const TraceSummary& summary,
                                const std::vector<SeriesInfo>& series);

// The peak of `device` among `peaks`; nullptr when it has none (no curve with data).
const PlotPeak* findPlotPeak(const std::vector<PlotPeak>& peaks, int device);

// A series with no data to draw (every point 0, or none): it gets neither a line nor a legend entry.
bool seriesIsEmpty(const SeriesInfo& s);

} // namespace memviz
