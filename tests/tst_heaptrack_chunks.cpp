// SPDX-License-Identifier: MIT
// The heaptrack backtrace tree and per-site backtraces as compressed chunks (schema step 7,
// formats/heaptrack/HeaptrackChunks.h). A recording generated here has a tree big enough for
// several chunks, built by formulas; the expected tree follows heaptrack's own rule (a
// backtrace that starts in operator new starts at its caller), computed below from the
// formulas, never from memviz's output. The same queries must answer the same from a store
// written before step 7 (one row per node in heaptrack_trace_nodes / heaptrack_site_stacks).
#include <QtTest>

#include <algorithm>
#include <map>

#include "TestSupport.h"
#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "formats/heaptrack/HeaptrackChunks.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "store/ColumnChunk.h"
#include "store/Database.h"

using namespace memviz;
using namespace memviz::test;

namespace {

constexpr std::uint32_t kFunctions = 500;          // ips 1..500 are fn_1..fn_500
constexpr std::uint32_t kOpNewIp = kFunctions + 1; // ip 501 is operator new
constexpr std::uint32_t kNodes = 140000;           // three node chunks of 65536

std::uint32_t rawIp(std::uint32_t k) { return k % 1000 == 999 ? kOpNewIp : (k * 7) % kFunctions + 1; }
std::uint32_t rawParent(std::uint32_t k) { return k % 10 == 0 ? 0 : k % 5 == 0 ? k / 3 : k - 1; }
std::int64_t sizeOf(std::uint32_t k) { return k % 97 + 1; }
bool allocatesAt(std::uint32_t k) { return k % 3 == 1; }
std::uint64_t address(std::uint32_t ip) { return 0x10000 + std::uint64_t{ip} * 16; }

QByteArray hex(std::uint64_t v) { return QByteArray::number(static_cast<qulonglong>(v), 16); }

QByteArray stringRecord(const QByteArray& s) { return "s " + hex(static_cast<std::uint64_t>(s.size())) + " " + s + "\n"; }

// The recording: strings 1 = module, 2 = operator new, 2 + j = fn_j; ip j = fn_j at
// address(j); the nodes by rawIp/rawParent; one allocation info per allocating node, each
// allocated once and never freed.
QByteArray recording() {
    QByteArray out = "v 10400 3\nX ./generated\nI 1000 100\n";
    out += stringRecord("libgen.so");
    out += stringRecord("operator new(unsigned long)");
    for (std::uint32_t j = 1; j <= kFunctions; ++j) out += stringRecord("fn_" + QByteArray::number(j));
    for (std::uint32_t j = 1; j <= kFunctions; ++j) out += "i " + hex(address(j)) + " 1 " + hex(2 + j) + "\n";
    out += "i " + hex(address(kOpNewIp)) + " 1 2\n";
    for (std::uint32_t k = 1; k <= kNodes; ++k) out += "t " + hex(rawIp(k)) + " " + hex(rawParent(k)) + "\n";
    std::uint32_t infos = 0;
    for (std::uint32_t k = 1; k <= kNodes; ++k)
        if (allocatesAt(k)) {
            out += "a " + hex(static_cast<std::uint64_t>(sizeOf(k))) + " " + hex(k) + "\n";
            ++infos;
        }
    out += "c 1\n";
    for (std::uint32_t i = 0; i < infos; ++i) out += "+ " + hex(i) + "\n";
    out += "c 2\n";
    return out;
}

// The tree heaptrack keeps: a node whose frame is operator new is replaced by its parent's
// (already replaced) node.
std::vector<HeaptrackStoredNode> expectedTree() {
    std::vector<HeaptrackStoredNode> nodes(kNodes + 1);
    for (std::uint32_t k = 1; k <= kNodes; ++k) {
        HeaptrackStoredNode n{rawIp(k), rawParent(k)};
        while (n.ip == kOpNewIp) n = nodes[n.parent];
        nodes[k] = n;
    }
    return nodes;
}

// Every allocating node with its own costs (one call, its size alive at the end = the peak,
// and leaked), keyed by the function of its innermost frame (the site).
std::map<std::string, std::vector<HeaptrackSiteStackEntry>> expectedStacksBySite(const std::vector<HeaptrackStoredNode>& tree) {
    std::map<std::string, std::vector<HeaptrackSiteStackEntry>> out;
    for (std::uint32_t k = 1; k <= kNodes; ++k)
        if (allocatesAt(k))
            out["fn_" + std::to_string(tree[k].ip)].push_back({0, k, 1, 0, sizeOf(k), sizeOf(k)});
    return out;
}

std::vector<std::string> expectedBacktrace(const std::vector<HeaptrackStoredNode>& tree, std::uint32_t node) {
    std::vector<std::string> out;
    for (std::uint32_t k = node; k != 0; k = tree[k].parent) out.push_back("fn_" + std::to_string(tree[k].ip));
    return out;
}

std::vector<std::string> functions(const std::vector<StackFrame>& frames) {
    std::vector<std::string> out;
    for (const StackFrame& f : frames) out.push_back(f.function);
    return out;
}

// Everything the readers answer, against the expectations above.
void checkStore(Database& db, std::int64_t id) {
    const std::vector<HeaptrackStoredNode> tree = expectedTree();
    const std::vector<HeaptrackStoredNode> loaded = loadHeaptrackNodes(db, id);
    QCOMPARE(loaded.size(), tree.size());
    for (std::uint32_t k = 0; k <= kNodes; ++k)
        if (!(loaded[k] == tree[k])) QFAIL(qPrintable(QStringLiteral("node %1 differs").arg(k)));
    HeaptrackNodeLookup lookup(db, id);
    for (std::uint32_t k : {1u, 999u, 65536u, 65537u, 131072u, 131073u, kNodes})
        QVERIFY2(lookup.node(k) == tree[k], qPrintable(QString::number(k)));
    QVERIFY(lookup.node(kNodes + 1) == HeaptrackStoredNode{});

    // Backtraces, across chunk boundaries; 2999's own frame is operator new: its caller's.
    for (std::uint32_t k : {1u, 2999u, 65537u, 131071u, kNodes - 1}) {
        const std::vector<StackFrame> frames = queryBacktrace(db, id, k);
        QCOMPARE(functions(frames), expectedBacktrace(tree, k));
        QCOMPARE(frames.front().address, static_cast<std::int64_t>(address(tree[k].ip)));
        QCOMPARE(frames.front().module, std::string("libgen.so"));
    }
    QVERIFY(queryBacktrace(db, id, kNodes + 5).empty());

    const auto expected = expectedStacksBySite(tree);
    const std::vector<AllocationSite> sites = queryAllocationSites(db, id);
    QCOMPARE(sites.size(), expected.size());
    std::size_t entries = 0;
    for (const AllocationSite& site : sites) {
        const auto it = expected.find(site.function);
        QVERIFY2(it != expected.end(), site.function.c_str());
        QCOMPARE(site.stacks, static_cast<std::int64_t>(it->second.size()));
        entries += it->second.size();
        std::vector<HeaptrackSiteStackEntry> got = loadHeaptrackSiteStacks(db, id, site.id);
        QCOMPARE(got.size(), it->second.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].site, static_cast<std::uint32_t>(site.id));
            got[i].site = 0;
            QVERIFY2(got[i] == it->second[i], qPrintable(QStringLiteral("%1 entry %2").arg(site.function.c_str()).arg(i)));
        }
    }
    QCOMPARE(loadHeaptrackSiteStacks(db, id).size(), entries);
    QVERIFY(entries > kHeaptrackSiteStacksPerChunk); // more than one chunk of them

    // One site's backtraces: by peak bytes, then allocations (all 1), then node id, with frames.
    const AllocationSite& top = sites.front();
    std::vector<HeaptrackSiteStackEntry> order = expected.at(top.function);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.peakBytes > b.peakBytes; });
    const std::vector<SiteStack> stacks = querySiteStacks(db, id, top.id, 5);
    QCOMPARE(stacks.size(), std::size_t(5));
    for (std::size_t i = 0; i < stacks.size(); ++i) {
        QCOMPARE(stacks[i].nodeId, static_cast<std::int64_t>(order[i].node));
        QCOMPARE(stacks[i].peakBytes, order[i].peakBytes);
        QCOMPARE(stacks[i].leakedBytes, order[i].leakedBytes);
        QCOMPARE(functions(stacks[i].frames), expectedBacktrace(tree, order[i].node));
    }
    QCOMPARE(querySiteStacks(db, id, top.id).size(), order.size());
    QVERIFY(heaptrackHasSiteStacks(db, id));
}

} // namespace

