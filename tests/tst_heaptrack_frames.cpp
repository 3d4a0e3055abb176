// SPDX-License-Identifier: MIT
// The heaptrack strings and instruction pointers with their frames as compressed chunks
// (schema step 11, formats/heaptrack/HeaptrackFrameChunks.h). A recording generated here has
// more strings and ips than one chunk holds, frames with and without file and line, and ips
// with inlined frames; every frame expected below comes from the formulas that wrote the
// recording, never from memviz's output. A store written before step 11 (a row per frame in
// heaptrack_frames, written here from the same formulas) must answer the same.
#include <QtTest>

#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "formats/heaptrack/HeaptrackStacks.h"
#include "store/Database.h"

using namespace memviz;
using namespace memviz::test;

namespace {

constexpr std::uint32_t kIps = 10000;     // three ip chunks of 4096
constexpr std::uint32_t kModules = 3;     // strings 1..3
constexpr std::uint32_t kFunctions = 9000; // strings 4..9003: fn_1..fn_9000 (three string chunks)
constexpr std::uint32_t kFiles = 50;      // strings 9004..9053

std::string moduleName(std::uint32_t m) { return "/usr/lib/libgen" + std::to_string(m) + ".so"; }
std::string fileName(std::uint32_t f) { return "src/file" + std::to_string(f) + ".cpp"; }
std::uint32_t moduleString(std::uint32_t m) { return m; }
std::uint32_t functionString(std::uint32_t f) { return kModules + f; }
std::uint32_t fileString(std::uint32_t f) { return kModules + kFunctions + f; }

// Ip j: module j % 3 + 1 at address 0x400000 + 32 j; its function fn_(j % 9000 + 1) in
// file (j % 50 + 1) at line j, except every 7th (function only: no file and line) and every
// 11th (unresolved: function 0); j % 4 inlined frames, frame d being fn_((j + d) % 9000 + 1)
// in file ((j + d) % 50 + 1) at line 1000 + d.
std::int64_t address(std::uint32_t j) { return 0x400000 + std::int64_t{j} * 32; }
bool functionOnly(std::uint32_t j) { return j % 7 == 0; }
bool unresolved(std::uint32_t j) { return j % 11 == 0; }
std::uint32_t inlinedCount(std::uint32_t j) { return unresolved(j) || functionOnly(j) ? 0 : j % 4; }

QByteArray hex(std::uint64_t v) { return QByteArray::number(static_cast<qulonglong>(v), 16); }
QByteArray stringRecord(const std::string& s) {
    return "s " + hex(s.size()) + " " + QByteArray::fromStdString(s) + "\n";
}

QByteArray ipRecord(std::uint32_t j) {
    QByteArray out = "i " + hex(static_cast<std::uint64_t>(address(j))) + " " + hex(moduleString(j % kModules + 1));
    if (unresolved(j)) return out + "\n";
    out += " " + hex(functionString(j % kFunctions + 1));
    if (functionOnly(j)) return out + "\n";
    out += " " + hex(fileString(j % kFiles + 1)) + " " + hex(j);
    for (std::uint32_t d = 1; d <= inlinedCount(j); ++d)
        out += " " + hex(functionString((j + d) % kFunctions + 1)) + " " + hex(fileString((j + d) % kFiles + 1)) + " " +
               hex(1000 + d);
    return out + "\n";
}

// Node j is ip j called from the root; one allocation of j bytes at each.
QByteArray recording() {
    QByteArray out = "v 10400 3\nX ./generated\nI 1000 100\n";
    for (std::uint32_t m = 1; m <= kModules; ++m) out += stringRecord(moduleName(m));
    for (std::uint32_t f = 1; f <= kFunctions; ++f) out += stringRecord("fn_" + std::to_string(f));
    for (std::uint32_t f = 1; f <= kFiles; ++f) out += stringRecord(fileName(f));
    for (std::uint32_t j = 1; j <= kIps; ++j) out += ipRecord(j);
    for (std::uint32_t j = 1; j <= kIps; ++j) out += "t " + hex(j) + " 0\n";
    for (std::uint32_t j = 1; j <= kIps; ++j) out += "a " + hex(j) + " " + hex(j) + "\n";
    out += "c 1\n";
    for (std::uint32_t j = 0; j < kIps; ++j) out += "+ " + hex(j) + "\n";
    out += "c 2\n";
    return out;
}

std::vector<StackFrame> expectedFrames(std::uint32_t j) {
    StackFrame own;
    own.address = address(j);
    own.module = moduleName(j % kModules + 1);
    if (!unresolved(j)) own.function = "fn_" + std::to_string(j % kFunctions + 1);
    if (!unresolved(j) && !functionOnly(j)) {
        own.file = fileName(j % kFiles + 1);
        own.line = j;
    }
    std::vector<StackFrame> out{own};
    for (std::uint32_t d = 1; d <= inlinedCount(j); ++d) {
        StackFrame f = own;
        f.function = "fn_" + std::to_string((j + d) % kFunctions + 1);
        f.file = fileName((j + d) % kFiles + 1);
        f.line = 1000 + d;
        f.inlined = true;
        out.push_back(f);
    }
    return out;
}

QString describe(const std::vector<StackFrame>& frames) {
    QStringList parts;
    for (const StackFrame& f : frames)
        parts << QStringLiteral("%1|%2|%3:%4|%5|%6")
                     .arg(QString::fromStdString(f.function), QString::fromStdString(f.module),
                          QString::fromStdString(f.file))
                     .arg(f.line)
                     .arg(f.address)
                     .arg(f.inlined);
    return parts.join(" / ");
}

// Everything the readers answer about frames, against the formulas.
void checkFrames(Database& db, std::int64_t id) {
    for (std::uint32_t j : {1u, 7u, 11u, 77u, 4095u, 4096u, 4097u, 8192u, 8193u, kIps}) {
        // Node j's backtrace is ip j's frames (its parent is the root).
        QCOMPARE(describe(queryBacktrace(db, id, j)), describe(expectedFrames(j)));
    }
    HeaptrackFrameLookup lookup(db, id);
    QVERIFY(lookup.frames(kIps + 1).empty());
    QVERIFY(lookup.frames(0).empty());
    std::uint32_t seen = 0;
    bool inOrder = true;
    forEachHeaptrackIp(db, id, [&](std::int64_t ip, std::vector<StackFrame>&& frames) {
        ++seen;
        if (ip != seen || describe(frames) != describe(expectedFrames(seen))) inOrder = false;
    });
    QCOMPARE(seen, kIps);
    QVERIFY(inOrder);
    // Sites: each ip's address is its site's (sites merge ips of equal frames: j and j + 9000
    // share a function but not a line, unless unresolved or function-only with one module).
    for (const AllocationSite& site : queryAllocationSites(db, id)) {
        const std::int64_t j = (site.address - 0x400000) / 32;
        QVERIFY2(j >= 1 && j <= kIps && address(static_cast<std::uint32_t>(j)) == site.address,
                 qPrintable(QString::number(site.address)));
    }
    // The flame graph: one allocation per ip; an unresolved ip (every 11th) is named by its own
    // address, and, called from the root, is a child of the root of its own.
    StackRequest request;
    request.metric = "allocations";
    const StackTree tree = heaptrackStackTree(db, id, request, nullptr);
    QCOMPARE(tree.total(), std::int64_t{kIps});
    int unresolvedChildren = 0;
    for (std::int32_t child : tree.nodes[0].children) {
        const StackFrameInfo& f = tree.frameAt(child);
        if (f.function.rfind("0x", 0) != 0) continue;
        ++unresolvedChildren;
        QCOMPARE(tree.nodes[static_cast<std::size_t>(child)].inclusive, std::int64_t{1});
    }
    QCOMPARE(unresolvedChildren, static_cast<int>(kIps / 11));
}

} // namespace

