// SPDX-License-Identifier: MIT
// Budgets (model/budget/) and the one trace reference parser (store/TraceRef): parsing the
// command line's and the budgets file's words, sizes through words/Units, and each budget kind
// checked against figures written by hand in this file, within and over; the errors that must
// never pass.
#include <QtTest>

#include "budget/BudgetCheck.h"
#include "budget/BudgetFile.h"
#include "budget/BudgetJUnit.h"
#include "words/Units.h"
#include "store/TraceRef.h"

using namespace memviz;

namespace {

constexpr std::int64_t MiB = 1024 * 1024;
constexpr std::int64_t GiB = 1024 * MiB;

DeviceSummary device(int index, const char* name, std::int64_t peak, std::int64_t final) {
    DeviceSummary d;
    d.device = index;
    d.name = name;
    d.events = 10;
    d.peakBytes = peak;
    d.finalBytes = final;
    return d;
}

// Two devices: cpu peak 2 GiB (final 1 MiB), cuda:0 peak 10 GiB (final 0); categories on
// cuda:0; two operators; no sites.
TraceFacts facts() {
    TraceFacts f;
    f.summary.trace.format = "pytorch-memory-timeline";
    f.summary.devices = {device(0, "cpu", 2 * GiB, MiB), device(1, "cuda:0", 10 * GiB, 0)};
    f.hasCategories = true;
    f.categories = {{"cuda:0", "activation", 4 * GiB}, {"cuda:0", "parameter", 3 * GiB}};
    f.ops = {{"aten::mm", 3, 0, 3 * GiB, 0, GiB}, {"aten::add", 1, 0, 512 * MiB, 0, 512 * MiB}};
    f.opsRead = true;
    return f;
}

bool passes(const std::vector<Budget>& budgets, const TraceFacts& f, const TraceFacts* baseline = nullptr) {
    const auto results = checkBudgets(budgets, f, baseline);
    return std::all_of(results.begin(), results.end(), [](const BudgetResult& r) { return r.passed(); });
}

Budget peak(const char* v) { return parseBudget(BudgetKind::Peak, v, "--max-peak"); }

} // namespace

class TestBudget : public QObject {
    Q_OBJECT
private slots:
    void sizesParseInOnePlace();
    void traceReferences();
    void parsesEveryKind();
    void badBudgets_data();
    void badBudgets();
    void budgetsFile();
    void badBudgetsFile_data();
    void badBudgetsFile();
    void eachKindWithinAndOver();
    void growthAgainstTheBaseline();
    void errorsThatMustNotPass();
    void junitNamesEveryBudget();
};

