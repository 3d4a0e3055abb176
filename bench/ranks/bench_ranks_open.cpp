// SPDX-License-Identifier: MIT
// usage: bench_ranks_open STORE_OR_FOLDER [OUT.png] — the Ranks window (widgets/ranks/RanksWindow.h)
// opening a gathered ranks store (issue 55): the time from open() to the set shown, then to the
// first paint of the whole window (rendered into an image, as the screen would be), and the
// process's peak resident memory (VmHWM). Run with QT_QPA_PLATFORM=offscreen; bench/ranks/scale.sh
// runs it on the 1,024-rank store it gathers.
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <cstdio>

#include "widgets/ranks/RanksWindow.h"

namespace {

long peakRssKb() {
    QFile f("/proc/self/status");
    if (!f.open(QIODevice::ReadOnly)) return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').value(0).toLong();
    return -1;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s STORE_OR_FOLDER [OUT.png]\n", argv[0]);
        return 2;
    }
    const long rssBefore = peakRssKb();
    QElapsedTimer timer;
    timer.start();
    memviz::RanksWindow window;
    window.resize(1400, 1000);
    window.show();
    window.open({QString::fromLocal8Bit(argv[1])});
    window.waitForResult();
    const double shownMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (!window.rankSet()) {
        std::fprintf(stderr, "not shown: %s\n", qPrintable(window.status()->text()));
        return 1;
    }
    QApplication::processEvents();
    QImage image(window.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    window.render(&image);
    const double paintedMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    std::printf("ranks %zu gathered %d heatmap %d shown_ms %.1f first_paint_ms %.1f peak_rss_mb %.1f (before open %.1f)\n",
                window.rankSet()->rows.size(), window.gathered() ? 1 : 0, window.showsHeatmap() ? 1 : 0, shownMs, paintedMs,
                static_cast<double>(peakRssKb()) / 1024.0, static_cast<double>(rssBefore) / 1024.0);
    if (argc > 2) image.save(QString::fromLocal8Bit(argv[2]));
    return 0;
}