class TestHeaptrackFrames : public QObject {
    Q_OBJECT
private slots:
    void framesComeBackAsWritten();
    void storeWrittenBeforeFrameChunksReadsTheSame();
    void deepInliningCutsChunks();
    void damagedChunks();
};

void TestHeaptrackFrames::framesComeBackAsWritten() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "heaptrack.gen", recording());
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_frames").value_or(-1), 0);
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_frame_chunks").value_or(-1), 3);
    QCOMPARE(queryInt(db, "SELECT sum(ip_count) FROM heaptrack_frame_chunks").value_or(-1), kIps);
    QCOMPARE(queryInt(db, "SELECT sum(string_count) FROM heaptrack_string_chunks").value_or(-1), kModules + kFunctions + kFiles);
    QVERIFY(queryInt(db, "SELECT count(*) FROM heaptrack_string_chunks").value_or(-1) >= 3);
    const std::vector<std::string> strings = loadHeaptrackStrings(db, id);
    QCOMPARE(strings.size(), std::size_t{1 + kModules + kFunctions + kFiles});
    QCOMPARE(strings[0], std::string());
    QCOMPARE(strings[moduleString(2)], moduleName(2));
    QCOMPARE(strings[functionString(4097)], std::string("fn_4097"));
    QCOMPARE(strings[fileString(kFiles)], fileName(kFiles));
    checkFrames(db, id);
}

// A store imported before step 11: the frames as rows with their texts (written here from the
// formulas), no chunks.
void TestHeaptrackFrames::storeWrittenBeforeFrameChunksReadsTheSame() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "heaptrack.gen", recording());
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    {
        Transaction tx(db);
        db.exec("DELETE FROM heaptrack_frame_chunks");
        db.exec("DELETE FROM heaptrack_string_chunks");
        Statement s(db, "INSERT INTO heaptrack_frames(trace_id, ip_id, depth, address, module, function, file, line) "
                        "VALUES (?,?,?,?,?,?,?,?)");
        for (std::uint32_t j = 1; j <= kIps; ++j) {
            const std::vector<StackFrame> frames = expectedFrames(j);
            for (std::size_t d = 0; d < frames.size(); ++d)
                s.bind(1, id)
                    .bind(2, std::int64_t{j})
                    .bind(3, static_cast<std::int64_t>(d))
                    .bind(4, frames[d].address)
                    .bind(5, frames[d].module)
                    .bind(6, frames[d].function)
                    .bind(7, frames[d].file)
                    .bind(8, frames[d].line)
                    .run();
        }
        tx.commit();
    }
    checkFrames(db, id);
}