void TestBudget::sizesParseInOnePlace() {
    QCOMPARE(parseByteSize("12GiB"), 12 * GiB);
    QCOMPARE(parseByteSize("12G"), 12 * GiB);
    QCOMPARE(parseByteSize("80GB"), std::int64_t(80'000'000'000));
    QCOMPARE(parseByteSize("0"), std::int64_t(0));
    QCOMPARE(parseByteSize("1.5 MiB"), 3 * MiB / 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize("12 parsecs"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize("-1GiB"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize(""));
}

void TestBudget::traceReferences() {
    QTemporaryDir dir;
    QCOMPARE(parseTraceRef("run.memviz").path, std::string("run.memviz"));
    QCOMPARE(parseTraceRef("run.memviz").traceId, std::int64_t(0));
    const TraceRef r = parseTraceRef("runs/a.memviz#12");
    QCOMPARE(r.path, std::string("runs/a.memviz"));
    QCOMPARE(r.traceId, std::int64_t(12));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTraceRef("a.memviz#0"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTraceRef("a.memviz#x"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTraceRef("a.memviz#-3"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseTraceRef("a.memviz#"));
    // A file that exists with '#' in its name is taken whole.
    const QString odd = dir.filePath("trace#2.json");
    QFile f(odd);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    QCOMPARE(parseTraceRef(odd.toStdString()).path, odd.toStdString());
    QCOMPARE(parseTraceRef(odd.toStdString()).traceId, std::int64_t(0));
    QCOMPARE(parseTraceRef("#5").path, std::string("#5")); // nothing before '#': a file name
}

void TestBudget::parsesEveryKind() {
    Budget b = peak("cuda:0=12GiB");
    QCOMPARE(b.device, std::string("cuda:0"));
    QCOMPARE(b.maxBytes, 12 * GiB);
    QCOMPARE(peak("512MiB").device, std::string());
    b = parseBudget(BudgetKind::Growth, "5%", "--max-growth");
    QCOMPARE(b.maxPercent, 5.0);
    b = parseBudget(BudgetKind::Growth, "cpu=2.5%", "--max-growth");
    QCOMPARE(b.device, std::string("cpu"));
    QCOMPARE(b.maxPercent, 2.5);
    b = parseMaxBudget("op=aten::mm:1GiB", "--max");
    QVERIFY(b.kind == BudgetKind::Op);
    QCOMPARE(b.name, std::string("aten::mm")); // the size follows the last ':'
    QCOMPARE(b.maxBytes, GiB);
    b = parseMaxBudget("category=activation:4GiB", "--max");
    QVERIFY(b.kind == BudgetKind::Category);
    QCOMPARE(b.name, std::string("activation"));
    b = parseMaxBudget("site=parse_*:100", "--max");
    QVERIFY(b.kind == BudgetKind::Site);
    QCOMPARE(b.maxBytes, std::int64_t(100));
    b = parseBudget(BudgetKind::Leaked, "0", "--max-leaked");
    QCOMPARE(b.maxBytes, std::int64_t(0));
    QCOMPARE(budgetText(peak("cuda:0=12GiB")), std::string("--max-peak cuda:0=12GiB"));
}

void TestBudget::badBudgets_data() {
    QTest::addColumn<int>("kind"); // -1: --max
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown unit") << int(BudgetKind::Peak) << "12 GiBs" << "unknown size unit";
    QTest::newRow("no number") << int(BudgetKind::Peak) << "lots" << "expected a size";
    QTest::newRow("empty device") << int(BudgetKind::Peak) << "=1GiB" << "device before '=' is empty";
    QTest::newRow("growth without %") << int(BudgetKind::Growth) << "5" << "percentage";
    QTest::newRow("growth in bytes") << int(BudgetKind::Growth) << "5GiB" << "percentage";
    QTest::newRow("negative growth") << int(BudgetKind::Growth) << "-5%" << "percentage";
    QTest::newRow("unknown --max kind") << -1 << "module=Linear:1GiB" << "unknown budget kind";
    QTest::newRow("--max without size") << -1 << "op=aten::mm" << "expected a size";
    QTest::newRow("--max without kind") << -1 << "1GiB" << "expected category=NAME:SIZE";
    QTest::newRow("--max empty name") << -1 << "op=:1GiB" << "name is empty";
}

void TestBudget::badBudgets() {
    QFETCH(int, kind);
    QFETCH(QString, value);
    QFETCH(QString, message);
    try {
        if (kind < 0) parseMaxBudget(value.toStdString(), "--max");
        else parseBudget(static_cast<BudgetKind>(kind), value.toStdString(), "--opt");
        QFAIL("no error");
    } catch (const BudgetError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).contains(value), e.what());
    }
}

void TestBudget::budgetsFile() {
    const auto budgets = parseBudgetFile(R"({"max-peak": ["cuda:0=12GiB", "cpu=2GiB"], "max-growth": "5%",
        "max": ["category=activation:4GiB", "op=aten::mm:1GiB"], "max-leaked": 0})", "b.json");
    QCOMPARE(budgets.size(), std::size_t{6});
    QCOMPARE(budgets[0].device, std::string("cuda:0"));
    QCOMPARE(budgets[1].maxBytes, 2 * GiB);
    QVERIFY(budgets[2].kind == BudgetKind::Growth);
    QVERIFY(budgets[3].kind == BudgetKind::Category);
    QVERIFY(budgets[4].kind == BudgetKind::Op);
    QVERIFY(budgets[5].kind == BudgetKind::Leaked);
    QCOMPARE(budgets[5].maxBytes, std::int64_t(0));
}

void TestBudget::badBudgetsFile_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << "{\"max-peak\": " << "b.json: not valid JSON";
    QTest::newRow("not an object") << "[1]" << "expected a JSON object";
    QTest::newRow("unknown key") << R"({"max_peak": "1GiB"})" << "b.json: max_peak: unknown key";
    QTest::newRow("bad unit, names the index") << R"({"max-peak": ["1GiB", "2 furlongs"]})" << "b.json: max-peak[1]";
    QTest::newRow("wrong type") << R"({"max-leaked": true})" << "expected a string";
}

void TestBudget::badBudgetsFile() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    const QByteArray text = json.toUtf8();
    QVERIFY_THROWS_EXCEPTION(BudgetError, parseBudgetFile(std::string_view(text.constData(), std::size_t(text.size())), "b.json"));
    try {
        parseBudgetFile(std::string_view(text.constData(), std::size_t(text.size())), "b.json");
    } catch (const BudgetError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestBudget::eachKindWithinAndOver() {
    const TraceFacts f = facts();
    // Peak: cuda:0 10 GiB, cpu 2 GiB.
    QVERIFY(passes({peak("10GiB")}, f));
    QVERIFY(!passes({peak("10GiB")}, [&] { auto g = f; g.summary.devices[1].peakBytes += 1; return g; }()));
    QVERIFY(!passes({peak(std::to_string(10 * GiB - 1).c_str())}, f));
    QVERIFY(passes({peak("cpu=2GiB")}, f));
    QVERIFY(!passes({peak("cpu=2047MiB")}, f));
    // Per device: only the named one counts (cuda:0 is far above 3 GiB).
    QVERIFY(passes({peak("CPU=3GiB")}, f));
    // Categories at the peak: activation 4 GiB.
    QVERIFY(passes({parseMaxBudget("category=activation:4GiB", "--max")}, f));
    QVERIFY(!passes({parseMaxBudget("category=activation:4095MiB", "--max")}, f));
    // Operators: aten::mm allocated 3 GiB.
    QVERIFY(passes({parseMaxBudget("op=aten::mm:3GiB", "--max")}, f));
    QVERIFY(!passes({parseMaxBudget("op=aten::mm:2GiB", "--max")}, f));
    // Leaked: cpu ends with 1 MiB, cuda:0 with 0.
    QVERIFY(!passes({parseBudget(BudgetKind::Leaked, "0", "--max-leaked")}, f));
    QVERIFY(passes({parseBudget(BudgetKind::Leaked, "cuda:0=0", "--max-leaked")}, f));
    QVERIFY(passes({parseBudget(BudgetKind::Leaked, "1MiB", "--max-leaked")}, f));
    // heaptrack's own leaked figure wins over the final bytes.
    TraceFacts h = f;
    h.heaptrackLeaked = 0;
    QVERIFY(passes({parseBudget(BudgetKind::Leaked, "0", "--max-leaked")}, h));
    // Sites: a glob over the function, FILE:LINE or module; every matching site counts.
    TraceFacts s = f;
    s.hasSites = true;
    s.sites = {{"parse_header", "parse.c", "libp.so", 12, 700}, {"parse_body", "parse.c", "libp.so", 40, 300}, {"main", "", "", 0, 50}};
    QVERIFY(passes({parseMaxBudget("site=parse_*:700", "--max")}, s));
    QVERIFY(!passes({parseMaxBudget("site=parse_*:699", "--max")}, s));
    QVERIFY(passes({parseMaxBudget("site=parse.c:40:300", "--max")}, s));
    QVERIFY(!passes({parseMaxBudget("site=libp.so:400", "--max")}, s));
    const auto r = checkBudgets({parseMaxBudget("site=parse_*:699", "--max")}, s, nullptr);
    QCOMPARE(r[0].measures.size(), std::size_t{2});
    QVERIFY(r[0].measures[0].over && !r[0].measures[1].over);
}

void TestBudget::growthAgainstTheBaseline() {
    const TraceFacts f = facts();
    TraceFacts base = facts();
    base.summary.devices[1].peakBytes = 10 * GiB - 500 * MiB; // cuda:0 grew by 500 MiB: 5.13 %
    const Budget five = parseBudget(BudgetKind::Growth, "cuda:0=5%", "--max-growth");
    const Budget six = parseBudget(BudgetKind::Growth, "cuda:0=6%", "--max-growth");
    QVERIFY(!passes({five}, f, &base));
    QVERIFY(passes({six}, f, &base));
    const auto r = checkBudgets({five}, f, &base);
    QCOMPARE(*r[0].measures[0].baseline, 10 * GiB - 500 * MiB);
    // 5 % of 9.5 GiB on top of it, rounded down to whole bytes.
    QCOMPARE(r[0].measures[0].limit, static_cast<std::int64_t>((10 * GiB - 500 * MiB) * 105 / 100));
    // No growth at all passes 0 %; a shrink passes too.
    QVERIFY(passes({parseBudget(BudgetKind::Growth, "0%", "--max-growth")}, f, &f));
}

void TestBudget::errorsThatMustNotPass() {
    const TraceFacts f = facts();
    auto throwsWith = [&](const std::vector<Budget>& b, const TraceFacts& t, const TraceFacts* base, const char* words) {
        try {
            checkBudgets(b, t, base);
        } catch (const BudgetError& e) {
            if (QString::fromUtf8(e.what()).contains(QLatin1String(words))) return true;
            qWarning("%s", e.what());
        }
        return false;
    };
    QVERIFY(throwsWith({}, f, nullptr, "no budgets"));
    QVERIFY(throwsWith({parseBudget(BudgetKind::Growth, "5%", "--max-growth")}, f, nullptr, "needs --baseline"));
    TraceFacts oneDevice = f;
    oneDevice.summary.devices.pop_back();
    QVERIFY(throwsWith({peak("1GiB")}, f, &oneDevice, "different devices"));
    TraceFacts empty = f;
    for (auto& d : empty.summary.devices) d.events = 0;
    // massif counts snapshots, not events: bytes alone make a trace worth checking.
    QVERIFY(passes({peak("10GiB")}, empty));
    for (auto& d : empty.summary.devices) d.peakBytes = 0;
    QVERIFY(throwsWith({peak("1GiB")}, empty, nullptr, "no memory events"));
    QVERIFY(throwsWith({peak("1GiB")}, f, &empty, "baseline records no memory events"));
    QVERIFY(throwsWith({peak("cuda:7=1GiB")}, f, nullptr, "no device \"cuda:7\""));
    QVERIFY(throwsWith({parseMaxBudget("category=weights:1GiB", "--max")}, f, nullptr, "no category \"weights\""));
    TraceFacts noCategories = f;
    noCategories.hasCategories = false;
    noCategories.categories.clear();
    noCategories.summary.trace.format = "pytorch-cuda-snapshot";
    QVERIFY(throwsWith({parseMaxBudget("category=activation:1GiB", "--max")}, noCategories, nullptr, "has no memory categories"));
    QVERIFY(throwsWith({parseMaxBudget("op=aten::conv2d:1GiB", "--max")}, f, nullptr, "no operator \"aten::conv2d\""));
    QVERIFY(throwsWith({parseMaxBudget("site=main:1GiB", "--max")}, f, nullptr, "has no allocation sites"));
    TraceFacts s = f;
    s.hasSites = true;
    s.sites = {{"main", "", "", 0, 50}};
    QVERIFY(throwsWith({parseMaxBudget("site=parse*:1GiB", "--max")}, s, nullptr, "no allocation site matches"));
}

void TestBudget::junitNamesEveryBudget() {
    const TraceFacts f = facts();
    const auto results = checkBudgets({peak("10GiB"), parseMaxBudget("op=aten::mm:2GiB", "--max")}, f, nullptr);
    const QString xml = QString::fromStdString(budgetJUnit(results, "memviz check <a&b>"));
    QXmlStreamReader r(xml);
    int cases = 0, failures = 0;
    QString suite, failedCase, current;
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) continue;
        if (r.name() == QLatin1String("testsuite")) suite = r.attributes().value("name").toString();
        if (r.name() == QLatin1String("testcase")) {
            ++cases;
            current = r.attributes().value("name").toString();
        }
        if (r.name() == QLatin1String("failure")) {
            ++failures;
            failedCase = current;
        }
    }
    QVERIFY2(!r.hasError(), qPrintable(r.errorString()));
    QCOMPARE(suite, QStringLiteral("memviz check <a&b>"));
    QCOMPARE(cases, 2);
    QCOMPARE(failures, 1);
    QCOMPARE(failedCase, QStringLiteral("op aten::mm"));
}

QTEST_GUILESS_MAIN(TestBudget)
#include "tst_budget.moc"
