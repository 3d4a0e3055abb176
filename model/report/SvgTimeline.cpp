// SPDX-License-Identifier: MIT
// The timeline SVG (see SvgTimeline.h).
#include "report/SvgTimeline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "words/Units.h"
#include "report/Markup.h"

namespace memviz {

namespace {

constexpr double kWidth = 1200, kHeight = 320;
constexpr double kLeft = 90, kRight = 40, kTop = 30, kBottom = 50; // room for the last tick's label

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
    // The peak.
    const double px = X(static_cast<double>(peak.t)), py = Y(static_cast<double>(peak.bytes));
    s += "<g class=\"peak\"><circle cx=\"" + num(px) + "\" cy=\"" + num(py) + "\" r=\"4\"/><text x=\"" +
         num(std::min(px + 8, kWidth - kRight - 260)) + "\" y=\"" + num(std::max(py - 8, kTop - 8)) + "\">" +
         escapeMarkup(peak.label) + "</text></g>\n";
    // Legend.
    double lx = kLeft + 10;
    for (const SvgCurve& c : curves) {
        s += "<g class=\"legend\"><line x1=\"" + num(lx) + "\" x2=\"" + num(lx + 24) + "\" y1=\"12\" y2=\"12\" stroke=\"" + c.color +
             "\" stroke-width=\"2\"" + (c.dashed ? " stroke-dasharray=\"5 3\"" : "") + "/><text x=\"" + num(lx + 30) +
             "\" y=\"16\">" + escapeMarkup(c.label) + "</text></g>\n";
        lx += 40 + 7.0 * static_cast<double>(c.label.size());
    }
    s += "</svg>\n";
    return s;
}

} // namespace memviz