class TestHeaptrackChunks : public QObject {
    Q_OBJECT
private slots:
    void treeAndSiteStacksComeBackAsWritten();
    void storeWrittenBeforeChunksReadsTheSame();
    void damagedChunks();
    void fixedWidthChunksStillRead();
};

void TestHeaptrackChunks::treeAndSiteStacksComeBackAsWritten() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "heaptrack.gen", recording());
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    // Chunks, not rows: 140000 nodes in chunks of 65536.
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_node_chunks").value_or(-1), 3);
    QCOMPARE(queryInt(db, "SELECT sum(node_count) FROM heaptrack_node_chunks").value_or(-1), kNodes);
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_trace_nodes").value_or(-1), 0);
    QCOMPARE(queryInt(db, "SELECT count(*) FROM heaptrack_site_stacks").value_or(-1), 0);
    QVERIFY(queryInt(db, "SELECT count(*) FROM heaptrack_site_stack_chunks").value_or(-1) >= 2);
    checkStore(db, id);
    // A gap between chunks is damage, named as such.
    db.exec("UPDATE heaptrack_node_chunks SET first_node = first_node + 1 WHERE first_node > 1");
    QVERIFY_THROWS_EXCEPTION(StoreError, loadHeaptrackNodes(db, id));
}

// A store imported before schema step 7 has rows, no chunks, and no heaptrack_sites.stacks:
// the rows written here are the expected tree and stacks (not read back from the chunks).
void TestHeaptrackChunks::storeWrittenBeforeChunksReadsTheSame() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "heaptrack.gen", recording());
    Database db(dir.filePath("h.memviz").toStdString());
    const std::int64_t id = importFile(db, path.toStdString(), Progress{});
    const std::vector<HeaptrackStoredNode> tree = expectedTree();
    const auto stacks = expectedStacksBySite(tree);
    {
        Transaction tx(db);
        db.exec("DELETE FROM heaptrack_node_chunks");
        db.exec("DELETE FROM heaptrack_site_stack_chunks");
        db.exec("UPDATE heaptrack_sites SET stacks = NULL");
        Statement n(db, "INSERT INTO heaptrack_trace_nodes(trace_id, node_id, ip_id, parent_id) VALUES (?,?,?,?)");
        for (std::uint32_t k = 1; k <= kNodes; ++k)
            n.bind(1, id).bind(2, std::int64_t{k}).bind(3, std::int64_t{tree[k].ip}).bind(4, std::int64_t{tree[k].parent}).run();
        Statement site(db, "SELECT site_id FROM heaptrack_sites WHERE trace_id = ? AND function = ?");
        Statement s(db, "INSERT INTO heaptrack_site_stacks(trace_id, site_id, node_id, allocations, temporary, peak_bytes, "
                        "leaked_bytes) VALUES (?,?,?,?,?,?,?)");
        for (const auto& [function, entries] : stacks) {
            site.bind(1, id).bind(2, function);
            QVERIFY(site.step());
            const std::int64_t siteId = site.int64(0);
            site.reset();
            for (const HeaptrackSiteStackEntry& e : entries)
                s.bind(1, id).bind(2, siteId).bind(3, std::int64_t{e.node}).bind(4, e.allocations).bind(5, e.temporary)
                    .bind(6, e.peakBytes).bind(7, e.leakedBytes).run();
        }
        tx.commit();
    }
    checkStore(db, id);
}

