// SPDX-License-Identifier: MIT
#pragma once
// How the workshop pages look: a scale for fonts and lines (presenter mode uses 1.5-2) and a
// high-contrast theme (white and bright colours on black, for projectors). Plots are styled
// by the lessons with these colours; the widgets follow the palette and the scaled font.
#include <QColor>
#include <QFont>
#include <QPalette>

class QCustomPlot;

namespace memviz {

struct LessonStyle {
    double scale = 1.0;
    bool highContrast = false;

    static constexpr double kMinScale = 1.0;
    static constexpr double kMaxScale = 2.0;
    static constexpr double kPresenterScale = 1.5;

    QColor background() const;
    QColor foreground() const;
    QColor grid() const;
    QColor accent() const;          // markers: the break-even density, the sweet spot
    QColor series(int index) const; // line and bar colours, distinguishable in both themes
    double lineWidth(double base = 2.0) const { return base * scale; }

    QFont font(QFont base) const;          // base scaled by `scale`
    QPalette palette(QPalette base) const; // base, or the high-contrast palette

    // Background, axes, grid and fonts of a plot (the lessons colour their own data).
    void applyTo(QCustomPlot* plot) const;

    bool operator==(const LessonStyle& o) const { return scale == o.scale && highContrast == o.highContrast; }
};

} // namespace memviz
