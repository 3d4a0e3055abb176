// SPDX-License-Identifier: MIT
#pragma once
// Parsers for the text the real tools print (heaptrack_print, its flame-graph export, and
// ms_print), so the native-format tests compare memviz with the tools' own figures.
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <cmath>
#include <cstdio>

namespace memviz::test {

inline QString findTool(const QString& name) { return QStandardPaths::findExecutable(name); }

// heaptrack_print's byte format: whole bytes up to 1000, else 2 decimals and the first
// letter of the unit, dividing by 1000 ("127.80K").
inline QString heaptrackBytes(qint64 bytes) {
    double v = static_cast<double>(bytes);
    const char* units[] = {"B", "K", "M", "G", "T"};
    int unit = 0;
    while (unit < 4 && std::fabs(v) > 1000.) {
        v /= 1000.;
        ++unit;
    }
    if (unit == 0) return QString::number(bytes) + "B";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f%s", v, units[unit]);
    return QString::fromLatin1(buf);
}

struct HeaptrackPrintEntry {
    QString bytes;    // peak (peak list, calls list) as printed
    qint64 calls = 0; // allocations
    qint64 temporary = 0;
    QString function; // or "0x..." when unresolved
    QString location; // "file:line", empty when not printed
    QString module;   // "??" when unknown
};

struct HeaptrackPrintReport {
    qint64 calls = -1;
    qint64 temporary = -1;
    QString peak, leaked, suppressed, runtime;
    QList<HeaptrackPrintEntry> byCalls, byPeak, byTemporary;
};

inline HeaptrackPrintReport parseHeaptrackPrint(const QString& text) {
    HeaptrackPrintReport r;
    const QStringList lines = text.split('\n');
    static const QRegularExpression callsHeader(R"(^(\d+) calls to allocation functions with (\S+) peak consumption from$)");
    static const QRegularExpression peakHeader(R"(^(\S+) peak memory consumed over (\d+) calls from$)");
    static const QRegularExpression tempHeader(R"(^(\d+) temporary allocations of (\d+) allocations in total \(.*\) from$)");
    QList<HeaptrackPrintEntry>* list = nullptr;
    for (int i = 0; i < lines.size(); ++i) {
        const QString& l = lines[i];
        if (l == "MOST CALLS TO ALLOCATION FUNCTIONS") list = &r.byCalls;
        else if (l == "PEAK MEMORY CONSUMERS") list = &r.byPeak;
        else if (l == "MOST TEMPORARY ALLOCATIONS") list = &r.byTemporary;
        else if (l.startsWith("calls to allocation functions: ")) r.calls = l.section(' ', 4, 4).toLongLong();
        else if (l.startsWith("temporary memory allocations: ")) r.temporary = l.section(' ', 3, 3).toLongLong();
        else if (l.startsWith("peak heap memory consumption: ")) r.peak = l.section(' ', 4, 4);
        else if (l.startsWith("total memory leaked: ")) r.leaked = l.section(' ', 3, 3);
        else if (l.startsWith("suppressed leaks: ")) r.suppressed = l.section(' ', 2, 2);
        else if (l.startsWith("total runtime: ")) r.runtime = l.section(' ', 2, 2);
        HeaptrackPrintEntry e;
        bool header = false;
        if (auto m = callsHeader.match(l); m.hasMatch() && list == &r.byCalls) {
            e.calls = m.captured(1).toLongLong();
            e.bytes = m.captured(2);
            header = true;
        } else if (auto m2 = peakHeader.match(l); m2.hasMatch() && list == &r.byPeak) {
            e.bytes = m2.captured(1);
            e.calls = m2.captured(2).toLongLong();
            header = true;
        } else if (auto m3 = tempHeader.match(l); m3.hasMatch() && list == &r.byTemporary) {
            e.temporary = m3.captured(1).toLongLong();
            e.calls = m3.captured(2).toLongLong();
            header = true;
        }
        if (!header || i + 1 >= lines.size()) continue;
        e.function = lines[++i];
        while (i + 1 < lines.size() && lines[i + 1].startsWith("  ") && !lines[i + 1].startsWith("   ")) {
            const QString detail = lines[++i].mid(2);
            if (detail.startsWith("at ")) e.location = detail.mid(3);
            else if (detail.startsWith("in ")) e.module = detail.mid(3);
        }
        list->append(e);
    }
    return r;
}

// heaptrack_print -F: one line per backtrace, "root;...;leaf (file); cost".
struct FlameCosts {
    qint64 total = 0;
    QHash<QString, qint64> byLeaf; // the innermost frame as printed, e.g. "leak_block (alloc_patterns.c)"
};

inline FlameCosts parseFlamegraph(const QString& text) {
    FlameCosts f;
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) {
        const int space = line.lastIndexOf(' ');
        const qint64 cost = line.mid(space + 1).toLongLong();
        QStringList frames = line.left(space).split(';', Qt::SkipEmptyParts);
        f.total += cost;
        f.byLeaf[frames.isEmpty() ? QString() : frames.last()] += cost;
    }
    return f;
}

struct MsPrintRow {
    qint64 n = 0;
    QString time; // without thousands separators
    qint64 total = 0, heap = 0, extra = 0, stacks = 0;
};

struct MsPrintTreeEntry {
    qint64 bytes = 0;
    QString label;
};

struct MsPrintReport {
    int snapshots = -1;
    QList<qint64> detailed;
    qint64 peak = -1;
    QList<MsPrintRow> rows;
    QHash<qint64, QList<MsPrintTreeEntry>> trees; // significant entries per detailed snapshot
};

inline qint64 uncommify(const QString& s) { return QString(s).remove(',').toLongLong(); }

inline MsPrintReport parseMsPrint(const QString& text) {
    MsPrintReport r;
    static const QRegularExpression row(R"(^\s*(\d+)\s+([\d,.]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s*$)");
    static const QRegularExpression entry(R"(^[|\s]*(?:->)?\d+\.\d+% \(([\d,]+)B\) (.*)$)");
    qint64 current = -1;
    for (const QString& l : text.split('\n')) {
        if (l.startsWith("Number of snapshots: ")) {
            r.snapshots = l.mid(21).toInt();
        } else if (l.startsWith(" Detailed snapshots: [")) {
            const QString inner = l.mid(22).chopped(1);
            for (QString part : inner.split(", ", Qt::SkipEmptyParts)) {
                if (part.endsWith(" (peak)")) {
                    part.chop(7);
                    r.peak = part.toLongLong();
                }
                r.detailed.append(part.toLongLong());
            }
        } else if (auto m = row.match(l); m.hasMatch()) {
            MsPrintRow x;
            x.n = m.captured(1).toLongLong();
            x.time = QString(m.captured(2)).remove(',');
            x.total = uncommify(m.captured(3));
            x.heap = uncommify(m.captured(4));
            x.extra = uncommify(m.captured(5));
            x.stacks = uncommify(m.captured(6));
            r.rows.append(x);
            current = x.n;
        } else if (auto e = entry.match(l); e.hasMatch() && current >= 0) {
            // ms_print's own "in N+ places, all below ms_print's threshold" lines are not in
            // the file; every other entry is a node of the snapshot's tree.
            if (e.captured(2).contains("below ms_print's threshold")) continue;
            r.trees[current].append({uncommify(e.captured(1)), e.captured(2)});
        }
    }
    return r;
}

} // namespace memviz::test
