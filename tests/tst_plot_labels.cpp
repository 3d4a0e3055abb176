// SPDX-License-Identifier: MIT
// What a memory chart draws (issue 52), one test per rule: the placement rule for texts
// (hand-made boxes), peaks at the top of their curve (a hand-written massif file whose later
// snapshot is higher than its peak snapshot), tiny devices, empty series, flame graphs that
// account for every byte (a hand-made tree, real snapshots), the report's texts on real files
// (label boxes that do not intersect) and its plumbing folded like the window's.
#include <QRegularExpression>
#include <QtTest>

#include "TestSupport.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/StackSources.h"
#include "plot/LabelPlacement.h"
#include "plot/PlotPeaks.h"
#include "report/FlameSvg.h"
#include "report/HtmlReport.h"
#include "report/ReportData.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "trace/FrameFolder.h"
#include "trace/StackTree.h"

using namespace memviz;

namespace {

struct Imported {
    QTemporaryDir dir;
    std::unique_ptr<Database> db;
    std::int64_t trace = 0;
};

std::unique_ptr<Imported> importPath(const QString& path) {
    auto r = std::make_unique<Imported>();
    r->db = std::make_unique<Database>(r->dir.filePath("s.memviz").toStdString());
    r->trace = importFile(*r->db, path.toStdString(), Progress{});
    return r;
}

std::unique_ptr<Imported> importBytes(const QByteArray& content, const QString& name) {
    auto keep = std::make_unique<QTemporaryDir>();
    const QString path = test::writeFile(*keep, name, content);
    auto r = importPath(path);
    return r;
}

// A massif file (instructions) whose peak snapshot (2: 1000 + 24 + 0 = 1024 B at 200 instr)
// is below a later ordinary snapshot (3: 1100 + 24 = 1124 B at 300 instr), as massif writes
// them with --peak-inaccuracy (it takes a new peak only when the total grows by more than 1%).
// Snapshot 4 comes back down. No --stacks: the stacks series is all 0.
const QByteArray kMassifLaterMax = R"(desc: --pages-as-heap=yes (handwritten for tst_plot_labels)
cmd: ./prog
time_unit: i
#-----------
snapshot=0
#-----------
time=0
mem_heap_B=0
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=1
#-----------
time=100
mem_heap_B=500
mem_heap_extra_B=12
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=2
#-----------
time=200
mem_heap_B=1000
mem_heap_extra_B=24
mem_stacks_B=0
heap_tree=peak
n1: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n0: 1000 0x400600: main (main.c:7)
#-----------
snapshot=3
#-----------
time=300
mem_heap_B=1100
mem_heap_extra_B=24
mem_stacks_B=0
heap_tree=empty
#-----------
snapshot=4
#-----------
time=400
mem_heap_B=200
mem_heap_extra_B=8
mem_stacks_B=0
heap_tree=empty
)";

// A profiler trace with a GiB on cuda:0 and 80 B on the cpu (the shape of the CUDA traces the
// issue saw): 80 B is below 1 GiB / 1000, so the cpu is "tiny"; cuda:0 is not.
const QByteArray kTinyCpu = R"({"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 10,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 4096, "Bytes": 1073741824, "Total Allocated": 1073741824, "Total Reserved": 1073741824}},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": 20,
  "args": {"Device Type": 0, "Device Id": -1, "Addr": 64, "Bytes": 80, "Total Allocated": 80, "Total Reserved": 0}}
]})";

// <rect class="CLASS" x=".." y=".." width=".." height=".."> boxes of an SVG.
std::vector<LabelBox> svgBoxes(const QString& svg, const QString& cls) {
    std::vector<LabelBox> out;
    static const QRegularExpression re(
        R"re(<rect class="([a-z-]+)" x="([-0-9.]+)" y="([-0-9.]+)" width="([0-9.]+)" height="([0-9.]+)")re");
    for (auto it = re.globalMatch(svg); it.hasNext();) {
        const auto m = it.next();
        if (m.captured(1) == cls)
            out.push_back({m.captured(2).toDouble(), m.captured(3).toDouble(), m.captured(4).toDouble(), m.captured(5).toDouble()});
    }
    return out;
}

// The timeline SVGs of a report page.
QStringList timelineSvgs(const QString& html) {
    QStringList out;
    qsizetype at = 0;
    while ((at = html.indexOf(QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\""), at)) >= 0) {
        const qsizetype end = html.indexOf(QStringLiteral("</svg>"), at);
        out << html.mid(at, end - at);
        at = end;
    }
    return out;
}

