// SPDX-License-Identifier: MIT
// The streaming pickle reader (PickleStream.h) against the whole-document reader: the same
// values for every pickle make_pickles.py writes (Python's own pickler, protocols 2 to 5, and
// hand-assembled opcodes), read in chunks of 1 byte up to a whole window; the same message
// and offset for every truncation; the items of a claimed list handed on in order (Python
// wrote range(2500) in APPENDS batches of 1000); a released value read again surfaces as
// StreamFallback, never as other values; dicts a sink takes flat are the dicts it would have
// been handed built.
#include <QtTest>

#include "TestSupport.h"
#include "pickle/PickleReader.h"
#include "pickle/PickleStream.h"

using namespace memviz;
using namespace memviz::pickle;

namespace {

std::string bytesOf(const QString& path) {
    const QByteArray b = memviz::test::readFile(path);
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

ByteSource chunks(const std::string& data, std::size_t size) {
    return [&data, size, at = std::size_t{0}](char* dst, std::size_t n) mutable {
        const std::size_t k = std::min({n, size, data.size() - at});
        std::memcpy(dst, data.data() + at, k);
        at += k;
        return k;
    };
}

class Sink : public StreamSink {
public:
    explicit Sink(bool claimAll, bool flat = false, bool release = true) : claimAll_(claimAll), flat_(flat), release_(release) {}
    bool claim(const Document&, std::span<const Value> below) override {
        belowSizes.push_back(below.size());
        return claimAll_ || (flat_ && below.size() == claimBelow);
    }
    void take(const Document& doc, const Value&, std::span<const Value> items) override {
        for (const Value& v : items) taken.push_back(debugString(doc, v));
    }
    bool mayRelease(const Document&, const Value&) override { return release_; }
    void forget(std::size_t) override {}
    bool acceptsFlat(const Document&, const Value&) override { return flat_ && acceptFlat; }
    // A flat dict written as debugString() writes a built one.
    void takeFlat(const Document& doc, const Value&, std::span<const Value> kv, std::span<const std::uint32_t> ends) override {
        std::uint32_t from = 0;
        for (const std::uint32_t end : ends) {
            std::string text = "{";
            for (std::uint32_t i = from; i < end; ++i)
                text += (i == from ? "" : (i - from) % 2 ? ": " : ", ") + debugString(doc, kv[i]);
            taken.push_back(text + "}");
            from = end;
            ++flatTaken;
        }
    }
    std::vector<std::size_t> belowSizes;
    std::vector<std::string> taken;
    std::size_t flatTaken = 0;
    bool acceptFlat = true;
    std::size_t claimBelow = ~std::size_t{0}; // claims the list with this many values below it (too)

private:
    bool claimAll_;
    bool flat_;
    bool release_;
};

// parse()'s message, or its values as text.
std::string whole(const std::string& data) {
    try {
        const Document doc = parse(data);
        return debugString(doc, doc.root());
    } catch (const PickleError& e) {
        return std::string("error: ") + e.what();
    }
}

std::string streamed(const std::string& data, std::size_t chunk) {
    Document doc;
    Sink sink(false);
    try {
        parseStream(doc, chunks(data, chunk), sink);
        return debugString(doc, doc.root());
    } catch (const PickleError& e) {
        return std::string("error: ") + e.what();
    } catch (const StreamFallback&) {
        return "fallback";
    }
}

// Knows each released list by its first item (as the snapshot's stack table knows a frames
// list by its stack): the memo gives it as a Known value with that id from then on. Takes the
// dicts of the claimed list as "frames=<first item>" or "frames=known:<id>".
class KnowingSink : public StreamSink {
public:
    bool claim(const Document&, std::span<const Value> below) override { return below.size() == 1; }
    void take(const Document& doc, const Value&, std::span<const Value> items) override {
        for (const Value& item : items) {
            const Value* frames = doc.find(item, "frames");
            if (!frames) {
                taken.push_back("no frames");
            } else if (frames->kind == Kind::Known) {
                taken.push_back("frames=known:" + std::to_string(frames->payload) + " " + kindName(frames->knownKind()) +
                                " depth " + std::to_string(frames->knownDepth()));
            } else {
                const auto inside = doc.items(*frames);
                const std::int64_t first = inside.empty() ? -1 : inside.front().payload;
                ids[doc.containerId(*frames)] = first;
                taken.push_back("frames=" + std::to_string(first));
            }
        }
    }
    bool mayRelease(const Document&, const Value& v) override { return v.kind == Kind::List; }
    void forget(std::size_t id) override { ids.erase(id); }
    std::optional<std::int64_t> knownAs(const Document& doc, const Value& v) override {
        const auto it = ids.find(doc.containerId(v));
        if (it == ids.end()) return std::nullopt;
        return it->second;
    }
    std::unordered_map<std::size_t, std::int64_t> ids;
    std::vector<std::string> taken;
};

} // namespace

class TestPickleStream : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameValuesInAnyChunks();
    void sameErrorsForEveryTruncation();
    void claimedListItemsAreHandedOnInOrder();
    void releasedValueReadAgainFallsBack();
    void flatDictsAreHandedOnAsBuiltOnes();
    void flatDictReadAgainFallsBack();
    void valuesHandedOnLeaveTheLimit();
    void compactedMemoKeepsLiveValues();
    void releasedListsTheSinkKnowsGiveTheirSlotsBack();

private:
    QTemporaryDir dir_;
    QStringList files_;
};

