// SPDX-License-Identifier: MIT
// Compare window benchmark (issue 13: "comparing two 10M-event stores: first paint of the
// overlay <= 0.5 s, diff tables <= 1 s, the window stays responsive"). Opens a Compare window
// on two stored traces, RUNS times, and prints per run: the time until the comparison (curves
// and the diff tables, read on the worker) is shown, the time of the first paint after it
// (QWidget::grab), for two CUDA snapshots the time until their blocks and alive-at-peak tables
// land (read after the rest) and the switch to the alive-at-peak table, and the longest gap
// between two ticks of a 5 ms timer on the GUI thread meanwhile (a GUI-thread stall shows as a
// gap as long as itself), and the time until the first row's curves are drawn in both traces.
// A measurement, not a test.
//
//   bench_compare STORE_A TRACE_A STORE_B TRACE_B [RUNS]
//
// Run it with QT_QPA_PLATFORM=offscreen or under xvfb-run.
#include <QApplication>
#include <QElapsedTimer>
#include <QComboBox>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <algorithm>
#include <cstdio>

#include "widgets/compare/CompareWindow.h"

using namespace memviz;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s STORE_A TRACE_A STORE_B TRACE_B [RUNS]\n", argv[0]);
        return 2;
    }
    const QString storeA = argv[1], storeB = argv[3];
    const qint64 traceA = QString(argv[2]).toLongLong(), traceB = QString(argv[4]).toLongLong();
    const int runs = argc > 5 ? std::max(1, QString(argv[5]).toInt()) : 3;
    std::printf("run  shown_ms  first_paint_ms  details_ms  row_curves_ms  longest_gui_gap_ms  rows\n");
    for (int run = 1; run <= runs; ++run) {
        CompareWindow w;
        w.resize(1400, 900);
        w.show();
        QCoreApplication::processEvents();
        QElapsedTimer clock, sinceTick;
        double longestGap = 0;
        QTimer tick;
        tick.setTimerType(Qt::PreciseTimer);
        tick.setInterval(5);
        QObject::connect(&tick, &QTimer::timeout, [&] {
            longestGap = std::max(longestGap, sinceTick.nsecsElapsed() / 1e6);
            sinceTick.restart();
        });
        tick.start();
        sinceTick.start();
        clock.start();
        w.compare(storeA, traceA, "A", storeB, traceB, "B");
        // The window says in its status line when it cannot compare; give up then, or after 10 min.
        auto stuck = [&] {
            if (clock.elapsed() < 600'000 && !w.status()->text().startsWith("Cannot")) return false;
            std::fprintf(stderr, "no result: %s\n", qPrintable(w.status()->text()));
            return true;
        };
        while (!w.comparison())
            if (QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5), stuck()) return 1;
        const double shown = clock.nsecsElapsed() / 1e6;
        (void)w.grab(); // the first paint of the window with the comparison in it
        const double painted = clock.nsecsElapsed() / 1e6;
        while (w.detailsPending())
            if (QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5), stuck()) return 1;
        const double details = clock.nsecsElapsed() / 1e6;
        // The largest table two snapshots have, shown and painted.
        const int alive = w.rowsChoice()->findData(static_cast<int>(CompareRows::AliveAtPeak));
        if (alive >= 0) {
            w.rowsChoice()->setCurrentIndex(alive);
            (void)w.grab();
        }
        // The first row chosen: its curves in both traces, read on the worker.
        QElapsedTimer rowClock;
        rowClock.start();
        if (w.rowsProxy()->rowCount() > 0) {
            w.rowsView()->selectionModel()->setCurrentIndex(w.rowsProxy()->index(0, 0),
                                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            while (w.rowCurvesPending())
                if (QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5), stuck()) return 1;
            (void)w.grab();
        }
        const double rowCurves = rowClock.nsecsElapsed() / 1e6;
        // A few more ticks, so a stall right after the paint is counted too.
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 200) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
        std::printf("%3d  %8.1f  %14.1f  %10.1f  %13.1f  %18.1f  %d\n", run, shown, painted, details, rowCurves, longestGap,
                    w.rowsModel()->rowCount());
        std::fflush(stdout);
    }
    return 0;
}
