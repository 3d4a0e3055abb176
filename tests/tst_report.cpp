// SPDX-License-Identifier: MIT
// `memviz report` (issue 32): the page for a hand-worked allocation log, the real kineto trace
// and a real CUDA snapshot, opened in a real headless browser (Debian's chromium, --dump-dom:
// the inline script ran and sorts the operator table on a click), validated by tidy, and with
// each device's peak in the page equal to `memviz summary --json`'s (and, for the log, to the
// hand calculation). No network: the page references nothing outside itself.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "DiffLogs.h"
#include "NativeToolOutput.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

// device -> peak bytes, from `memviz summary --json`.
QHash<QString, qint64> summaryPeaks(const QString& file) {
    const ProcessResult r = runMemviz({"summary", file, "--json"});
    QHash<QString, qint64> out;
    for (const QJsonValue& d : QJsonDocument::fromJson(r.out).object()["devices"].toArray())
        out.insert(d.toObject()["device"].toString(), d.toObject()["peak_bytes"].toInteger());
    return out;
}

// device -> the peak each timeline SVG of the page carries.
QHash<QString, qint64> pagePeaks(const QString& html) {
    static const QRegularExpression timeline(
        QStringLiteral("<div class=\"scroll\" data-device=\"([^\"]+)\"><svg [^>]*data-peak-bytes=\"(\\d+)\""));
    QHash<QString, qint64> out;
    for (auto it = timeline.globalMatch(html); it.hasNext();) {
        const auto m = it.next();
        out.insert(m.captured(1), m.captured(2).toLongLong());
    }
    return out;
}

// The DOM after the page's scripts ran, from headless chromium; empty when it failed.
QString dumpDom(const QString& html, const QString& fragment = {}) {
    const QString chromium = findTool("chromium");
    if (chromium.isEmpty()) return {};
    QTemporaryDir profile;
    const ProcessResult r = runProcess(chromium, {"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                                                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                                                  "--user-data-dir=" + profile.path(), "--dump-dom",
                                                  QUrl::fromLocalFile(html).toString() + fragment},
                                       120000);
    if (r.exitCode != 0) qWarning("chromium: %s", r.err.right(2000).constData());
    return QString::fromUtf8(r.out);
}

// tidy's errors (not its warnings) for the page; "" when valid.
QString tidyErrors(const QString& html) {
    const ProcessResult r = runProcess(findTool("tidy"), {"-errors", "-q", html});
    return r.exitCode >= 2 ? QString::fromUtf8(r.err) : QString();
}

QString report(const QStringList& args, const QString& out) {
    const ProcessResult r = runMemviz(QStringList{"report"} + args + QStringList{"-o", out});
    if (r.exitCode != 0) qWarning("memviz report: %s", r.err.constData());
    return r.exitCode == 0 ? QString::fromUtf8(readFile(out)) : QString();
}

// A check run in the browser after the page's own script: every peak label's text (its bounding
// box as the browser laid it out, in the font the CSS names) lies inside its white box, every
// legend text inside its legend box, every box inside its SVG, and no two boxes of one SVG
// intersect. Its findings, or "ok", go into <body data-label-check>.
const char* kLabelCheck = R"(<script>
(function() {
  const problems = [];
  const inside = (a, b, slack) => a.x >= b.x - slack && a.y >= b.y - slack && a.x + a.width <= b.x + b.width + slack && a.y + a.height <= b.y + b.height + slack;
  const rectOf = (r) => ({x: +r.getAttribute('x'), y: +r.getAttribute('y'), width: +r.getAttribute('width'), height: +r.getAttribute('height')});
  let labels = 0;
  for (const svg of document.querySelectorAll('svg.timeline')) {
    const area = {x: 0, y: 0, width: svg.viewBox.baseVal.width, height: svg.viewBox.baseVal.height};
    const boxes = [];
    for (const [group, boxClass] of [['g.peak', 'rect.label-box'], ['g.legend', 'rect.legend-box']])
      for (const g of svg.querySelectorAll(group)) {
        const rect = g.querySelector(boxClass), text = g.querySelector('text');
        if (!rect || !text) continue;
        const box = rectOf(rect), t = text.getBBox();
        ++labels;
        if (!inside({x: t.x, y: t.y, width: t.width, height: t.height}, box, 0.5))
          problems.push(svg.id + ': "' + text.textContent + '" (' + t.x.toFixed(1) + '+' + t.width.toFixed(1) + ') outside its box (' + box.x + '+' + box.width + ')');
        if (!inside(box, area, 0)) problems.push(svg.id + ': the box of "' + text.textContent + '" is clipped by the SVG');
        boxes.push([box, text.textContent]);
      }
    for (let i = 0; i < boxes.length; ++i)
      for (let j = i + 1; j < boxes.length; ++j) {
        const [a, an] = boxes[i], [b, bn] = boxes[j];
        if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
          problems.push(svg.id + ': "' + an + '" overlaps "' + bn + '"');
      }
  }
  document.body.setAttribute('data-label-check', problems.length ? problems.join(' | ') : 'ok ' + labels);
})();
</script>)";