// Ips with 60,000 inlined frames each: a chunk is cut once 196,608 are pending (four ips), so
// that no chunk holds more than kHeaptrackInlinedPerChunk; one ip may not have more than
// kHeaptrackMaxInlined.
void TestHeaptrackFrames::deepInliningCutsChunks() {
    const auto deepIp = [](std::uint32_t inlined) {
        QByteArray line = "i 1000 1 2 3 1";
        for (std::uint32_t d = 0; d < inlined; ++d) line += " 2 3 " + hex(d + 2);
        return line + "\n";
    };
    QByteArray text = "v 10400 3\nX ./deep\ns 7 libx.so\ns 5 inner\ns 5 f.cpp\n";
    for (int k = 0; k < 6; ++k) text += deepIp(60000);
    text += "t 6 0\na 10 1\nc 1\n+ 0\n";
    QTemporaryDir dir;
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, writeFile(dir, "heaptrack.deep", text).toStdString(), Progress{});
    std::vector<std::int64_t> counts;
    Statement s(db, "SELECT ip_count FROM heaptrack_frame_chunks WHERE trace_id = ? ORDER BY first_ip");
    s.bind(1, id);
    while (s.step()) counts.push_back(s.int64(0));
    QCOMPARE(counts, (std::vector<std::int64_t>{4, 2}));
    const std::vector<StackFrame> frames = queryBacktrace(db, id, 1); // node 1 is ip 6
    QCOMPARE(frames.size(), std::size_t{60001});
    QCOMPARE(frames.back().line, std::int64_t{60001});
    QVERIFY(frames.back().inlined);
    QCOMPARE(frames.back().function, std::string("inner"));

    QByteArray tooDeep = "v 10400 3\nX ./deep\ns 7 libx.so\ns 5 inner\ns 5 f.cpp\n" + deepIp(kHeaptrackMaxInlined + 1);
    Database db2(dir.filePath("h2.memviz").toStdString());
    try {
        importFile(db2, writeFile(dir, "heaptrack.toodeep", tooDeep).toStdString(), Progress{});
        QFAIL("an ip with more inlined frames than kHeaptrackMaxInlined was imported");
    } catch (const ImportError& e) {
        QVERIFY2(std::string(e.what()).find("65536 frames inlined into one instruction pointer") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("line 6") != std::string::npos, e.what());
    }
}

void TestHeaptrackFrames::damagedChunks() {
    HeaptrackIpChunk chunk;
    chunk.ips = {{0x7f0000001000, 1, {2, 3, 40}, 2}, {0, 0, {0, 0, 0}, 0}, {-5, 4, {5, 0, 0}, 1}};
    chunk.inlined = {{6, 3, 41}, {7, 3, 42}, {8, 0, 9}};
    const std::vector<unsigned char> blob = encodeHeaptrackIps(chunk);
    QCOMPARE(decodeHeaptrackIps(blob), chunk);
    std::vector<unsigned char> cut(blob.begin(), blob.end() - 3);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackIps(cut));
    HeaptrackIpChunk uneven = chunk;
    uneven.ips[0].inlinedCount = 3; // counts add up to 4, three frames stored
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackIps(encodeHeaptrackIps(uneven)));

    const std::vector<std::string_view> strings{"", "operator new(unsigned long)", std::string_view("a\0b", 3)};
    const std::vector<std::string> back = decodeHeaptrackStrings(encodeHeaptrackStrings(strings));
    QCOMPARE(back.size(), strings.size());
    for (std::size_t i = 0; i < strings.size(); ++i) QCOMPARE(std::string_view(back[i]), strings[i]);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackStrings(blob)); // an ip chunk: lengths past the end
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackIps(encodeHeaptrackStrings(strings)));

    // In a store: a string id past the strings, and a gap between ip chunks, are damage.
    QTemporaryDir dir;
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, writeFile(dir, "heaptrack.gen", recording()).toStdString(), Progress{});
    db.exec("DELETE FROM heaptrack_string_chunks WHERE first_string > 1");
    QVERIFY_THROWS_EXCEPTION(StoreError, queryBacktrace(db, id, 4097));
    db.exec("UPDATE heaptrack_frame_chunks SET first_ip = first_ip + 1 WHERE first_ip > 1");
    QVERIFY_THROWS_EXCEPTION(StoreError, forEachHeaptrackIp(db, id, [](std::int64_t, std::vector<StackFrame>&&) {}));
}

QTEST_GUILESS_MAIN(TestHeaptrackFrames)
#include "tst_heaptrack_frames.moc"
