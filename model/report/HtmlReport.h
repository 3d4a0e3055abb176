// SPDX-License-Identifier: MIT
#pragma once
// `memviz report`: one self-contained HTML page (no network, no external scripts or fonts)
// from ReportData: the summary, each device's timeline as inline SVG with the exact peak
// marked, the category breakdown at the peak, the operator and allocation-site tables
// (sortable by a few lines of inline script), the flame graph as SVG, and with a baseline the
// comparison with the peaks lined up.
#include <string>

#include "report/ReportData.h"

namespace memviz {

// Tables list at most this many rows (the largest); the page says how many there are.
constexpr std::size_t kReportTableRows = 300;

std::string htmlReport(const ReportData& data);

} // namespace memviz
