// SPDX-License-Identifier: MIT
// The timeline SVG (see SvgTimeline.h).
#include "report/SvgTimeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "plot/AxisTicks.h"
#include "plot/LabelPlacement.h"
#include "plot/TextWidth.h"
#include "report/Markup.h"
#include "words/Units.h"

namespace memviz {

namespace {

constexpr double kWidth = 1200, kHeight = 320;
constexpr double kLeft = 90, kRight = 40, kTop = 30, kBottom = 50; // room for the last tick's label
constexpr double kFontPx = 11; // the CSS's svg text size (HtmlReport.cpp)
constexpr double kLabelPadPx = 3, kLabelHeightPx = 16;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

TickQuantity xQuantity(const std::string& timeKind) {
    if (timeKind == "time") return TickQuantity::Time;
    if (timeKind == "bytes") return TickQuantity::Bytes;
    return TickQuantity::Count; // events, instructions
}

// The window's axis titles (widgets/TraceAxis's xAxisLabel), the unit in brackets.
std::string xAxisTitle(const std::string& timeKind, const ScaledUnit& unit) {
    const std::string what = timeKind == "index"          ? "Event number"
                             : timeKind == "instructions" ? "Instructions executed"
                             : timeKind == "bytes"        ? "Memory allocated and freed so far"
                                                          : "Time since trace start";
    return *unit.suffix ? what + " (" + unit.suffix + ")" : what;
}

} // namespace

std::string axisPosition(const std::string& timeKind, double x) {
    char buf[64];
    if (timeKind == "index") std::snprintf(buf, sizeof buf, "event %.0f", x);
    else if (timeKind == "instructions") std::snprintf(buf, sizeof buf, "%.0f instr", x);
    else if (timeKind == "bytes") std::snprintf(buf, sizeof buf, "%.0f B alloc'd", x);
    else return formatDuration(x, 2);
    return buf;
}

std::string positionText(const std::string& timeKind, double x) {
    const auto whole = static_cast<std::int64_t>(std::llround(x));
    if (timeKind == "index") return "event " + groupDigits(whole);
    if (timeKind == "instructions") return groupDigits(whole) + " instructions";
    if (timeKind == "bytes") return "after " + formatBytes(x) + " allocated and freed";
    return formatDuration(x);
}

std::string timelineSvg(const std::vector<SvgCurve>& curves, const SvgPeak& peak, const std::string& timeKind,
                        const std::string& id, std::int64_t xEnd) {
    double t0 = std::numeric_limits<double>::max(), t1 = std::numeric_limits<double>::lowest(), vMax = 1;
    for (const SvgCurve& c : curves)
        for (const SeriesPoint& p : *c.points) {
            t0 = std::min(t0, static_cast<double>(p.t + c.shift));
            t1 = std::max(t1, static_cast<double>(p.t + c.shift));
            vMax = std::max(vMax, static_cast<double>(p.v));
        }
    if (t0 > t1) t0 = t1 = 0;
    t0 = std::min(t0, 0.0);
    t1 = std::max(t1, static_cast<double>(xEnd));
    if (t1 <= t0) t1 = t0 + 1;
    const double yTop = vMax * kSvgValueHeadroom;
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    auto X = [&](double t) { return kLeft + (t - t0) / (t1 - t0) * plotW; };
    auto Y = [&](double v) { return kTop + plotH - v / yTop * plotH; };

    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"" + escapeMarkup(id) +
                    "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) + "\" width=\"" + num(kWidth) + "\" height=\"" +
                    num(kHeight) + "\" data-peak-bytes=\"" + std::to_string(peak.bytes) + "\" data-peak-t=\"" +
                    std::to_string(peak.t) + "\" role=\"img\">\n";
    // Axes and grid.
    s += "<g class=\"axis\">\n";
    // Ticks by the window's rule (plot/AxisTicks.h): numbers on the ticks, the unit in the title.
    const AxisTicks yTicks = axisTicks(TickQuantity::Bytes, 0, yTop, kValueAxisTicks);
    for (std::size_t i = 0; i < yTicks.values.size(); ++i) {
        const double v = yTicks.values[i];
        s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kWidth - kRight) + "\" y1=\"" + num(Y(v)) + "\" y2=\"" + num(Y(v)) +
             "\" class=\"grid\"/><text class=\"ytick\" data-v=\"" + num(v) + "\" x=\"" + num(kLeft - 6) + "\" y=\"" +
             num(Y(v) + 4) + "\" text-anchor=\"end\">" + escapeMarkup(yTicks.labels[i]) + "</text>\n";
    }
    const AxisTicks xTicks = axisTicks(xQuantity(timeKind), t0, t1, kTimeAxisTicks);
    for (std::size_t i = 0; i < xTicks.values.size(); ++i) {
        const double t = xTicks.values[i];
        s += "<line x1=\"" + num(X(t)) + "\" x2=\"" + num(X(t)) + "\" y1=\"" + num(kTop + plotH) + "\" y2=\"" +
             num(kTop + plotH + 5) + "\"/><text class=\"xtick\" data-v=\"" + num(t) + "\" x=\"" + num(X(t)) + "\" y=\"" +
             num(kTop + plotH + 18) + "\" text-anchor=\"middle\">" + escapeMarkup(xTicks.labels[i]) + "</text>\n";
    }
    s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft) + "\" y1=\"" + num(kTop) + "\" y2=\"" + num(kTop + plotH) +
         "\"/><line x1=\"" + num(kLeft) + "\" x2=\"" + num(kWidth - kRight) + "\" y1=\"" + num(kTop + plotH) + "\" y2=\"" +
         num(kTop + plotH) + "\"/>\n";
    s += "<text class=\"xtitle\" x=\"" + num(kLeft + plotW / 2) + "\" y=\"" + num(kHeight - 8) + "\" text-anchor=\"middle\">" +
         escapeMarkup(xAxisTitle(timeKind, xTicks.unit)) + "</text>\n";
    s += "<text x=\"14\" y=\"" + num(kTop + plotH / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         num(kTop + plotH / 2) + ")\" class=\"ytitle\">" + escapeMarkup(std::string("Memory (") + yTicks.unit.suffix + ")") +
         "</text>\n</g>\n";
    // Curves as step lines.
    for (const SvgCurve& c : curves) {
        if (c.points->empty()) continue;
        std::string d = "M" + num(X(static_cast<double>(c.points->front().t + c.shift))) + " " +
                        num(Y(static_cast<double>(c.points->front().v)));
        for (std::size_t i = 1; i < c.points->size(); ++i) {
            const SeriesPoint& p = (*c.points)[i];
            d += "H" + num(X(static_cast<double>(p.t + c.shift))) + "V" + num(Y(static_cast<double>(p.v)));
        }
        d += "H" + num(X(t1));
        s += "<path class=\"curve\" fill=\"none\" stroke=\"" + c.color + "\" stroke-width=\"1.2\"" +
             (c.dashed ? " stroke-dasharray=\"5 3\"" : "") + " d=\"" + d + "\"/>\n";
    }
    // Legend: only curves with data; its boxes are obstacles for the labels.
    std::vector<LabelBox> legendBoxes;
    double lx = kLeft + 10;
    for (const SvgCurve& c : curves) {
        if (c.points->empty() || std::all_of(c.points->begin(), c.points->end(), [](const SeriesPoint& p) { return p.v == 0; }))
            continue;
        const double textW = svgTextWidth(c.label, kFontPx);
        const LabelBox box{lx, 2, 30 + textW, 18};
        legendBoxes.push_back(box);
        s += "<g class=\"legend\"><rect class=\"legend-box\" x=\"" + num(box.x) + "\" y=\"" + num(box.y) + "\" width=\"" +
             num(box.w) + "\" height=\"" + num(box.h) + "\" fill=\"none\"/><line x1=\"" + num(lx) + "\" x2=\"" + num(lx + 24) +
             "\" y1=\"12\" y2=\"12\" stroke=\"" + c.color + "\" stroke-width=\"2\"" + (c.dashed ? " stroke-dasharray=\"5 3\"" : "") +
             "/><text x=\"" + num(lx + 30) + "\" y=\"16\">" + escapeMarkup(c.label) + "</text></g>\n";
        lx += box.w + 10;
    }
    // The peak (at the top of the curve) and the file's own peak, placed by the one rule.
    struct Mark {
        double x, y;
        std::string text;
        bool hollow;
    };
    std::vector<Mark> marks{{X(static_cast<double>(peak.t)), Y(static_cast<double>(peak.bytes)), peak.label, false}};
    if (!peak.namedLabel.empty())
        marks.push_back({X(static_cast<double>(peak.namedT)), Y(static_cast<double>(peak.namedBytes)), peak.namedLabel, true});
    std::vector<LabelRequest> requests;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        LabelRequest r;
        r.anchorX = marks[i].x;
        r.anchorY = marks[i].y;
        r.width = svgTextWidth(marks[i].text, kFontPx, true) + 2 * kLabelPadPx;
        r.height = kLabelHeightPx;
        r.side = marks[i].hollow ? LabelSide::Below : LabelSide::Above;
        r.priority = static_cast<int>(i);
        requests.push_back(r);
    }
    const LabelBox area{kLeft, 0, plotW, kTop + plotH};
    const std::vector<LabelPlacement> placed = placeLabels(requests, area, legendBoxes);
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const Mark& m = marks[i];
        s += std::string("<g class=\"peak") + (m.hollow ? " named" : "") + "\"><circle cx=\"" + num(m.x) + "\" cy=\"" + num(m.y) +
             "\" r=\"4\"" + (m.hollow ? " fill=\"#fff\" stroke=\"#d62728\" stroke-width=\"1.5\"" : "") + "/>";
        if (placed[i].shown) {
            const LabelBox& b = placed[i].box;
            s += "<rect class=\"label-box\" x=\"" + num(b.x) + "\" y=\"" + num(b.y) + "\" width=\"" + num(b.w) + "\" height=\"" +
                 num(b.h) + "\" fill=\"#fff\" fill-opacity=\"0.85\"/><text x=\"" + num(b.x + kLabelPadPx) + "\" y=\"" +
                 num(b.y + b.h - 4) + "\">" + escapeMarkup(m.text) + "</text>";
        }
        s += "</g>\n";
    }
    s += "</svg>\n";
    return s;
}

} // namespace memviz
