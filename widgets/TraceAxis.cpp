// SPDX-License-Identifier: MIT
#include "widgets/TraceAxis.h"

#include <QCoreApplication>
#include <QLocale>
#include <cmath>

#include "words/Units.h"

namespace memviz {

// Free functions: the texts are translated in the context "memviz::TraceAxis".
XKind xKindOf(const std::string& timeKind) {
    if (timeKind == "index") return XKind::Index;
    if (timeKind == "instructions") return XKind::Instructions;
    if (timeKind == "bytes") return XKind::Bytes;
    return XKind::Time;
}

ScaledAxisTicker::Quantity tickerQuantity(XKind kind) {
    switch (kind) {
    case XKind::Time: return ScaledAxisTicker::Quantity::Time;
    case XKind::Bytes: return ScaledAxisTicker::Quantity::Bytes;
    case XKind::Index:
    case XKind::Instructions: return ScaledAxisTicker::Quantity::Count;
    }
    return ScaledAxisTicker::Quantity::Time;
}

QString xAxisLabel(XKind kind, const QString& unitSuffix) {
    const QString unit = unitSuffix.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(unitSuffix);
    switch (kind) {
    case XKind::Time: return QCoreApplication::translate("memviz::TraceAxis", "Time since trace start") + unit;
    case XKind::Index: return QCoreApplication::translate("memviz::TraceAxis", "Event number") + unit;
    case XKind::Instructions: return QCoreApplication::translate("memviz::TraceAxis", "Instructions executed") + unit;
    case XKind::Bytes: return QCoreApplication::translate("memviz::TraceAxis", "Memory allocated and freed so far") + unit;
    }
    return {};
}

QString xValueText(XKind kind, double x) {
    switch (kind) {
    case XKind::Time: return QString::fromStdString(formatDuration(x));
    case XKind::Index:
        return QCoreApplication::translate("memviz::TraceAxis", "event %1")
            .arg(QLocale().toString(static_cast<qint64>(std::llround(x))));
    case XKind::Instructions:
        return QCoreApplication::translate("memviz::TraceAxis", "%1 instructions")
            .arg(QLocale().toString(static_cast<qint64>(std::llround(x))));
    case XKind::Bytes:
        return QCoreApplication::translate("memviz::TraceAxis", "after %1 allocated and freed")
            .arg(QString::fromStdString(formatBytes(x)));
    }
    return {};
}

QString seriesValueText(const std::string& unit, double v) {
    if (unit == "bytes") return QString::fromStdString(formatBytes(v));
    return QStringLiteral("%1 %2").arg(QLocale().toString(static_cast<qint64>(std::llround(v))), QString::fromStdString(unit));
}

} // namespace memviz