// A frame of the user's program: a Python file that is neither PyTorch's nor the standard library's.
bool isUserFrame(const StackFrameInfo& f) {
    const QString file = QString::fromStdString(f.file);
    return file.endsWith(QStringLiteral(".py")) && !file.contains(QStringLiteral("/torch/")) &&
           !file.contains(QStringLiteral("/lib/python")) && !file.contains(QStringLiteral("site-packages"));
}

// The depth (1 = the row under the root) of the shallowest user frame drawn, breadth first
// over children at least 1/1200 of the total wide (what the report's flame graph draws), or -1.
int firstUserRow(const StackTree& t) {
    std::vector<std::int32_t> level{0};
    for (int depth = 1; depth < 64 && !level.empty(); ++depth) {
        std::vector<std::int32_t> next;
        for (const std::int32_t n : level)
            for (const std::int32_t c : t.nodes[static_cast<std::size_t>(n)].children) {
                if (static_cast<double>(t.nodes[static_cast<std::size_t>(c)].inclusive) * 1200 < static_cast<double>(t.total())) break;
                if (isUserFrame(t.frameAt(c))) return depth;
                next.push_back(c);
            }
        level = std::move(next);
    }
    return -1;
}

} // namespace

class TestPlotLabels : public QObject {
    Q_OBJECT
private slots:
    void placementRule();
    void placementShortensThenHides();
    void peakAtTheTopOfTheCurve();
    void tinyDevice();
    void emptySeriesAreNotCurves();
    void everyByteHasABox();
    void realSnapshotsAccountForEveryByte_data();
    void realSnapshotsAccountForEveryByte();
    void reportLabelsDoNotIntersect_data();
    void reportLabelsDoNotIntersect();
    void reportFoldsPlumbing();
};

// Three labels on one anchor: the first goes above-right, the next ones elsewhere around it;
// none overlaps another, an obstacle or the area's edge. Worked out by hand: area 0..200 x
// 0..100, anchor (100, 50), boxes 60 x 10, gap 3: first at (103, 37), the second at the first
// position free of it (the left one: 100 - 3 - 60 = 37, y 37).
void TestPlotLabels::placementRule() {
    const LabelBox area{0, 0, 200, 100};
    std::vector<LabelRequest> r(3);
    for (int i = 0; i < 3; ++i) {
        r[static_cast<std::size_t>(i)].anchorX = 100;
        r[static_cast<std::size_t>(i)].anchorY = 50;
        r[static_cast<std::size_t>(i)].width = 60;
        r[static_cast<std::size_t>(i)].height = 10;
        r[static_cast<std::size_t>(i)].priority = i;
    }
    const auto placed = placeLabels(r, area, {}, 3);
    QVERIFY(placed[0].shown && placed[1].shown && placed[2].shown);
    QCOMPARE(placed[0].box.x, 103.0);
    QCOMPARE(placed[0].box.y, 37.0);
    QCOMPARE(placed[1].box.x, 37.0);
    QCOMPARE(placed[1].box.y, 37.0);
    for (std::size_t i = 0; i < 3; ++i) {
        QVERIFY(placed[i].box.inside(area));
        for (std::size_t j = i + 1; j < 3; ++j) QVERIFY(!placed[i].box.intersects(placed[j].box));
    }
    // An anchor at the right edge: the box is moved inside, not clipped.
    LabelRequest edge;
    edge.anchorX = 199;
    edge.anchorY = 50;
    edge.width = 60;
    edge.height = 10;
    const auto atEdge = placeLabels({edge}, area);
    QVERIFY(atEdge[0].shown);
    QVERIFY(atEdge[0].box.inside(area));
    // An obstacle where the first choice would go pushes the label elsewhere.
    const auto avoided = placeLabels({r[0]}, area, {LabelBox{90, 30, 80, 20}});
    QVERIFY(avoided[0].shown);
    QVERIFY(!avoided[0].box.intersects(LabelBox{90, 30, 80, 20}));
}

// No room for the long text anywhere: the short one is drawn; no room for that either: hidden.
void TestPlotLabels::placementShortensThenHides() {
    const LabelBox area{0, 0, 100, 20};
    LabelRequest big;
    big.anchorX = 50;
    big.anchorY = 10;
    big.width = 150; // wider than the area
    big.shortWidth = 40;
    big.height = 10;
    const auto p = placeLabels({big}, area);
    QVERIFY(p[0].shown);
    QVERIFY(p[0].shortened);
    QCOMPARE(p[0].box.w, 40.0);
    big.shortWidth = 0;
    QVERIFY(!placeLabels({big}, area)[0].shown);
}

