// SPDX-License-Identifier: MIT
#pragma once
// Byte sizes, counts and durations as text, one way for the command line and every widget:
// "1.35 MiB", "+300 B", "1,234,567", "2.500 s". The numbers themselves are formatted by
// words/Units (formatBytes, formatDuration); this adds QString and the signs of deltas.
#include <QLocale>
#include <QString>
#include <cstdint>

#include "words/Units.h"

namespace memviz::words {

inline QString bytes(std::int64_t b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); }

// A difference: "+1.00 KiB", "-12 B", "0 B".
inline QString signedBytes(std::int64_t b) { return (b > 0 ? QStringLiteral("+") : QString()) + bytes(b); }

// Counts with thousands separators; the command line passes QLocale::c() so its output is the
// same on every machine, widgets the user's locale.
inline QString count(std::int64_t n, const QLocale& locale = QLocale()) {
    return locale.toString(static_cast<qlonglong>(n));
}
inline QString signedCount(std::int64_t n, const QLocale& locale = QLocale()) {
    return (n > 0 ? QStringLiteral("+") : QString()) + count(n, locale);
}

inline QString duration(std::int64_t ns, int decimals = 3) {
    return QString::fromStdString(formatDuration(static_cast<double>(ns), decimals));
}

} // namespace memviz::words
