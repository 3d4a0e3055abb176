// SPDX-License-Identifier: MIT
// The streaming pickle reader (PickleStream.h) against the whole-document reader: the same
// values for every pickle make_pickles.py writes (Python's own pickler, protocols 2 to 5, and
// hand-assembled opcodes), read in chunks of 1 byte up to a whole window; the same message
// and offset for every truncation; the items of a claimed list handed on in order (Python
// wrote range(2500) in APPENDS batches of 1000); a released value read again surfaces as
// StreamFallback, never as other values.
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
    explicit Sink(bool claimAll) : claimAll_(claimAll) {}
    bool claim(const Document&, std::span<const Value> below) override {
        belowSizes.push_back(below.size());
        return claimAll_;
    }
    void take(const Document& doc, const Value&, std::span<const Value> items) override {
        for (const Value& v : items) taken.push_back(debugString(doc, v));
    }
    bool mayRelease(const Document&, const Value&) override { return true; }
    void forget(std::size_t) override {}
    std::vector<std::size_t> belowSizes;
    std::vector<std::string> taken;

private:
    bool claimAll_;
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

} // namespace

class TestPickleStream : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameValuesInAnyChunks();
    void sameErrorsForEveryTruncation();
    void claimedListItemsAreHandedOnInOrder();
    void releasedValueReadAgainFallsBack();

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

QTEST_GUILESS_MAIN(TestPickleStream)
#include "tst_pickle_stream.moc"
