// SPDX-License-Identifier: MIT
// The timeline SVG (see SvgTimeline.h).
#include "report/SvgTimeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "plot/LabelPlacement.h"
#include "report/Markup.h"
#include "words/Units.h"

namespace memviz {

namespace {

constexpr double kWidth = 1200, kHeight = 320;
constexpr double kLeft = 90, kRight = 40, kTop = 30, kBottom = 50; // room for the last tick's label
constexpr double kFontPx = 11, kBoldFontPx = 12;                     // svg text, and the peak's bold text (a bold em is wider)
constexpr double kLabelPadPx = 3, kLabelHeightPx = 16;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

// 1, 2 or 5 times a power of `base` (1024-multiples for bytes), at least `raw`.
double niceStep(double raw) {
    if (raw <= 0) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= raw) return m * p;
    return 10 * p;
}

double niceByteStep(double raw) {
    if (raw <= 1) return 1;
    const ScaledUnit u = byteUnitFor(raw);
    const double step = niceStep(raw / u.divisor);
    return step >= 1000 ? u.divisor * 1024 : step * u.divisor; // 1000 MiB would read as "1 GiB" ticks
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
    const double yStep = niceByteStep(vMax / 5);
    const double yTop = std::ceil(vMax / yStep) * yStep;
    const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
    auto X = [&](double t) { return kLeft + (t - t0) / (t1 - t0) * plotW; };
    auto Y = [&](double v) { return kTop + plotH - v / yTop * plotH; };

    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"" + escapeMarkup(id) +
                    "\" viewBox=\"0 0 " + num(kWidth) + " " + num(kHeight) + "\" width=\"" + num(kWidth) + "\" height=\"" +
                    num(kHeight) + "\" data-peak-bytes=\"" + std::to_string(peak.bytes) + "\" data-peak-t=\"" +
                    std::to_string(peak.t) + "\" role=\"img\">\n";
    // Axes and grid.
    s += "<g class=\"axis\">\n";
    const ScaledUnit yUnit = byteUnitFor(yTop); // one unit for every tick: 0, 0.5, 1.0 ... GiB
    for (double v = 0; v <= yTop + yStep / 2; v += yStep) {
        s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kWidth - kRight) + "\" y1=\"" + num(Y(v)) + "\" y2=\"" + num(Y(v)) +
             "\" class=\"grid\"/><text x=\"" + num(kLeft - 6) + "\" y=\"" + num(Y(v) + 4) + "\" text-anchor=\"end\">" +
             escapeMarkup(num(v / yUnit.divisor) + " " + yUnit.suffix) + "</text>\n";
    }
    const double tStep = std::max(niceStep((t1 - t0) / 8), 1.0); // whole ns, events, instructions
    for (double t = std::ceil(t0 / tStep) * tStep; t <= t1; t += tStep)
        s += "<line x1=\"" + num(X(t)) + "\" x2=\"" + num(X(t)) + "\" y1=\"" + num(kTop + plotH) + "\" y2=\"" +
             num(kTop + plotH + 5) + "\"/><text x=\"" + num(X(t)) + "\" y=\"" + num(kTop + plotH + 18) +
             "\" text-anchor=\"middle\">" + escapeMarkup(axisPosition(timeKind, t)) + "</text>\n";
    s += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft) + "\" y1=\"" + num(kTop) + "\" y2=\"" + num(kTop + plotH) +
         "\"/><line x1=\"" + num(kLeft) + "\" x2=\"" + num(kWidth - kRight) + "\" y1=\"" + num(kTop + plotH) + "\" y2=\"" +
         num(kTop + plotH) + "\"/>\n";
    s += "<text x=\"" + num(kLeft + plotW / 2) + "\" y=\"" + num(kHeight - 8) + "\" text-anchor=\"middle\">" +
         std::string(timeKind == "time" ? "time since the trace's start" : timeKind) + "</text>\n";
    s += "<text x=\"14\" y=\"" + num(kTop + plotH / 2) + "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         num(kTop + plotH / 2) + ")\">bytes</text>\n</g>\n";
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
        const double textW = estimatedTextWidth(c.label.data(), c.label.size(), kFontPx);
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
        r.width = estimatedTextWidth(marks[i].text.data(), marks[i].text.size(), kBoldFontPx) + 2 * kLabelPadPx;
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
