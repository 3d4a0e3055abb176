// SPDX-License-Identifier: MIT
#pragma once
// How the command line prints summaries and operator tables, as JSON and as text.
#include <QJsonObject>
#include <QString>
#include <vector>

#include "formats/profiler/ProfilerQuery.h"
#include "store/OpsQuery.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

QJsonObject summaryJson(const TraceSummary& summary);
QString summaryText(const TraceSummary& summary);

QJsonObject opsJson(const TraceSummary& summary, const std::vector<OpRow>& rows, const QString& device);
QString opsText(const std::vector<OpRow>& rows);

// Profiler traces: key_averages-style rows; `devices` selects and orders the device columns.
QJsonObject profilerOpsJson(const TraceSummary& summary, const ProfilerOpsTable& table, const std::vector<int>& devices,
                            bool grouped);
QString profilerOpsText(const ProfilerOpsTable& table, const std::vector<int>& devices, bool grouped);

// Columns padded to their widest cell; the first column left-aligned, the rest right-aligned.
QString formatTable(const QStringList& header, const std::vector<QStringList>& rows);

} // namespace memviz::cli