void TestHeaptrackChunks::damagedChunks() {
    const std::vector<HeaptrackStoredNode> nodes{{3, 0}, {4, 10}, {5, 11}};
    const std::vector<unsigned char> blob = encodeHeaptrackNodes(nodes, 10);
    QCOMPARE(decodeHeaptrackNodes(blob, 10), nodes);
    // Decoded as if the chunk started at node 1, node 2's parent (10) would come after it.
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackNodes(blob, 1));
    std::vector<unsigned char> cut(blob.begin(), blob.end() - 3);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackNodes(cut, 10));
    const std::vector<HeaptrackSiteStackEntry> entries{{0, 5, 1, 0, 8, 8}, {0, 9, 2, 1, 0, 0}, {3, 2, 1, 1, -4, 7}};
    QCOMPARE(decodeHeaptrackSiteStacks(encodeHeaptrackSiteStacks(entries)), entries);
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackSiteStacks(blob)); // a node chunk: wrong row size
}

// Stores written before schema version 12 hold node and site stack chunks of fixed-width
// columns (codec 1): little-endian u32 and i64 columns after a u32 row count, built here by hand
// from docs/formats-native.md. They decode to what they say; the narrow chunks written now
// decode to the same, and take fewer bytes before compression.
void TestHeaptrackChunks::fixedWidthChunksStillRead() {
    const auto fixed = [](std::uint32_t rows, const std::vector<std::vector<std::int64_t>>& columns, const std::vector<int>& widths) {
        columns::Builder chunk(rows, 64, false);
        for (std::size_t c = 0; c < columns.size(); ++c)
            for (const std::int64_t v : columns[c])
                for (int b = 0; b < widths[c]; ++b) chunk.raw().push_back(static_cast<unsigned char>(static_cast<std::uint64_t>(v) >> (8 * b)));
        return chunk.compress();
    };
    // Nodes 20, 21, 22: parents 0, 20, 20 (steps 20, 1, 2), ips 7, 8, 9.
    const std::vector<HeaptrackStoredNode> nodes{{7, 0}, {8, 20}, {9, 20}};
    const std::vector<unsigned char> oldNodes = fixed(3, {{20, 1, 2}, {7, 8, 9}}, {4, 4});
    QCOMPARE(decodeHeaptrackNodes(oldNodes, 20), nodes);
    QCOMPARE(decodeHeaptrackNodes(encodeHeaptrackNodes(nodes, 20), 20), nodes);
    // A chain of 1000 nodes, 50 ips: the steps are all 1 (a constant column, no bytes), the
    // ips one byte each, where codec 1 spends eight bytes a node.
    std::vector<HeaptrackStoredNode> chain;
    for (std::uint32_t i = 0; i < 1000; ++i) chain.push_back({i % 50, i});
    const std::vector<unsigned char> chainBlob = encodeHeaptrackNodes(chain, 1);
    QCOMPARE(decodeHeaptrackNodes(chainBlob, 1), chain);
    QCOMPARE(columns::decompress(chainBlob, 1 << 20, "chunk").size(), std::size_t{8 + 9 + 9 + 1000});
    // Site 4's nodes 30 and 35, site 6's node 31: site steps 4, 0, 2; nodes 30, 5 (a step), 31.
    const std::vector<HeaptrackSiteStackEntry> entries{{4, 30, 3, 1, 64, 0}, {4, 35, 1, 0, 16, 16}, {6, 31, 9, 9, -8, 0}};
    const std::vector<unsigned char> oldStacks =
        fixed(3, {{4, 0, 2}, {30, 5, 31}, {3, 1, 9}, {1, 0, 9}, {64, 16, -8}, {0, 16, 0}}, {4, 4, 8, 8, 8, 8});
    QCOMPARE(decodeHeaptrackSiteStacks(oldStacks), entries);
    QCOMPARE(decodeHeaptrackSiteStacks(encodeHeaptrackSiteStacks(entries)), entries);
    // A narrow node chunk whose ip column holds a value past u32 is damaged.
    columns::Builder wide(1, 64, true);
    columns::putNarrow(wide.raw(), 1, [](std::size_t) { return std::int64_t{1}; });
    columns::putNarrow(wide.raw(), 1, [](std::size_t) { return std::int64_t{1} << 32; });
    QVERIFY_THROWS_EXCEPTION(StoreError, decodeHeaptrackNodes(wide.compress(), 5));
}

QTEST_GUILESS_MAIN(TestHeaptrackChunks)
#include "tst_heaptrack_chunks.moc"
