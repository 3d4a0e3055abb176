// SPDX-License-Identifier: MIT
#include "widgets/learn/LessonStyle.h"

#include <qcustomplot.h>

#include <iterator>

namespace memviz {

QColor LessonStyle::background() const { return highContrast ? QColor(Qt::black) : QColor(Qt::white); }
QColor LessonStyle::foreground() const { return highContrast ? QColor(Qt::white) : QColor(30, 30, 30); }
QColor LessonStyle::grid() const { return highContrast ? QColor(110, 110, 110) : QColor(215, 215, 215); }
QColor LessonStyle::accent() const { return highContrast ? QColor(255, 255, 0) : QColor(200, 30, 30); }

QColor LessonStyle::series(int index) const {
    static const QColor normal[] = {QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),   QColor(148, 103, 189),
                                    QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34)};
    static const QColor contrast[] = {QColor(0, 255, 255),   QColor(255, 170, 0),   QColor(0, 255, 0),     QColor(255, 80, 255),
                                      QColor(255, 255, 255), QColor(255, 110, 110), QColor(170, 170, 170), QColor(170, 255, 120)};
    const auto n = static_cast<int>(std::size(normal));
    const int i = ((index % n) + n) % n;
    return highContrast ? contrast[i] : normal[i];
}

QFont LessonStyle::font(QFont base) const {
    if (base.pointSizeF() > 0) base.setPointSizeF(base.pointSizeF() * scale);
    else if (base.pixelSize() > 0) base.setPixelSize(qRound(base.pixelSize() * scale));
    return base;
}

QPalette LessonStyle::palette(QPalette base) const {
    if (!highContrast) return base;
    QPalette p;
    p.setColor(QPalette::Window, Qt::black);
    p.setColor(QPalette::WindowText, Qt::white);
    p.setColor(QPalette::Base, Qt::black);
    p.setColor(QPalette::AlternateBase, QColor(40, 40, 40));
    p.setColor(QPalette::Text, Qt::white);
    p.setColor(QPalette::Button, QColor(30, 30, 30));
    p.setColor(QPalette::ButtonText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(255, 255, 0));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::ToolTipBase, Qt::black);
    p.setColor(QPalette::ToolTipText, Qt::white);
    p.setColor(QPalette::Link, QColor(0, 255, 255));
    p.setColor(QPalette::LinkVisited, QColor(255, 80, 255));
    p.setColor(QPalette::PlaceholderText, QColor(170, 170, 170));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(150, 150, 150));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(150, 150, 150));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(150, 150, 150));
    return p;
}

void LessonStyle::applyTo(QCustomPlot* plot) const {
    const QFont f = plot->font(); // the widget font: already scaled by the window
    plot->setBackground(background());
    const QPen axisPen(foreground(), std::max(1.0, scale));
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(axisPen);
        axis->setTickLabelColor(foreground());
        axis->setLabelColor(foreground());
        axis->setTickLabelFont(f);
        QFont label = f;
        label.setBold(true);
        axis->setLabelFont(label);
        axis->grid()->setPen(QPen(grid(), 1.0, Qt::DotLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    plot->legend->setFont(f);
    plot->legend->setTextColor(foreground());
    QColor legendBack = background();
    legendBack.setAlpha(215); // lines behind the legend stay visible
    plot->legend->setBrush(legendBack);
    plot->legend->setBorderPen(QPen(grid()));
}

} // namespace memviz