void TestPickleStream::initTestCase() {
    QVERIFY(dir_.isValid());
    if (memviz::test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for make_pickles.py");
    const auto r = memviz::test::runProcess(memviz::test::python(), {memviz::test::oracle("make_pickles.py"), dir_.path()});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const QFileInfo& f : QDir(dir_.path()).entryInfoList({"*.pickle"}, QDir::Files, QDir::Name)) files_ << f.filePath();
    QVERIFY(files_.size() >= 10);
}

void TestPickleStream::sameValuesInAnyChunks() {
    for (const QString& path : files_) {
        const std::string data = bytesOf(path);
        const std::string expected = whole(data);
        QVERIFY2(expected.rfind("error", 0) != 0, qPrintable(path));
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1} << 22})
            QVERIFY2(streamed(data, chunk) == expected, qPrintable(QString("%1 in chunks of %2").arg(path).arg(chunk)));
    }
}

void TestPickleStream::sameErrorsForEveryTruncation() {
    const std::string data = bytesOf(dir_.filePath("python_protocol4.pickle"));
    QVERIFY(data.size() > 1000);
    for (std::size_t n = 0; n < data.size(); n += (n < 300 ? 1 : 37)) {
        const std::string cut = data.substr(0, n);
        const std::string expected = whole(cut);
        QVERIFY2(expected.rfind("error: pickle: ", 0) == 0, expected.c_str());
        const std::string got = streamed(cut, 7);
        // A FRAME longer than the data is known only at the end: the stream falls back then.
        if (got == "fallback") QVERIFY2(expected.find("a frame of") != std::string::npos, expected.c_str());
        else QVERIFY2(got == expected, qPrintable(QString::fromStdString("got " + got + ", expected " + expected)));
    }
}