void checkSelfContained(const QString& html) {
    // Nothing fetched from elsewhere: no src=, no external href, no @import or url().
    QVERIFY(!html.contains(" src="));
    QVERIFY(!html.contains("href="));
    QVERIFY(!html.contains("@import"));
    QVERIFY(!html.contains("url("));
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void allocationLogInTheBrowser();
    void withBaseline();
    void realTraces_data();
    void realTraces();
    void labelsFitInChromium_data();
    void labelsFitInChromium();
    void badUsage();
};

// kDiffLogA: peak 400 B at 10 ns; operators a 100, b 300, c 50 bytes allocated.
void TestReport::allocationLogInTheBrowser() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "a.csv", kDiffLogA);
    const QString out = dir.filePath("report.html");
    const QString html = report({log}, out);
    QVERIFY(!html.isEmpty());
    checkSelfContained(html);
    QCOMPARE(pagePeaks(html), (QHash<QString, qint64>{{"cpu", 400}}));
    QCOMPARE(pagePeaks(html), summaryPeaks(log));
    QVERIFY(html.contains("peak 400 B"));
    QVERIFY(html.contains("<table class=\"sortable\" id=\"ops\">"));

    if (findTool("tidy").isEmpty()) MEMVIZ_SKIP_OR_FAIL("tidy is not installed (apt install tidy)");
    QCOMPARE(tidyErrors(out), QString());
    if (findTool("chromium").isEmpty()) MEMVIZ_SKIP_OR_FAIL("chromium is not installed (apt install chromium)");
    const QString dom = dumpDom(out, "#selftest");
    QVERIFY2(dom.contains("data-script-ran=\"1\""), qPrintable(dom.left(500)));
    // One click on "allocated" sorts ascending: c (50 B) first.
    QVERIFY2(dom.contains("data-selftest=\"c\""), qPrintable(dom.left(500)));
    QVERIFY(dom.contains("data-dir=\"asc\""));
    // Without the fragment the page is left in the order written: most allocated (b) first.
    const QString plain = dumpDom(out);
    QVERIFY(plain.contains("data-script-ran=\"1\""));
    QVERIFY(!plain.contains("data-selftest=\""));
    static const QRegularExpression firstOp(QStringLiteral("<table class=\"sortable\" id=\"ops\">.*?<tbody>\\s*<tr><td>([^<]*)</td>"),
                                            QRegularExpression::DotMatchesEverythingOption);
    QCOMPARE(firstOp.match(plain).captured(1), QStringLiteral("b"));
}

// B (peak 670 B) against A (peak 400 B): +270 B.
void TestReport::withBaseline() {
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.csv", kDiffLogA), b = writeFile(dir, "b.csv", kDiffLogB);
    const QString out = dir.filePath("diff.html");
    const QString html = report({b, "--baseline", a}, out);
    QVERIFY(html.contains("id=\"timeline-diff\""));
    static const QRegularExpression deltaCell(QStringLiteral("<td class=\"n\" data-v=\"270\">"));
    QVERIFY(deltaCell.match(html).hasMatch());
    QCOMPARE(pagePeaks(html), (QHash<QString, qint64>{{"cpu", 670}}));
    if (findTool("tidy").isEmpty()) MEMVIZ_SKIP_OR_FAIL("tidy is not installed (apt install tidy)");
    QCOMPARE(tidyErrors(out), QString());
}

