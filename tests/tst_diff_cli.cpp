// SPDX-License-Identifier: MIT
// `memviz diff A B` (issue 13): two allocation logs whose figures are worked out by hand in
// this file, the same pair as STORE#ID references, two real heaptrack recordings compared with
// `heaptrack_print B --diff A`, and bad usage.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "DiffLogs.h"
#include "NativeToolOutput.h"
#include "TestSupport.h"

using namespace memviz::test;

namespace {

using memviz::test::kDiffLogA;
using memviz::test::kDiffLogB;

QJsonObject diffJson(const QStringList& args) {
    const ProcessResult r = runMemviz(QStringList{"diff"} + args + QStringList{"--json", "--limit", "100"});
    if (r.exitCode != 0) qWarning("memviz diff failed (%d): %s", r.exitCode, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

void compareValue(const QJsonObject& v, qint64 a, qint64 b) {
    QCOMPARE(v["a"].toInteger(), a);
    QCOMPARE(v["b"].toInteger(), b);
    QCOMPARE(v["delta"].toInteger(), b - a);
}

// A Python oracle script's JSON output for `file`.
QJsonObject oracleJson(const QString& script, const QString& file) {
    const ProcessResult r = runProcess(python(), {oracle(script), file});
    if (r.exitCode != 0) qWarning("oracle %s failed: %s", qPrintable(script), r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject rowNamed(const QJsonArray& rows, const QString& key, const QString& name) {
    for (const QJsonValue& r : rows)
        if (r.toObject()[key].toString() == name) return r.toObject();
    return {};
}

} // namespace

class TestDiffCli : public QObject {
    Q_OBJECT
private slots:
    void allocationLogs_data();
    void allocationLogs();
    void heaptrackMatchesHeaptrackPrintDiff();
    void snapshotSegmentsMatchTorchCompare_data();
    void snapshotSegmentsMatchTorchCompare();
    void snapshotBlocksAndPeakSites();
    void realSnapshotsPeakSitesAddUp();
    void memoryCategoriesAtThePeaks();
    void twoEstimatesByCategory();
    void profilerKeyAveragesMatchTheOracle();
    void alignment_data();
    void alignment();
    void badUsage_data();
    void badUsage();
};

void TestDiffCli::allocationLogs_data() {
    QTest::addColumn<bool>("throughStore");
    QTest::newRow("two files") << false;
    QTest::newRow("STORE#ID references") << true;
}

void TestDiffCli::allocationLogs() {
    QFETCH(bool, throughStore);
    QTemporaryDir dir;
    QString a = writeFile(dir, "a.csv", kDiffLogA), b = writeFile(dir, "b.csv", kDiffLogB);
    if (throughStore) {
        const QString store = dir.filePath("both.memviz");
        QCOMPARE(runMemviz({"import", a, "--db", store}).exitCode, 0);
        QCOMPARE(runMemviz({"import", b, "--db", store}).exitCode, 0);
        a = store + "#1";
        b = store + "#2";
    }
    const QJsonObject o = diffJson({a, b});
    const QJsonArray devices = o["devices"].toArray();
    QCOMPARE(devices.size(), 1);
    const QJsonObject d = devices[0].toObject();
    QVERIFY(d["in_a"].toBool() && d["in_b"].toBool());
    compareValue(d["peak_bytes"].toObject(), 400, 670);
    compareValue(d["peak_time_ns"].toObject(), 10, 15);
    compareValue(d["final_bytes"].toObject(), 150, 170);
    compareValue(d["allocations"].toObject(), 3, 3);

    // Per operator, bytes allocated: a 100/100, b 300/500, c 50/0, d 0/70.
    const QJsonArray ops = o["operators"].toArray();
    compareValue(rowNamed(ops, "name", "a")["bytes_allocated"].toObject(), 100, 100);
    compareValue(rowNamed(ops, "name", "b")["bytes_allocated"].toObject(), 300, 500);
    compareValue(rowNamed(ops, "name", "c")["bytes_allocated"].toObject(), 50, 0);
    compareValue(rowNamed(ops, "name", "d")["bytes_allocated"].toObject(), 0, 70);
    compareValue(rowNamed(ops, "name", "c")["allocations"].toObject(), 1, 0);
    // Most changed first: b (+200), d (+70), c (-50).
    QVERIFY(ops.size() >= 3);
    QCOMPARE(ops[0].toObject()["name"].toString(), QStringLiteral("b"));
    QCOMPARE(ops[1].toObject()["name"].toString(), QStringLiteral("d"));
    QCOMPARE(ops[2].toObject()["name"].toString(), QStringLiteral("c"));
    QVERIFY(!o.contains("sites")); // not heaptrack recordings

    // The text form shows the same peaks and the signed delta.
    const ProcessResult text = runMemviz({"diff", a, b});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("400 B") && text.out.contains("670 B") && text.out.contains("+270 B"), text.out.constData());
}

// heaptrack_print B --diff A prints, per allocation site, the change of calls and of peak
// consumption, and the changed totals. The same program recorded twice with different
// arguments (500 and 800 temporary allocations, 7 and 10 leaks).
void TestDiffCli::heaptrackMatchesHeaptrackPrintDiff() {
    const QString heaptrack = findTool("heaptrack");
    const QString print = findTool("heaptrack_print");
    if (heaptrack.isEmpty() || print.isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack)");
    QTemporaryDir dir;
    const QString a = recordWithHeaptrack(heaptrack, dir, "a", QStringLiteral(MEMVIZ_NATIVE_C));
    const QString b = recordWithHeaptrack(heaptrack, dir, "b", QStringLiteral(MEMVIZ_NATIVE_C), {"800", "10"});
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    const ProcessResult printed = runProcess(print, {"--shorten-templates=0", b, "--diff", a});
    QCOMPARE(printed.exitCode, 0);
    const HeaptrackPrintReport report = parseHeaptrackPrint(QString::fromUtf8(printed.out));
    QVERIFY(!report.byCalls.isEmpty());

    const QJsonObject o = diffJson({a, b});
    const QJsonArray sites = o["sites"].toArray();
    QVERIFY(!sites.isEmpty());
    auto find = [&](const HeaptrackPrintEntry& e) {
        for (const QJsonValue& v : sites) {
            const QJsonObject s = v.toObject();
            const QString location = s["file"].toString() + ":" + QString::number(s["line"].toInteger());
            if (s["function"].toString() == e.function && location == e.location) return s;
        }
        return QJsonObject{};
    };
    // Every site heaptrack_print lists, with the same change of calls and of peak.
    for (const HeaptrackPrintEntry& e : report.byCalls) {
        const QJsonObject s = find(e);
        QVERIFY2(!s.isEmpty(), qPrintable(e.function + " " + e.location));
        QCOMPARE(s["allocations"].toObject()["delta"].toInteger(), e.calls);
        QCOMPARE(heaptrackBytes(s["peak_bytes"].toObject()["delta"].toInteger()), e.bytes);
    }
    for (const HeaptrackPrintEntry& e : report.byTemporary)
        QCOMPARE(find(e)["temporary"].toObject()["delta"].toInteger(), e.temporary);
    // And no site that heaptrack_print leaves out changed its calls; the totals agree.
    qint64 calls = 0, temporary = 0, leaked = 0;
    int changed = 0;
    for (const QJsonValue& v : sites) {
        const QJsonObject s = v.toObject();
        calls += s["allocations"].toObject()["delta"].toInteger();
        temporary += s["temporary"].toObject()["delta"].toInteger();
        leaked += s["leaked_bytes"].toObject()["delta"].toInteger();
        changed += s["allocations"].toObject()["delta"].toInteger() != 0;
    }
    QCOMPARE(changed, report.byCalls.size());
    QCOMPARE(calls, report.calls);
    QCOMPARE(temporary, report.temporary);
    QCOMPARE(heaptrackBytes(leaked), report.leaked);
    // By hand from alloc_patterns.c: 300 more temporaries, 3 more leaks of 3049, 3056, 3063 bytes.
    QCOMPARE(calls, 303);
    QCOMPARE(temporary, 300);
    QCOMPARE(leaked, 3049 + 3056 + 3063);
}

void TestDiffCli::snapshotSegmentsMatchTorchCompare_data() {
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::newRow("dict, ring-truncated dict") << "dict_protocol2.pickle"
                                               << "ring_truncated.pickle";
    QTest::newRow("2022 segment list, dict") << "legacy_segment_list.pickle"
                                             << "dict_protocol4.pickle";
    QTest::newRow("same snapshot") << "dict_protocol5.pickle"
                                   << "dict_protocol5.pickle";
    QTest::newRow("hand-built pair") << "pair_a.pickle"
                                     << "pair_b.pickle";
}

// The segments only in A and only in B are those torch.cuda._memory_viz.compare names
// (snapshots written by make_snapshots.py; PyTorch run by tests/oracles/snapshot_compare.py).
void TestDiffCli::snapshotSegmentsMatchTorchCompare() {
    QFETCH(QString, before);
    QFETCH(QString, after);
    QTemporaryDir dir;
    const ProcessResult made = runProcess(python(), {oracle("make_snapshots.py"), dir.path()});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const ProcessResult pair = runProcess(python(), {oracle("make_snapshot_pair.py"), dir.path()});
    QVERIFY2(pair.exitCode == 0, pair.err.constData());
    const QString a = dir.filePath(before), b = dir.filePath(after);
    const ProcessResult torch = runProcess(QStringLiteral("/usr/bin/python3"), {oracle("snapshot_compare.py"), a, b});
    if (torch.exitCode == 77 || torch.exitCode == -1) MEMVIZ_SKIP_OR_FAIL("PyTorch is not installed for /usr/bin/python3");
    QVERIFY2(torch.exitCode == 0, torch.err.constData());
    const QJsonObject expected = QJsonDocument::fromJson(torch.out).object();

    const QJsonObject o = diffJson({a, b});
    QList<qint64> onlyA, onlyB;
    for (const QJsonValue& v : o["segments"].toArray()) {
        const QJsonObject s = v.toObject();
        if (s["in"] == "a") onlyA << s["address"].toInteger();
        if (s["in"] == "b") onlyB << s["address"].toInteger();
        if (s["in"] == "both")
            QVERIFY(s["allocated_bytes"].toObject()["delta"].toInteger() != 0 ||
                    s["active_bytes"].toObject()["delta"].toInteger() != 0);
    }
    std::sort(onlyA.begin(), onlyA.end());
    std::sort(onlyB.begin(), onlyB.end());
    auto list = [](const QJsonValue& v) {
        QList<qint64> out;
        for (const QJsonValue& x : v.toArray()) out << x.toInteger();
        return out;
    };
    QCOMPARE(onlyA, list(expected["only_before"]));
    QCOMPARE(onlyB, list(expected["only_after"]));
    // The blocks of those segments, summed per segment and state, are the lines compare writes.
    QJsonObject blocksA, blocksB;
    for (const QJsonValue& v : o["blocks"].toArray()) {
        const QJsonObject bl = v.toObject();
        const qint64 segment = bl["segment"].toInteger();
        const bool inA = bl["in"] == "a" && onlyA.contains(segment), inB = bl["in"] == "b" && onlyB.contains(segment);
        if (!inA && !inB) continue;
        QJsonObject& sums = inA ? blocksA : blocksB;
        const QString key = QString::number(segment) + " " + bl[inA ? "state_a" : "state_b"].toString();
        sums[key] = sums[key].toInteger() + bl["size"].toObject()[inA ? "a" : "b"].toInteger();
    }
    QCOMPARE(blocksA, expected["blocks_before"].toObject());
    QCOMPARE(blocksB, expected["blocks_after"].toObject());
    if (before == after) QVERIFY(o["segments"].toArray().isEmpty());
    else QVERIFY(!onlyA.isEmpty() || !onlyB.isEmpty());
}

// The hand-built pair of tests/oracles/make_snapshot_pair.py (its docstring says what each
// holds): the blocks that differ and what is alive at each peak, worked out by hand here.
void TestDiffCli::snapshotBlocksAndPeakSites() {
    QTemporaryDir dir;
    const ProcessResult made = runProcess(python(), {oracle("make_snapshot_pair.py"), dir.path()});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const QJsonObject o = diffJson({dir.filePath("pair_a.pickle"), dir.filePath("pair_b.pickle")});
    compareValue(o["devices"].toArray()[0].toObject()["peak_bytes"].toObject(), 500 + 1000 + (1 << 20), 500 + 2000 + 3000 + 100);

    // Blocks, as "in segment block size-A size-B state-A state-B".
    const qint64 S1 = 0x100000, S2 = 0x400000, S3 = 0x800000, MB = 1 << 20;
    auto text = [](const QJsonObject& bl) {
        return QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
            .arg(bl["in"].toString())
            .arg(bl["segment"].toInteger())
            .arg(bl["address"].toInteger())
            .arg(bl["size"].toObject()["a"].toInteger())
            .arg(bl["size"].toObject()["b"].toInteger())
            .arg(bl["state_a"].toString(), bl["state_b"].toString());
    };
    auto row = [](const char* in, qint64 seg, qint64 addr, qint64 sa, qint64 sb, const char* sta, const char* stb) {
        return QStringLiteral("%1 %2 %3 %4 %5 %6 %7").arg(in).arg(seg).arg(addr).arg(sa).arg(sb).arg(sta, stb);
    };
    QStringList got;
    for (const QJsonValue& v : o["blocks"].toArray()) got << text(v.toObject());
    const QStringList expected = {
        // A only: S1's free tail (B's blocks end further on), and both blocks of S2.
        row("a", S1, S1 + 0x600, 2 * MB - 0x600, 0, "inactive", ""),
        row("a", S2, S2, MB, 0, "active_allocated", ""),
        row("a", S2, S2 + MB, MB, 0, "inactive", ""),
        // B only: the new 100-byte block and S1's shorter free tail, and S3.
        row("b", S1, S1 + 0xa00, 0, 512, "", "active_allocated"),
        row("b", S1, S1 + 0xc00, 0, 2 * MB - 0xc00, "", "inactive"),
        row("b", S3, S3, 0, 2 * MB, "", "inactive"),
        // Both: 0x100200 grew from 1024 to 2048 (0x100000 is the same and not listed).
        row("both", S1, S1 + 0x200, 1024, 2048, "active_allocated", "active_allocated"),
    };
    QCOMPARE(got, expected);
    const QJsonObject grown = o["blocks"].toArray()[6].toObject();
    compareValue(grown["requested_size"].toObject(), 1000, 2000);
    QCOMPARE(grown["site_a"].toString(), "f2 (model.py:20)");

    // Alive at each peak by site. A: f1 500, f2 1000, f3 1 MiB. B's peak comes after the 100
    // of f1; the temporary 1000 of f2 was freed before it, the 3000 of f4 is freed after it:
    // f1 500 + 100, f2 2000, f4 3000. Most changed first.
    const QJsonArray peak = o["alive_at_peak"].toArray();
    QCOMPARE(peak.size(), 4);
    const QStringList order = {"f3 (model.py:30)", "f4 (model.py:40)", "f2 (model.py:20)", "f1 (model.py:10)"};
    for (int i = 0; i < 4; ++i) QCOMPARE(peak[i].toObject()["site"].toString(), order[i]);
    compareValue(peak[0].toObject()["bytes"].toObject(), MB, 0);
    compareValue(peak[1].toObject()["bytes"].toObject(), 0, 3000);
    compareValue(peak[2].toObject()["bytes"].toObject(), 1000, 2000);
    compareValue(peak[2].toObject()["allocations"].toObject(), 1, 1); // not the temporary
    compareValue(peak[3].toObject()["bytes"].toObject(), 500, 600);
    compareValue(peak[3].toObject()["allocations"].toObject(), 1, 2);
}

// Two real snapshots (different jobs): what is alive at each peak, summed over the sites, is
// that snapshot's peak as the import's replay found it (the device table).
void TestDiffCli::realSnapshotsPeakSitesAddUp() {
    MEMVIZ_REQUIRE_FIXTURE(a, "pytorch-snapshot/bcrafton_2025.pickle");
    MEMVIZ_REQUIRE_FIXTURE(b, "pytorch-snapshot/magma27_2026.pickle");
    const ProcessResult r = runMemviz({"diff", a, b, "--json", "--limit", "1000000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    qint64 sumA = 0, sumB = 0;
    for (const QJsonValue& v : o["alive_at_peak"].toArray()) {
        sumA += v.toObject()["bytes"].toObject()["a"].toInteger();
        sumB += v.toObject()["bytes"].toObject()["b"].toInteger();
    }
    const QJsonObject peak = o["devices"].toArray()[0].toObject()["peak_bytes"].toObject();
    QCOMPARE(sumA, peak["a"].toInteger());
    QCOMPARE(sumB, peak["b"].toInteger());
    QVERIFY(sumA > 0 && sumB > 0);
}

// A real profiler trace (A) and a copy without every third [memory] event (B): each changed
// operator's calls and key_averages memory per device change as tests/oracles/
// profiler_key_averages.py computes them on the two files, and no other operator is listed.
void TestDiffCli::profilerKeyAveragesMatchTheOracle() {
    MEMVIZ_REQUIRE_FIXTURE(a, "pytorch-profiler/kineto_resnet50_v100_2021.pt.trace.json.gz");
    QTemporaryDir dir;
    const QString b = dir.filePath("fewer_memory_events.pt.trace.json");
    const char* derive = "import gzip, json, sys\n"
                         "d = json.loads(gzip.open(sys.argv[1]).read())\n"
                         "n = [0]\n"
                         "def keep(e):\n"
                         "    if e.get('name') != '[memory]': return True\n"
                         "    n[0] += 1\n"
                         "    return n[0] % 3 != 0\n"
                         "d['traceEvents'] = [e for e in d['traceEvents'] if keep(e)]\n"
                         "open(sys.argv[2], 'w').write(json.dumps(d))\n";
    const ProcessResult made = runProcess(python(), {"-c", QString::fromLatin1(derive), a, b});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    const QJsonObject opsA = oracleJson("profiler_key_averages.py", a)["ops"].toObject();
    const QJsonObject opsB = oracleJson("profiler_key_averages.py", b)["ops"].toObject();
    QVERIFY(!opsA.isEmpty() && !opsB.isEmpty());
    const ProcessResult r = runMemviz({"diff", a, b, "--json", "--limit", "100000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonArray rows = QJsonDocument::fromJson(r.out).object()["key_averages"].toArray();

    // The operators the oracle sees change (calls or any memory figure).
    QStringList changed;
    for (const QString& name : opsA.keys() + opsB.keys()) {
        const QJsonObject x = opsA[name].toObject(), y = opsB[name].toObject();
        bool differs = false;
        for (const QString& key : x.keys() + y.keys()) differs = differs || x[key].toInteger() != y[key].toInteger();
        if (differs && !changed.contains(name)) changed << name;
    }
    QVERIFY(changed.size() > 5);
    QStringList listed;
    for (const QJsonValue& v : rows) {
        const QJsonObject row = v.toObject();
        const QString name = row["name"].toString();
        listed << name;
        const QJsonObject x = opsA[name].toObject(), y = opsB[name].toObject();
        compareValue(row["calls"].toObject(), x["calls"].toInteger(), y["calls"].toInteger());
        const QJsonObject memory = row["memory"].toObject();
        QVERIFY(memory.contains("cpu") && memory.contains("cuda:0"));
        for (const QString& device : memory.keys())
            for (const char* key : {"mem", "self_mem", "allocs", "alloc_bytes"}) {
                const QString k = device + ":" + key;
                const QJsonObject value = memory[device].toObject()[key].toObject();
                if (value["a"].toInteger() != x[k].toInteger() || value["b"].toInteger() != y[k].toInteger())
                    QFAIL(qPrintable(QString("%1 %2: memviz %3 -> %4, oracle %5 -> %6")
                                         .arg(name, k)
                                         .arg(value["a"].toInteger())
                                         .arg(value["b"].toInteger())
                                         .arg(x[k].toInteger())
                                         .arg(y[k].toInteger())));
            }
    }
    std::sort(listed.begin(), listed.end());
    std::sort(changed.begin(), changed.end());
    QCOMPARE(listed, changed);
}

// A real memory-timeline export (A) and a copy without every third activation row (B): the
// categories at each trace's peak are those tests/oracles/memory_timeline.py computes.
void TestDiffCli::memoryCategoriesAtThePeaks() {
    MEMVIZ_REQUIRE_FIXTURE(a, "pytorch-memory-timeline/hta_memory_timeline.raw.json.gz");
    QTemporaryDir dir;
    const QString b = dir.filePath("fewer_activations.raw.json");
    const char* derive = "import gzip, json, sys\n"
                         "rows = json.loads(gzip.open(sys.argv[1]).read())\n"
                         "kept = [r for i, r in enumerate(rows) if not (r[3] == 4 and i % 3 == 0)]\n"
                         "open(sys.argv[2], 'w').write(json.dumps(kept))\n";
    const ProcessResult made = runProcess(python(), {"-c", QString::fromLatin1(derive), a, b});
    QVERIFY2(made.exitCode == 0, made.err.constData());
    auto oracleOf = [](const QString& file) { return oracleJson("memory_timeline.py", file); };
    const QJsonObject expectA = oracleOf(a), expectB = oracleOf(b);
    QVERIFY(expectA["peak_bytes"].toInteger() != expectB["peak_bytes"].toInteger());

    const QJsonObject o = diffJson({a, b});
    const QJsonArray devices = o["devices"].toArray();
    QCOMPARE(devices.size(), 1);
    compareValue(devices[0].toObject()["peak_bytes"].toObject(), expectA["peak_bytes"].toInteger(),
                 expectB["peak_bytes"].toInteger());
    const QJsonArray categories = o["categories"].toArray();
    QCOMPARE(categories.size(), 8);
    qint64 previous = std::numeric_limits<qint64>::max();
    for (const QJsonValue& v : categories) {
        const QJsonObject c = v.toObject();
        const QString name = c["category"].toString();
        const QJsonObject at = c["at_peak_bytes"].toObject();
        QCOMPARE(at["a"].toInteger(), expectA["breakdown"].toObject()[name].toInteger()); // absent: 0
        QCOMPARE(at["b"].toInteger(), expectB["breakdown"].toObject()[name].toInteger());
        QVERIFY(std::llabs(at["delta"].toInteger()) <= previous); // most changed first
        previous = std::llabs(at["delta"].toInteger());
    }
    QCOMPARE(categories[0].toObject()["category"].toString(), QStringLiteral("activation"));
}

// Two cost-model estimates saved as traces (--save) compare category by category: each side's
// figures are what `memviz estimate --json` printed for it (its peak and its breakdown at the
// peak, computed by the cost model, not read back from the store). A bigger batch leaves the
// parameters and the optimizer state as they were.
void TestDiffCli::twoEstimatesByCategory() {
    QTemporaryDir dir;
    const QString store = dir.filePath("estimates.memviz");
    auto estimateJson = [&](const QString& batch) {
        const ProcessResult r = runMemviz({"estimate", "--model", "resnet18", "--batch", batch, "--save", store, "--json"});
        if (r.exitCode != 0) qWarning("%s", r.err.constData());
        return QJsonDocument::fromJson(r.out).object();
    };
    const QJsonObject a = estimateJson("8"), b = estimateJson("32");
    QCOMPARE(a["saved"].toObject()["trace_id"].toInteger(), 1);
    QCOMPARE(b["saved"].toObject()["trace_id"].toInteger(), 2);
    const QJsonObject o = diffJson({store + "#1", store + "#2"});
    const QJsonArray devices = o["devices"].toArray();
    QCOMPARE(devices.size(), 1);
    QCOMPARE(devices[0].toObject()["device"].toString(), QStringLiteral("cpu"));
    compareValue(devices[0].toObject()["peak_bytes"].toObject(), a["peak_bytes"].toInteger(), b["peak_bytes"].toInteger());
    const QJsonArray categories = o["categories"].toArray();
    QCOMPARE(categories.size(), 8);
    // The JSON keys of `memviz estimate` (parameters_bytes, ...) by the names the trace uses.
    const QMap<QString, QString> key{{"parameters", "parameters_bytes"},        {"gradients", "gradients_bytes"},
                                     {"optimizer state", "optimizer_state_bytes"}, {"activations", "activations_bytes"},
                                     {"input batch", "input_bytes"},            {"temporaries", "temporaries_bytes"},
                                     {"kv cache", "kv_cache_bytes"},            {"allocator overhead", "allocator_overhead_bytes"}};
    for (const QJsonValue& v : categories) {
        const QJsonObject c = v.toObject();
        const QString name = c["category"].toString();
        QVERIFY2(key.contains(name), qPrintable(name));
        QVERIFY2(a.contains(key[name]), qPrintable(key[name]));
        compareValue(c["at_peak_bytes"].toObject(), a[key[name]].toInteger(), b[key[name]].toInteger());
    }
    QCOMPARE(rowNamed(categories, "category", "parameters")["at_peak_bytes"].toObject()["delta"].toInteger(), 0);
    QCOMPARE(rowNamed(categories, "category", "optimizer state")["at_peak_bytes"].toObject()["delta"].toInteger(), 0);
    QVERIFY(rowNamed(categories, "category", "activations")["at_peak_bytes"].toObject()["delta"].toInteger() > 0);
}

// --align: B's shift and where B's peak lands, worked out from the times written above.
void TestDiffCli::alignment_data() {
    QTest::addColumn<QString>("align");
    QTest::addColumn<QString>("used");
    QTest::addColumn<qint64>("shiftNs");
    QTest::newRow("auto: the first step both mark") << "auto" << "step:0" << qint64(0);
    QTest::newRow("start") << "start" << "start" << qint64(0);
    QTest::newRow("step 1") << "step:1" << "step:1" << qint64((100 - 300) * 1000);
    QTest::newRow("peak") << "peak" << "peak" << qint64((120 - 350) * 1000);
    QTest::newRow("marker") << "marker:my_label" << "marker:my_label" << qint64((150 - 330) * 1000);
}

void TestDiffCli::alignment() {
    QFETCH(QString, align);
    QFETCH(QString, used);
    QFETCH(qint64, shiftNs);
    QTemporaryDir dir;
    const QString a = writeFile(dir, "a.pt.trace.json", diffProfilerTrace(1'000'000, 100, 150, 20, 120, 300));
    const QString b = writeFile(dir, "b.pt.trace.json", diffProfilerTrace(5'000'000, 300, 330, 50, 350, 350));
    const QJsonObject o = diffJson({a, b, "--align", align});
    const QJsonObject alignment = o["alignment"].toObject();
    QCOMPARE(alignment["requested"].toString(), align);
    QCOMPARE(alignment["used"].toString(), used);
    QCOMPARE(alignment["shift_ns"].toInteger(), shiftNs);
    const QJsonObject cuda = rowNamed(o["devices"].toArray(), "device", "cuda:0");
    compareValue(cuda["peak_bytes"].toObject(), 300, 350);
    compareValue(cuda["peak_time_ns"].toObject(), 120'000, 350'000);
    QCOMPARE(cuda["peak_offset_ns"].toInteger(), 350'000 + shiftNs - 120'000);
    // The text says the same.
    const ProcessResult text = runMemviz({"diff", a, b, "--align", align});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("lined up at " + used.toUtf8() + ": B's times shifted by "), text.out.constData());

    // A step or a marker one trace lacks is an error that names the trace and what it has.
    const ProcessResult missing = runMemviz({"diff", a, b, "--align", "step:5"});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("A has no step 5 (its steps: 0 to 1)"), missing.err.constData());
    const ProcessResult noMarker = runMemviz({"diff", a, b, "--align", "marker:nowhere"});
    QCOMPARE(noMarker.exitCode, 1);
    QVERIFY2(noMarker.err.contains("A has no marker named \"nowhere\""), noMarker.err.constData());
    // Two allocation logs mark no steps: auto falls back to the starts, step:N is refused.
    const QString log = writeFile(dir, "log.csv", kDiffLogA);
    QCOMPARE(diffJson({log, log})["alignment"].toObject()["used"].toString(), QStringLiteral("start"));
    // (the log's device is cpu, the trace's cuda:0: without --device they have nothing in common)
    const ProcessResult noSteps = runMemviz({"diff", log, a, "--align", "step:0", "--device", "cuda:0"});
    QCOMPARE(noSteps.exitCode, 1);
    QVERIFY2(noSteps.err.contains("A marks no training steps"), noSteps.err.constData());
}

void TestDiffCli::badUsage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::newRow("one trace") << QStringList{"@DIR/a.csv"} << 2 << "usage";
    QTest::newRow("missing file") << QStringList{"@DIR/a.csv", "@DIR/nope.csv"} << 1 << "nope.csv";
    QTest::newRow("bad trace id") << QStringList{"@DIR/a.csv", "@DIR/nope.memviz#x"} << 2 << "trace id";
    QTest::newRow("bad alignment") << QStringList{"@DIR/a.csv", "@DIR/a.csv", "--align", "middle"} << 2 << "--align must be";
    QTest::newRow("bad step") << QStringList{"@DIR/a.csv", "@DIR/a.csv", "--align", "step:x"} << 2 << "step number";
    QTest::newRow("no such device") << QStringList{"@DIR/a.csv", "@DIR/a.csv", "--device", "cuda:7"} << 2 << "cuda:7";
    QTest::newRow("no trace 99") << QStringList{"@DIR/a.memviz#1", "@DIR/a.memviz#99"} << 1 << "no trace with id 99";
    QTest::newRow("marker in neither") << QStringList{"@DIR/a.csv", "@DIR/a.csv", "--align", "marker:nope"} << 1
                                       << "A has no marker named \"nope\"";
    QTest::newRow("no device in common") << QStringList{"@DIR/a.csv", "@DIR/gpu.csv"} << 1
                                         << "no device in common (A: cpu; B: cuda:0)";
}

void TestDiffCli::badUsage() {
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, message);
    QTemporaryDir dir;
    writeFile(dir, "a.csv", kDiffLogA);
    writeFile(dir, "gpu.csv", "time_ns,action,address,size,device\n0,alloc,0x10,100,cuda:0\n");
    QCOMPARE(runMemviz({"import", dir.filePath("a.csv"), "--db", dir.filePath("a.memviz")}).exitCode, 0);
    for (QString& a : args) a.replace("@DIR", dir.path());
    const ProcessResult r = runMemviz(QStringList{"diff"} + args);
    QCOMPARE(r.exitCode, status);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
}

QTEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diff_cli.moc"
