// SPDX-License-Identifier: MIT
#pragma once
// How the command line prints summaries and operator tables, as JSON and as text.
#include <QJsonObject>
#include <QString>
#include <vector>

#include "formats/profiler/ProfilerQuery.h"
#include "plot/PlotPeaks.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

// With `peaks` (plot/PlotPeaks.h), a device whose curve goes above the peak the file names
// (massif's detailed peak snapshot) has the curve's maximum as its peak, as the window and the
// report mark it, and the file's own peak beside it ("file_peak", a "note:" line).
QJsonObject summaryJson(const TraceSummary& summary, const std::vector<PlotPeak>& peaks = {});
// A position on the trace's time axis, in its own unit (massif counts instructions or bytes;
// logs without times and saved estimates count events): "1.2 ms", "event 95".
QString position(const TraceSummary& summary, std::int64_t x);
// A shift along that axis, with its sign: "+1.2 ms", "-3 events".
QString signedShift(const TraceSummary& summary, std::int64_t x);
QString summaryText(const TraceSummary& summary, const std::vector<PlotPeak>& peaks = {});

QJsonObject opsJson(const TraceSummary& summary, const std::vector<OpRow>& rows, const QString& device);
QString opsText(const std::vector<OpRow>& rows);

// Profiler traces: key_averages-style rows; `devices` selects and orders the device columns.
QJsonObject profilerOpsJson(const TraceSummary& summary, const ProfilerOpsTable& table, const std::vector<int>& devices,
                            bool grouped);
QString profilerOpsText(const ProfilerOpsTable& table, const std::vector<int>& devices, bool grouped);

// Columns padded to their widest cell; the first column left-aligned, the rest right-aligned.
QString formatTable(const QStringList& header, const std::vector<QStringList>& rows);

} // namespace memviz::cli