void TestReport::realTraces_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("kineto resnet50") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz";
    QTest::newRow("memory timeline") << "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz";
    QTest::newRow("CUDA snapshot") << "pytorch-snapshot/magma27_2026.pickle";
}

void TestReport::realTraces() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    QTemporaryDir dir;
    const QString store = dir.filePath("t.memviz");
    QCOMPARE(runMemviz({"import", path, "--db", store}).exitCode, 0);
    const QString out = dir.filePath("report.html");
    const QString html = report({store}, out);
    QVERIFY(!html.isEmpty());
    checkSelfContained(html);
    const QHash<QString, qint64> peaks = summaryPeaks(store);
    QVERIFY(!peaks.isEmpty());
    QCOMPARE(pagePeaks(html), peaks);
    QVERIFY2(QFileInfo(out).size() <= 5 * 1024 * 1024, qPrintable(QString::number(QFileInfo(out).size())));
    if (findTool("tidy").isEmpty()) MEMVIZ_SKIP_OR_FAIL("tidy is not installed (apt install tidy)");
    QCOMPARE(tidyErrors(out), QString());
    if (findTool("chromium").isEmpty()) MEMVIZ_SKIP_OR_FAIL("chromium is not installed (apt install chromium)");
    const QString dom = dumpDom(out);
    QVERIFY(dom.contains("data-script-ran=\"1\""));
    QCOMPARE(pagePeaks(dom), peaks);
}

// The peak labels' and legend's boxes (plot/LabelPlacement.h, widths from plot/TextWidth.h) hold
// their texts as headless Chromium lays them out, inside the SVG, without overlapping.
void TestReport::labelsFitInChromium_data() {
    QTest::addColumn<QString>("fixture");
    QTest::newRow("kineto resnet50 (cpu and cuda:0)") << "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz";
    QTest::newRow("CUDA snapshot") << "pytorch-snapshot/magma27_2026.pickle";
    QTest::newRow("massif (wild)") << "wild/MliliGenes__TrpJSON__massif.out";
}

void TestReport::labelsFitInChromium() {
    QFETCH(QString, fixture);
    MEMVIZ_REQUIRE_FIXTURE(path, fixture);
    if (findTool("chromium").isEmpty()) MEMVIZ_SKIP_OR_FAIL("chromium is not installed (apt install chromium)");
    QTemporaryDir dir;
    const QString out = dir.filePath("report.html");
    QString html = report({path}, out);
    QVERIFY(!html.isEmpty());
    QVERIFY(html.contains("class=\"label-box\""));
    const qsizetype end = html.lastIndexOf("</body>");
    QVERIFY(end > 0);
    html.insert(end, QString::fromUtf8(kLabelCheck));
    const QString checked = writeFile(dir, "checked.html", html.toUtf8());
    const QString dom = dumpDom(checked);
    static const QRegularExpression result(QStringLiteral("data-label-check=\"([^\"]*)\""));
    const QString found = result.match(dom).captured(1);
    QVERIFY2(found.startsWith("ok "), qPrintable(found.isEmpty() ? dom.left(500) : found));
    QVERIFY(found.mid(3).toInt() >= 2); // at least a peak label and a legend entry were measured
}

void TestReport::badUsage() {
    QTemporaryDir dir;
    const QString log = writeFile(dir, "a.csv", kDiffLogA);
    QCOMPARE(runMemviz({"report", log}).exitCode, 2); // no -o
    QCOMPARE(runMemviz({"report", log + "#x", "-o", dir.filePath("r.html")}).exitCode, 2);
    const ProcessResult missing = runMemviz({"report", dir.filePath("nope.csv"), "-o", dir.filePath("r.html")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains("nope.csv"));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