void TestPickleStream::claimedListItemsAreHandedOnInOrder() {
    const QString path = dir_.filePath("range.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c", "import pickle,sys; pickle.dump({'k': list(range(2500))}, open(sys.argv[1],'wb'), protocol=4)", path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    Document doc;
    Sink sink(true);
    parseStream(doc, chunks(data, 5), sink);
    QCOMPARE(sink.taken.size(), std::size_t{2500});
    for (std::size_t i = 0; i < sink.taken.size(); ++i) QCOMPARE(sink.taken[i], std::to_string(i));
    // Asked once, when the list got its first items: the root dict and the key were below it.
    QCOMPARE(sink.belowSizes, std::vector<std::size_t>{2});
    const Value* list = doc.find(doc.root(), "k");
    QVERIFY(list && doc.isStreamed(*list));
    QVERIFY_THROWS_EXCEPTION(StreamFallback, doc.items(*list));
    QCOMPARE(doc.protocol(), 4);
}

void TestPickleStream::releasedValueReadAgainFallsBack() {
    // [[x], x]: x is handed on inside the first item, released, then fetched from the memo for
    // the second one.
    const QString path = dir_.filePath("again.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c", "import pickle,sys; x=[1,2]; pickle.dump([[[x]], [x]], open(sys.argv[1],'wb'), protocol=4)", path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    QCOMPARE(whole(data), std::string("[[[[1, 2]]], [[1, 2]]]"));
    Document doc;
    Sink sink(true);
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(doc, chunks(data, 4096), sink));
}

// The fast path for plain dicts (PickleFlatDicts.cpp): a sink that takes them flat gets the
// same items, in the same order, as one that has them built, for dicts of every scalar kind
// and memo references (strings, a shared list) mixed with items that are not plain (a nested
// list, a str) and with dicts that set one key (SETITEM) or none. The first batch (before the
// list is claimed) is always built; after it, the plain dicts are read flat.
void TestPickleStream::flatDictsAreHandedOnAsBuiltOnes() {
    const QString path = dir_.filePath("flat.pickle");
    const char* script =
        "import pickle,sys\n"
        "shared=[{'f': 'a.py', 'l': 3}]\n"
        "items=[]\n"
        "for i in range(3500):\n"
        "    if i % 997 == 5: items.append({'nested': [i, i + 1]})\n"
        "    elif i % 991 == 7: items.append('text %d' % i)\n"
        "    elif i % 983 == 9: items.append({'one': i})\n"
        "    elif i % 977 == 11: items.append({})\n"
        "    else: items.append({'action': 'alloc' if i % 2 else 'free', 'addr': 2**47 + 512 * i, 'size': i * 7,\n"
        "                        'neg': -i, 'big': 2**64 - 1 - i, 'f': 0.5 * i, 'b': i % 3 == 0, 'n': None,\n"
        "                        'frames': shared, 'w': 2**31 + i, 'h': 40000 + i})\n"
        "pickle.dump({'k': items}, open(sys.argv[1], 'wb'), protocol=4)\n";
    const auto r = memviz::test::runProcess(memviz::test::python(), {"-c", script, path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    for (const std::size_t chunk : {std::size_t{7}, std::size_t{4096}, std::size_t{1} << 22}) {
        Document built, flat;
        // Only the list under the root's key is claimed (not the frames list inside the items).
        Sink builtSink(false, true, false), flatSink(false, true, false);
        builtSink.claimBelow = flatSink.claimBelow = 2;
        builtSink.acceptFlat = false;
        parseStream(built, chunks(data, chunk), builtSink);
        parseStream(flat, chunks(data, chunk), flatSink);
        QCOMPARE(flatSink.taken.size(), std::size_t{3500});
        QVERIFY(flatSink.taken == builtSink.taken);
        QCOMPARE(builtSink.flatTaken, std::size_t{0});
        // Batches of 1000: the first is built, and so are the items that are not plain dicts
        // (and, read in small chunks, the dicts that straddle the end of the window).
        QVERIFY2(flatSink.flatTaken > 2000, qPrintable(QString::number(flatSink.flatTaken)));
    }
}

// A dict read flat is not on the stack and not in the memo: a pickle that fetches it again
// (the same dict object twice in the list) falls back to reading the whole tree, whose values
// are right; the sink that has dicts built reads it in place.
void TestPickleStream::flatDictReadAgainFallsBack() {
    const QString path = dir_.filePath("twice.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c",
         "import pickle,sys; d={'x': -1, 'y': -2}; "
         "pickle.dump([[{'x': i, 'y': i} for i in range(1500)] + [d, d]], open(sys.argv[1],'wb'), protocol=4)",
         path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    {
        Document doc;
        Sink built(false, true, false);
        built.claimBelow = 1;
        built.acceptFlat = false;
        parseStream(doc, chunks(data, 4096), built);
        QCOMPARE(built.taken.size(), std::size_t{1502});
        QCOMPARE(built.taken.back(), std::string("{\"x\": -1, \"y\": -2}"));
    }
    Document doc;
    Sink flat(false, true, false);
    flat.claimBelow = 1;
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(doc, chunks(data, 4096), flat));
}

// The values limit bounds the values held: read as a stream, the items handed on and released
// leave it, so a list far longer than the limit streams through (a 3 GB snapshot creates more
// values than a quarter of this machine's memory could hold at once). Not streamed, the same
// pickle is refused with the same message as by the whole-tree reader.
void TestPickleStream::valuesHandedOnLeaveTheLimit() {
    const QString path = dir_.filePath("long.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c",
         "import pickle,sys; pickle.dump({'k': [{'a': i, 'b': [i]} if i % 2 else {'a': i, 'c': None} for i in range(20000)]}, "
         "open(sys.argv[1],'wb'), protocol=4)",
         path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    Limits limits;
    limits.maxValues = 20000; // the items alone are as many; with their keys and values, 5 times more
    QString wholeError;
    try {
        parse(data, limits);
    } catch (const PickleError& e) {
        wholeError = e.what();
    }
    QVERIFY2(wholeError.contains("more than 20000 values (limit)"), qPrintable(wholeError));
    for (const bool flat : {false, true}) {
        Document doc;
        Sink sink(false, true, true);
        sink.claimBelow = 2;
        sink.acceptFlat = flat;
        parseStream(doc, chunks(data, 4096), sink, limits);
        QCOMPARE(sink.taken.size(), std::size_t{20000});
        QCOMPARE(sink.taken.back(), std::string("{\"a\": 19999, \"b\": [19999]}"));
        if (flat) QVERIFY(sink.flatTaken > 9000);
    }
    Document doc;
    Sink none(false);
    try {
        parseStream(doc, chunks(data, 4096), none, limits);
        QFAIL("a stream that hands nothing on was not held to the limit");
    } catch (const PickleError& e) {
        QCOMPARE(QString(e.what()), wholeError);
    }
}

// 40,000 dicts read flat fill ten memo pages (PickleMemo.h); the pages behind are compacted
// as the list goes on. The keys memoised in the first page are fetched by every later dict and
// stay readable; the dicts read flat come out as the built ones; the first dict, memoised in a
// compacted page and fetched again at the end, falls back to the whole tree.
void TestPickleStream::compactedMemoKeepsLiveValues() {
    const QString path = dir_.filePath("compacted.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c",
         "import pickle,sys; ds=[{'x': i, 'y': 'text'} for i in range(40000)]; "
         "pickle.dump([ds + [{'x': -1, 'y': 'end'}], ds[0]], open(sys.argv[1],'wb'), protocol=4)",
         path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    Document builtDoc;
    Sink built(false, true, true);
    built.claimBelow = 1;
    built.acceptFlat = false;
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(builtDoc, chunks(data, 4096), built));
    Document flatDoc;
    Sink flat(false, true, true);
    flat.claimBelow = 1;
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(flatDoc, chunks(data, 4096), flat));
    // Both read every dict before the fetch at the end; the flat ones read their keys from the
    // compacted first page.
    QCOMPARE(flat.taken.size(), std::size_t{40001});
    QVERIFY2(flat.flatTaken > 38000, qPrintable(QString::number(flat.flatTaken))); // dicts the window cuts are built
    QVERIFY(flat.taken == built.taken);
    QCOMPARE(flat.taken[39999], std::string("{\"x\": 39999, \"y\": \"text\"}"));
    QCOMPARE(flat.taken.back(), std::string("{\"x\": -1, \"y\": \"end\"}"));
}

// 20,000 dicts each with a list of its own (a snapshot's trace entries with frames lists of
// their own): once handed on, each list the sink knows becomes a Known value in the memo and
// its container slot is used again, so the document holds a batch's containers, not 20,000.
// The list of dict 7 fetched again at the end comes back as the Known value of the sink's id 7
// (a list, one level deep); a Known value added to comes out as StreamFallback.
void TestPickleStream::releasedListsTheSinkKnowsGiveTheirSlotsBack() {
    const QString path = dir_.filePath("own_lists.pickle");
    const auto r = memviz::test::runProcess(
        memviz::test::python(),
        {"-c",
         "import pickle,sys; ls=[[i, i + 1] for i in range(20000)]; "
         "pickle.dump([[{'frames': l} for l in ls] + [{'frames': ls[7]}]], open(sys.argv[1],'wb'), protocol=4)",
         path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const std::string data = bytesOf(path);
    Document doc;
    KnowingSink sink;
    parseStream(doc, chunks(data, 65536), sink);
    QCOMPARE(sink.taken.size(), std::size_t{20001});
    QCOMPARE(sink.taken[19999], std::string("frames=19999"));
    QCOMPARE(sink.taken.back(), std::string("frames=known:7 list depth 1"));
    // A batch of 1,000 dicts and their lists is built before it is handed on: 2,000 slots.
    QVERIFY2(doc.containerCount() < 2100, qPrintable(QString::number(doc.containerCount())));
    // Without an id from the sink, every list keeps its slot.
    Document kept;
    Sink plain(false, true, true);
    plain.claimBelow = 1;
    plain.acceptFlat = false;
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(kept, chunks(data, 65536), plain)); // ls[7] released
    QVERIFY(kept.containerCount() > 20000);

    const QString added = dir_.filePath("added_to_known.pickle");
    const auto r2 = memviz::test::runProcess(
        memviz::test::python(),
        {"-c",
         "import pickle,sys,io; ls=[[i] for i in range(3)]; b=io.BytesIO(); p=pickle.Pickler(b, 4); "
         "p.dump([[{'frames': l} for l in ls], ls[1]]); d=b.getvalue(); "
         // ls[1] fetched at the end, then one more item appended to it: a changed released list.
         "d=d[:-2] + bytes([75, 5, 97]) + d[-2:]; open(sys.argv[1],'wb').write(d)", // BININT1 5, APPEND
         added});
    QVERIFY2(r2.exitCode == 0, r2.err.constData());
    Document addedDoc;
    KnowingSink addedSink;
    QVERIFY_THROWS_EXCEPTION(StreamFallback, parseStream(addedDoc, chunks(bytesOf(added), 65536), addedSink));
}

QTEST_GUILESS_MAIN(TestPickleStream)
#include "tst_pickle_stream.moc"
