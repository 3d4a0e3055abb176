// SPDX-License-Identifier: MIT
// Assembling the HTML report (see HtmlReport.h).
#include "report/HtmlReport.h"

#include <algorithm>

#include "words/Units.h"
#include "report/FlameSvg.h"
#include "report/HtmlTable.h"
#include "report/Markup.h"
#include "report/SvgTimeline.h"

namespace memviz {

namespace {

// The SVG texts' font is the one plot/TextWidth.h measures labels with (DejaVu Sans, no
// kerning, geometric widths), so their boxes are the ones the browser draws.
const char* kStyle = R"(body{font:14px/1.4 sans-serif;margin:20px;color:#222;max-width:1240px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ddd;padding:2px 8px}
th{background:#f0f0f0;cursor:pointer;user-select:none}th[data-dir=asc]::after{content:" \25B4"}
th[data-dir=desc]::after{content:" \25BE"}td.n{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even){background:#fafafa}.note{color:#666;font-size:12px}
svg text{font:11px 'DejaVu Sans',sans-serif;font-kerning:none;text-rendering:geometricPrecision;fill:#333}svg .axis line{stroke:#999}svg .grid{stroke:#eee}
svg .peak circle{fill:#d62728}svg .peak.named circle{fill:#fff;stroke:#d62728;stroke-width:1.5}svg .peak text{fill:#d62728;font-weight:bold}
#peaks{display:none}.flame text{font:10px monospace;fill:#000;pointer-events:none}.scroll{overflow-x:auto}
)";

// Sorting: a click on a header sorts its table by that column (numbers by data-v). The page
// marks <body data-script-ran> so a headless browser's DOM shows the script ran; with
// #selftest in the address it sorts the operators by bytes allocated (ascending) and records
// the first row's name in <body data-selftest>.
const char* kScript = R"((function () {
  function sortBy(th) {
    var row = th.parentNode, table = th.closest('table'), body = table.tBodies[0];
    var i = Array.prototype.indexOf.call(row.children, th), asc = th.getAttribute('data-dir') !== 'asc';
    Array.prototype.forEach.call(row.children, function (h) { h.removeAttribute('data-dir'); });
    th.setAttribute('data-dir', asc ? 'asc' : 'desc');
    var rows = Array.prototype.slice.call(body.rows);
    function key(r) { var c = r.cells[i]; return c.hasAttribute('data-v') ? Number(c.getAttribute('data-v')) : c.textContent.toLowerCase(); }
    rows.sort(function (a, b) { var x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1); });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll('table.sortable th').forEach(function (th) {
    th.title = 'click to sort';
    th.addEventListener('click', function () { sortBy(th); });
  });
  document.body.setAttribute('data-script-ran', '1');
  if (location.hash === '#selftest') {
    var th = document.querySelector('#ops th[data-key=bytes]');
    if (th) { sortBy(th); document.body.setAttribute('data-selftest', document.querySelector('#ops tbody td').textContent); }
  }
})();
)";

const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};

std::string peakLabel(const TraceSummary& s, std::int64_t bytes, std::int64_t t) {
    return "peak " + formatBytes(static_cast<double>(bytes)) + " at " + positionText(s.trace.timeKind, static_cast<double>(t));
}

// The device's curve when its maximum is above the peak the file names (massif's detailed peak).
const ReportCurve* curveAboveFilePeak(const ReportData& d, const std::string& device) {
    for (const ReportCurve& c : d.curves)
        if (c.device == device && c.named) return &c;
    return nullptr;
}

std::string summarySection(const ReportData& d) {
    const TraceSummary& s = d.facts.summary;
    std::vector<std::vector<HtmlCell>> rows;
    std::string notes;
    // The peak is the curve's maximum, as the timeline marks it; the file's own lower peak is named below.
    const auto peakOf = [&](const DeviceSummary& dev) {
        const ReportCurve* c = curveAboveFilePeak(d, dev.name);
        return c ? std::pair{c->peakBytes, c->peakTimeNs} : std::pair{dev.peakBytes, dev.peakTimeNs};
    };
    for (const DeviceSummary& dev : s.devices) {
        const auto [peakBytes, peakT] = peakOf(dev);
        rows.push_back({textCell(dev.name), bytesCell(peakBytes), textCell(positionText(s.trace.timeKind, static_cast<double>(peakT))),
                        bytesCell(dev.finalBytes), countCell(dev.allocs), countCell(dev.frees), countCell(dev.events)});
        if (const ReportCurve* c = curveAboveFilePeak(d, dev.name))
            notes += "<p class=\"file-peak\" data-device=\"" + escapeMarkup(dev.name) + "\" data-bytes=\"" +
                     std::to_string(c->named->bytes) + "\">" + escapeMarkup(dev.name) + "'s peak is the curve's maximum; " +
                     escapeMarkup(c->named->what + ": " + formatBytes(static_cast<double>(c->named->bytes)) + " at " +
                                  positionText(s.trace.timeKind, static_cast<double>(c->named->t))) +
                     ".</p>\n";
    }
    std::string out = "<h2>Summary</h2>\n<p>Format <b>" + escapeMarkup(s.trace.format) + "</b>, " +
                      std::to_string(s.trace.eventCount) + " events, duration " +
                      escapeMarkup(axisPosition(s.trace.timeKind, static_cast<double>(s.trace.durationNs))) + ".</p>\n";
    out += "<div id=\"peaks\">";
    for (const DeviceSummary& dev : s.devices)
        out += "<span class=\"peak-bytes\" data-device=\"" + escapeMarkup(dev.name) + "\" data-bytes=\"" +
               std::to_string(peakOf(dev).first) + "\">" + std::to_string(peakOf(dev).first) + "</span>";
    out += "</div>\n";
    return out + htmlTable("devices", {{"device", "device"}, {"peak", "peak"}, {"peak at", "peak_at"}, {"final", "final"},
                                       {"allocations", "allocs"}, {"frees", "frees"}, {"events", "events"}},
                           rows) +
           notes;
}

std::string timelineSection(const ReportData& d) {
    std::string out = "<h2>Memory timeline</h2>\n";
    std::size_t i = 0;
    for (const ReportCurve& c : d.curves) {
        SvgCurve curve{c.device + " " + c.series, kColors[i % 6], 0, false, &c.points};
        SvgPeak peak;
        peak.t = c.peakTimeNs;
        peak.bytes = c.peakBytes;
        peak.label = peakLabel(d.facts.summary, c.peakBytes, c.peakTimeNs);
        if (c.named) {
            peak.namedLabel = c.named->what + ": " + formatBytes(static_cast<double>(c.named->bytes)) + " at " +
                              positionText(d.facts.summary.trace.timeKind, static_cast<double>(c.named->t));
            peak.namedT = c.named->t;
            peak.namedBytes = c.named->bytes;
        }
        out += "<h3>" + escapeMarkup(c.device) + "</h3>\n<div class=\"scroll\" data-device=\"" + escapeMarkup(c.device) + "\">" +
               timelineSvg({curve}, peak, d.facts.summary.trace.timeKind, "timeline-" + std::to_string(i),
                           d.facts.summary.trace.durationNs) +
               "</div>\n";
        ++i;
    }
    if (d.curves.empty()) out += "<p>No memory curve.</p>\n";
    return out;
}

std::string categoriesSection(const ReportData& d) {
    if (d.facts.categories.empty()) return {};
    std::vector<std::vector<HtmlCell>> rows;
    for (const CategoryFact& c : d.facts.categories) rows.push_back({textCell(c.device), textCell(c.name), bytesCell(c.bytesAtPeak)});
    return "<h2>Categories at the peak</h2>\n" +
           htmlTable("categories", {{"device", "device"}, {"category", "category"}, {"at the peak", "bytes"}}, rows);
}

std::string opsSection(const ReportData& d) {
    if (d.facts.ops.empty()) return {};
    std::vector<std::vector<HtmlCell>> rows;
    for (std::size_t i = 0; i < d.facts.ops.size() && i < kReportTableRows; ++i) {
        const OpRow& o = d.facts.ops[i];
        rows.push_back({textCell(o.name), bytesCell(o.bytesAllocated), bytesCell(o.bytesFreed), signedBytesCell(o.netBytes()),
                        countCell(o.allocs), bytesCell(o.largestAlloc)});
    }
    return "<h2>Operators</h2>\n" +
           htmlTable("ops", {{"operator", "name"}, {"allocated", "bytes"}, {"freed", "freed"}, {"net", "net"},
                             {"allocations", "allocs"}, {"largest", "largest"}},
                     rows, std::to_string(rows.size()) + " of " + std::to_string(d.facts.ops.size()) +
                               " operators, most bytes allocated first");
}

std::string sitesSection(const ReportData& d) {
    if (d.facts.sites.empty()) return {};
    std::vector<std::vector<HtmlCell>> rows;
    for (std::size_t i = 0; i < d.facts.sites.size() && i < kReportTableRows; ++i) {
        const SiteFact& s = d.facts.sites[i];
        rows.push_back({textCell(s.function), textCell(s.file.empty() ? s.module : s.file + (s.line > 0 ? ":" + std::to_string(s.line) : "")),
                        bytesCell(s.bytes)});
    }
    return "<h2>Allocation sites</h2>\n" +
           htmlTable("sites", {{"function", "name"}, {"where", "where"}, {"bytes", "bytes"}}, rows,
                     std::to_string(rows.size()) + " of " + std::to_string(d.facts.sites.size()) + " sites; bytes: " + d.facts.sitesWhat);
}

std::string flameSection(const ReportData& d) {
    if (!d.flame) return {};
    return "<h2>Flame graph</h2>\n<p class=\"note\">" + escapeMarkup(d.flameMetric) +
           "; the root on top; hover a frame for its value.</p>\n<div class=\"scroll\">" + flameSvg(*d.flame, d.flameBytes) +
           "</div>\n";
}

std::string diffSection(const ReportData& d) {
    if (!d.diff) return {};
    const TraceComparison& c = *d.diff;
    std::string out = "<h2>Compared with the baseline</h2>\n<p>Baseline (A): " + escapeMarkup(d.baselineTitle) +
                      "; this trace (B) lined up at the peaks (B shifted by " +
                      escapeMarkup(axisPosition(c.b.summary.trace.timeKind, static_cast<double>(d.diffShift))) + ").</p>\n";
    std::vector<std::vector<HtmlCell>> rows;
    for (const DeviceDiff& dev : c.devices)
        rows.push_back({textCell(dev.name), bytesCell(dev.peakBytes.a), bytesCell(dev.peakBytes.b), signedBytesCell(dev.peakBytes.delta()),
                        bytesCell(dev.finalBytes.a), bytesCell(dev.finalBytes.b), signedBytesCell(dev.finalBytes.delta())});
    out += htmlTable("diff-devices", {{"device", "device"}, {"peak A", "peak_a"}, {"peak B", "peak_b"}, {"delta", "peak_delta"},
                                      {"final A", "final_a"}, {"final B", "final_b"}, {"delta", "final_delta"}},
                     rows);
    if (!c.a.curve.empty() || !c.b.curve.empty()) {
        const DeviceSummary* dev = nullptr;
        for (const DeviceSummary& x : c.b.summary.devices)
            if (!dev && (c.device.empty() || x.name == c.device)) dev = &x;
        const SvgCurve a{"A (baseline)", "#7f7f7f", 0, true, &c.a.curve};
        const SvgCurve b{"B (this trace), lined up", "#1f77b4", d.diffShift, false, &c.b.curve};
        const std::int64_t peakBytes = dev ? dev->peakBytes : 0, peakT = dev ? dev->peakTimeNs + d.diffShift : 0;
        SvgPeak peak;
        peak.t = peakT;
        peak.bytes = peakBytes;
        peak.label = "B " + peakLabel(c.b.summary, peakBytes, dev ? dev->peakTimeNs : 0);
        out += "<div class=\"scroll\">" +
               timelineSvg({a, b}, peak, c.b.summary.trace.timeKind, "timeline-diff") +
               "</div>\n";
    }
    rows.clear();
    for (std::size_t i = 0; i < c.ops.size() && i < kReportTableRows; ++i) {
        const OpDiff& o = c.ops[i];
        rows.push_back({textCell(o.name), bytesCell(o.bytesAllocated.a), bytesCell(o.bytesAllocated.b),
                        signedBytesCell(o.bytesAllocated.delta())});
    }
    if (!rows.empty())
        out += htmlTable("diff-ops", {{"operator", "name"}, {"allocated A", "a"}, {"allocated B", "b"}, {"delta", "delta"}}, rows,
                         "most changed first");
    return out;
}

} // namespace

std::string htmlReport(const ReportData& d) {
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>memviz report: " +
                       escapeMarkup(d.title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n<h1>memviz report: " +
                       escapeMarkup(d.title) + "</h1>\n";
    html += summarySection(d) + timelineSection(d) + categoriesSection(d) + opsSection(d) + sitesSection(d) + flameSection(d) +
            diffSection(d);
    html += "<p class=\"note\">Written by memviz; self-contained, no network.</p>\n<script>\n" + std::string(kScript) +
            "</script>\n</body>\n</html>\n";
    return html;
}

} // namespace memviz