// The summary keeps massif's peak (what ms_print reports: snapshot 2, 1024 B at 200); the chart
// marks the curve's maximum (snapshot 3: 1100 + 24 = 1124 B at 300) and names massif's.
void TestPlotLabels::peakAtTheTopOfTheCurve() {
    auto t = importBytes(kMassifLaterMax, "massif.out.1");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    QCOMPARE(s.devices.at(0).peakBytes, 1024);
    QCOMPARE(s.devices.at(0).peakTimeNs, 200);
    const auto peaks = plotPeaks(*t->db, t->trace, s, listSeries(*t->db, t->trace));
    QCOMPARE(peaks.size(), std::size_t{1});
    QCOMPARE(peaks[0].bytes, 1124);
    QCOMPARE(peaks[0].t, 300);
    QVERIFY(peaks[0].named.has_value());
    QCOMPARE(peaks[0].named->bytes, 1024);
    QCOMPARE(peaks[0].named->t, 200);
    QCOMPARE(QString::fromStdString(peaks[0].named->what), QStringLiteral("massif's detailed peak (snapshot 2)"));
    // The report's timeline marks both, the maximum filled and massif's hollow.
    const ReportData data = loadReportData(*t->db, t->trace, "massif.out.1", Progress{});
    const QString html = QString::fromStdString(htmlReport(data));
    // In the window's words: "300 instructions", as its labels write a position.
    QVERIFY(html.contains(QStringLiteral("peak 1.10 KiB at 300 instructions")));
    QVERIFY(html.contains(QStringLiteral("detailed peak (snapshot 2): 1.00 KiB at 200 instructions"))); // "massif&#39;s" escaped
}

void TestPlotLabels::tinyDevice() {
    auto t = importBytes(kTinyCpu, "tiny.pt.trace.json");
    const TraceSummary s = loadSummary(*t->db, t->trace);
    const auto peaks = plotPeaks(*t->db, t->trace, s, listSeries(*t->db, t->trace));
    QCOMPARE(peaks.size(), std::size_t{2});
    for (const PlotPeak& p : peaks) {
        if (p.deviceName == "cpu") {
            QCOMPARE(p.bytes, 80);
            QVERIFY(p.tiny); // 80 < 1073741824 / 1000
        } else {
            QCOMPARE(p.bytes, 1073741824);
            QVERIFY(!p.tiny);
        }
    }
}

// The massif file has no stacks (mem_stacks_B=0 everywhere): its stacks series is empty, so
// neither the window nor the report gives it a line or a legend entry.
void TestPlotLabels::emptySeriesAreNotCurves() {
    auto t = importBytes(kMassifLaterMax, "massif.out.1");
    int empty = 0, withData = 0;
    for (const SeriesInfo& s : listSeries(*t->db, t->trace)) {
        if (s.name == "stacks") QVERIFY(seriesIsEmpty(s));
        (seriesIsEmpty(s) ? empty : withData)++;
    }
    QCOMPARE(empty, 1);
    QCOMPARE(withData, 3); // heap, extra, total
}

// 5 bytes without frames, 10 under main > a: the root's children are main (10) and the named
// box (5); nothing is left on the root, and the collapsed stacks name it.
void TestPlotLabels::everyByteHasABox() {
    StackTreeBuilder b;
    const std::int32_t mainFrame = b.frameId({"main", "m.c", 1, {}});
    const std::int32_t a = b.frameId({"a", "m.c", 2, {}});
    b.add({}, 5);
    const std::vector<std::int32_t> stack{mainFrame, a};
    b.add(stack, 10);
    const StackTree t = b.finish();
    QCOMPARE(t.total(), 15);
    QCOMPARE(t.nodes[0].self, 0);
    QCOMPARE(t.nodes[0].children.size(), std::size_t{2});
    const std::int32_t none = t.nodes[0].children[1];
    QCOMPARE(QString::fromStdString(t.frameAt(none).function), QStringLiteral("stack not recorded"));
    QCOMPARE(t.nodes[static_cast<std::size_t>(none)].inclusive, 5);
    QVERIFY(QString::fromStdString(collapsedStacks(t)).contains(QStringLiteral("\nstack not recorded 5\n")));
    // A stack whose frames are all folded keeps its innermost frame.
    StackTreeBuilder folded(FrameFolder::fromPresets({"alloc"}));
    const std::int32_t malloc = folded.frameId({"malloc", {}, 0, {}});
    const std::vector<std::int32_t> onlyMalloc{malloc};
    folded.add(onlyMalloc, 7);
    const StackTree f = folded.finish();
    QCOMPARE(f.nodes[0].children.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(f.frameAt(f.nodes[0].children[0]).function), QStringLiteral("malloc"));
}

