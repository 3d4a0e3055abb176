// SPDX-License-Identifier: MIT
// How long the flame graph takes (issue 14's budget: a whole-range heaptrack flame graph draws
// in <= 100 ms once its data is loaded): building the call tree from a store (on the worker in
// the window), the bottom-up tree, then laying out and painting the FlameGraph widget at a
// window's size, several times, offscreen. Not a test; results go to docs/performance-native.md.
//   bench_flame STORE.memviz [METRIC] [RUNS]
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

#include "formats/StackSources.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "widgets/flame/FlameGraph.h"

using namespace memviz;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_flame STORE.memviz [METRIC] [RUNS]\n");
        return 2;
    }
    const std::string metric = argc > 2 ? argv[2] : "";
    const int runs = argc > 3 ? std::atoi(argv[3]) : 10;
    Database db(argv[1], Database::Mode::ReadOnly);
    const std::int64_t traceId = *latestTraceId(db);
    StackRequest request;
    request.metric = metric;
    request.folder = FrameFolder::fromPresets(defaultFoldPresets());

    // Wall time, and the process's CPU time (one thread does the work), which a busy shared
    // machine inflates less.
    std::vector<double> load, invert, draw, loadCpu, invertCpu;
    const auto cpuMs = [] { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
    std::shared_ptr<const StackTree> tree;
    std::size_t bottomUpNodes = 0;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        double c = cpuMs();
        auto built = std::make_shared<StackTree>(loadStackTree(db, traceId, request));
        load.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        loadCpu.push_back(cpuMs() - c);
        t.restart();
        c = cpuMs();
        const StackTree bottomUp = invertedStackTree(*built);
        invert.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        invertCpu.push_back(cpuMs() - c);
        bottomUpNodes = bottomUp.nodes.size();
        tree = built;
    }
    FlameGraph graph;
    graph.resize(1400, 600);
    QImage image(graph.size(), QImage::Format_ARGB32_Premultiplied);
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        graph.setTree(tree, true); // lays out the boxes
        QPainter p(&image);
        graph.render(&p);
        p.end();
        draw.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::printf("nodes %zu, frames %zu, total %lld, depth %d\n", tree->nodes.size(), tree->frames.size(),
                static_cast<long long>(tree->total()), tree->maxDepth());
    std::printf("build tree: median %.1f ms, max %.1f ms; CPU median %.1f ms\n", median(load),
                *std::max_element(load.begin(), load.end()), median(loadCpu));
    std::printf("bottom-up tree (%zu nodes): median %.1f ms; CPU median %.1f ms\n", bottomUpNodes, median(invert), median(invertCpu));
    std::printf("lay out + paint 1400x600: median %.1f ms, max %.1f ms (%d runs)\n", median(draw),
                *std::max_element(draw.begin(), draw.end()), runs);
    return 0;
}