void TestPlotLabels::realSnapshotsAccountForEveryByte_data() {
    QTest::addColumn<QString>("relative");
    QTest::newRow("bcrafton") << "pytorch-snapshot/bcrafton_2025.pickle";
    QTest::newRow("magma27") << "pytorch-snapshot/magma27_2026.pickle";
}

// Every byte alive at the peak is in a box under the root: the root's children add up to the
// total, and the root itself holds nothing (the report and the window draw the children).
void TestPlotLabels::realSnapshotsAccountForEveryByte() {
    QFETCH(QString, relative);
    MEMVIZ_REQUIRE_FIXTURE(path, relative);
    auto t = importPath(path);
    const StackTree tree = loadStackTree(*t->db, t->trace, StackRequest{});
    std::int64_t children = 0;
    for (const std::int32_t c : tree.nodes[0].children) children += tree.nodes[static_cast<std::size_t>(c)].inclusive;
    QCOMPARE(tree.nodes[0].self, 0);
    QCOMPARE(children, tree.total());
}

void TestPlotLabels::reportLabelsDoNotIntersect_data() {
    QTest::addColumn<QString>("relative");
    QTest::newRow("snapshot bcrafton") << "pytorch-snapshot/bcrafton_2025.pickle";
    QTest::newRow("snapshot magma27") << "pytorch-snapshot/magma27_2026.pickle";
    QTest::newRow("kineto 2021") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz";
    QTest::newRow("hta 2xv100") << "pytorch-profiler/hta_2xv100_2022.pt.trace.json.gz";
    QTest::newRow("memory timeline") << "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz";
    QTest::newRow("massif --stacks") << "wild/zenopelli-cpu__Z-Ant__massif.out";
    QTest::newRow("massif") << "wild/helios-language__helios__massif.out.1";
    QTest::newRow("heaptrack") << "wild/toumorokoshi__heaptrack-web-ui__examples__heaptrack.lelouch.88322.zst";
}

// The report's timeline texts (peak labels) and legend entries of real files: each label box
// inside the drawing, no two boxes intersecting.
void TestPlotLabels::reportLabelsDoNotIntersect() {
    QFETCH(QString, relative);
    MEMVIZ_REQUIRE_FIXTURE(path, relative);
    auto t = importPath(path);
    const ReportData data = loadReportData(*t->db, t->trace, "f", Progress{});
    const QStringList svgs = timelineSvgs(QString::fromStdString(htmlReport(data)));
    QVERIFY(!svgs.isEmpty());
    for (const QString& svg : svgs) {
        std::vector<LabelBox> boxes = svgBoxes(svg, QStringLiteral("label-box"));
        QVERIFY2(!boxes.empty(), "every curve's peak is labelled");
        const LabelBox drawing{0, 0, 1200, 320};
        for (const LabelBox& b : boxes) QVERIFY(b.inside(drawing));
        for (const LabelBox& l : svgBoxes(svg, QStringLiteral("legend-box"))) boxes.push_back(l);
        for (std::size_t i = 0; i < boxes.size(); ++i)
            for (std::size_t j = i + 1; j < boxes.size(); ++j) QVERIFY(!boxes[i].intersects(boxes[j]));
    }
}

// The report folds plumbing by default, as the window does: on a real snapshot the first user
// frame is within the first five rows of the flame graph; without folding it is deeper.
void TestPlotLabels::reportFoldsPlumbing() {
    MEMVIZ_REQUIRE_FIXTURE(path, "pytorch-snapshot/bcrafton_2025.pickle");
    auto t = importPath(path);
    const ReportData folded = loadReportData(*t->db, t->trace, "f", Progress{}, FrameFolder::fromPresets(defaultFoldPresets()));
    QVERIFY(folded.flame.has_value());
    const int row = firstUserRow(*folded.flame);
    QVERIFY2(row >= 1 && row <= 5, qPrintable(QString::number(row)));
    const ReportData raw = loadReportData(*t->db, t->trace, "f", Progress{});
    QVERIFY(firstUserRow(*raw.flame) > row);
}

QTEST_GUILESS_MAIN(TestPlotLabels)
#include "tst_plot_labels.moc"
