// SPDX-License-Identifier: MIT
// JsonEventStream: splitting a JSON document's event array into batches of whole elements
// without holding the document, whatever the buffer boundaries.
#include <QtTest>

#include "Compression.h"
#include "TestSupport.h"
#include "core/Errors.h"
#include "io/InputFile.h"
#include "io/JsonEventStream.h"
#include "io/JsonSkip.h"

using namespace memviz;

namespace {

struct Collected {
    std::vector<std::string> events; // each element's text
    std::vector<std::pair<std::string, std::string>> members;
    std::vector<std::int64_t> batchOffsets;
};

// Splits a batch back into its elements with a tiny brace counter (independent of the stream).
void splitElements(std::string_view batch, std::vector<std::string>& out) {
    int depth = 0;
    bool inString = false, escaped = false;
    std::size_t start = std::string_view::npos;
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const char c = batch[i];
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        if (start == std::string_view::npos && c != ' ' && c != '\n') start = i;
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        if (depth == 0 && start != std::string_view::npos && (c == '}' || c == ']' || c == ' ' || i + 1 == batch.size())) {
            const std::size_t end = (c == ' ') ? i : i + 1;
            if (end > start) out.emplace_back(batch.substr(start, end - start));
            start = std::string_view::npos;
        }
    }
}

Collected collect(const QByteArray& json, std::size_t batchBytes, const QString& name = "t.json") {
    QTemporaryDir dir;
    const QString path = test::writeFile(dir, name, json);
    InputFile in(path.toStdString());
    JsonEventStream stream(in, "traceEvents", batchBytes);
    Collected c;
    stream.run(
        [&](const JsonEventStream::Batch& b) {
            // The promised padding is readable.
            volatile char last = b.data[b.size + 63];
            (void)last;
            c.batchOffsets.push_back(b.offset);
            splitElements(std::string_view(b.data, b.size), c.events);
        },
        [&](std::string_view key, std::string_view raw) { c.members.emplace_back(key, raw); });
    return c;
}

// A random JSON object or array whose strings hold brackets, quotes and backslash escapes
// (runs of them, so they fall across 64-byte blocks): its end is known by construction.
std::string randomContainer(QRandomGenerator& rng, int depth) {
    static const char* const pieces[] = {"{", "}",  "[", "]", "\\\"", "\\\\",    "\\\\\\\"",
                                         "a", "bc", " ", ",", ":",    "\\u00e9", "\\n"};
    const auto str = [&] {
        std::string t = "\"";
        const int n = rng.bounded(0, 12);
        for (int i = 0; i < n; ++i) t += pieces[rng.bounded(int(std::size(pieces)))];
        if (rng.bounded(8) == 0) t += std::string(rng.bounded(40, 200), 'x'); // long strings span blocks
        return t + "\"";
    };
    const bool object = rng.bounded(2) == 0;
    std::string t = object ? "{" : "[";
    const int n = rng.bounded(0, 6);
    for (int i = 0; i < n; ++i) {
        if (i) t += rng.bounded(2) ? "," : " ,\n ";
        if (object) t += str() + ":";
        const int kind = depth > 0 ? rng.bounded(4) : rng.bounded(3);
        if (kind == 0) t += str();
        else if (kind == 1) t += std::to_string(rng.bounded(100000));
        else if (kind == 2) t += rng.bounded(2) ? "true" : "null";
        else t += randomContainer(rng, depth - 1);
    }
    return t + (object ? "}" : "]");
}

} // namespace

class TestJsonStream : public QObject {
    Q_OBJECT
private slots:
    void skipFindsTheEndAtEveryAlignment();
    void elementsSurviveAnyBatchSize_data();
    void elementsSurviveAnyBatchSize();
    void membersBeforeAndAfter();
    void bareArrayAndCompression();
    void badStructure_data();
    void badStructure();
};

void TestJsonStream::elementsSurviveAnyBatchSize_data() {
    QTest::addColumn<int>("batchBytes");
    QTest::newRow("64 B (every element its own batch)") << 64;
    QTest::newRow("1 KiB") << 1024;
    QTest::newRow("4 MiB (one batch)") << (4 << 20);
}

void TestJsonStream::elementsSurviveAnyBatchSize() {
    QFETCH(int, batchBytes);
    // Strings with braces, brackets, commas, escaped quotes and backslashes; nested args.
    std::vector<std::string> expected;
    QByteArray json = "{\"traceEvents\": [";
    for (int i = 0; i < 3000; ++i) {
        const std::string e = "{\"name\": \"op{" + std::to_string(i) + "}, [x] \\\"q\\\" \\\\\", \"args\": {\"Input Dims\": [[" +
                              std::to_string(i % 7) + ", 2], []], \"s\": \"}\"}, \"ts\": " + std::to_string(i) + "}";
        expected.push_back(e);
        json += QByteArray::fromStdString(e) + (i + 1 < 3000 ? (i % 3 ? ",\n  " : ",") : "");
    }
    json += "]}";
    const Collected c = collect(json, static_cast<std::size_t>(batchBytes));
    QCOMPARE(c.events.size(), expected.size());
    QVERIFY(c.events == expected);
    QVERIFY(std::is_sorted(c.batchOffsets.begin(), c.batchOffsets.end()));
    QCOMPARE(c.batchOffsets.front(), 17); // just after "{\"traceEvents\": ["
}

void TestJsonStream::membersBeforeAndAfter() {
    const QByteArray json = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "V100 ]}"}],
        "traceEvents": [{"a": 1}, {"b": [2, {"c": "}"}]}],
        "baseTimeNanoseconds": 1700000000000000000, "traceName": "x\"y"})";
    const Collected c = collect(json, 1024);
    QCOMPARE(c.events, (std::vector<std::string>{"{\"a\": 1}", "{\"b\": [2, {\"c\": \"}\"}]}"}));
    QCOMPARE(c.members.size(), std::size_t{4});
    QCOMPARE(c.members[0], (std::pair<std::string, std::string>{"schemaVersion", "1"}));
    QCOMPARE(c.members[1].second, std::string("[{\"id\": 0, \"name\": \"V100 ]}\"}]"));
    QCOMPARE(c.members[2], (std::pair<std::string, std::string>{"baseTimeNanoseconds", "1700000000000000000"}));
    QCOMPARE(c.members[3].second, std::string("\"x\\\"y\""));
}

void TestJsonStream::bareArrayAndCompression() {
    const QByteArray json = "[{\"x\": 1}, {\"x\": 2},{\"x\": 3}]";
    const Collected c = collect(test::gzipped(json), 64, "t.json.gz");
    QCOMPARE(c.events, (std::vector<std::string>{"{\"x\": 1}", "{\"x\": 2}", "{\"x\": 3}"}));
    QVERIFY(c.members.empty());
    const Collected empty = collect("{\"traceEvents\": []}", 64);
    QVERIFY(empty.events.empty());
}

void TestJsonStream::badStructure_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mustSay");
    QTest::newRow("truncated in an event") << QByteArray("{\"traceEvents\": [{\"a\": 1}, {\"b\": \"str")
                                           << "byte 37: the JSON ends in the middle of an event";
    QTest::newRow("truncated after an event") << QByteArray("{\"traceEvents\": [{\"a\": 1}") << "the JSON ends after an event";
    QTest::newRow("missing comma") << QByteArray("{\"traceEvents\": [{\"a\": 1} {\"b\": 2}]}")
                                   << "byte 26: expected ',' or ']' after an event";
    QTest::newRow("events not an array") << QByteArray("{\"traceEvents\": {}}") << "byte 16: \"traceEvents\" must be an array";
    QTest::newRow("text after the document")
        << QByteArray("[{\"a\": 1}] extra") << "byte 11: unexpected text after the JSON document";
    QTest::newRow("not json") << QByteArray("hello") << "byte 0: expected a JSON object or array";
    QTest::newRow("bad member separator") << QByteArray("{\"a\": 1; \"traceEvents\": []}")
                                          << "expected ',' or '}' between members";
}

void TestJsonStream::badStructure() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mustSay);
    try {
        collect(json, 64);
        QFAIL("bad structure accepted");
    } catch (const ImportError& e) {
        QVERIFY2(QString(e.what()).contains(mustSay), e.what());
    }
}

void TestJsonStream::skipFindsTheEndAtEveryAlignment() {
    QRandomGenerator rng(20261129);
    for (int round = 0; round < 300; ++round) {
        const std::string value = randomContainer(rng, 4);
        const std::size_t offset = rng.bounded(0, 64);
        // What follows the value must not matter; 64 readable bytes after the end.
        const std::string text = std::string(offset, ' ') + value + ",{\"next\": \"}]\"}" + std::string(64, 'Z');
        const std::size_t size = text.size() - 64;
        QCOMPARE(skipJsonContainer(text.data(), offset, size), offset + value.size());
        // Cut anywhere inside the value: not complete, whatever lies beyond the cut.
        for (int cut = 0; cut < 8; ++cut) {
            const std::size_t at = offset + 1 + rng.bounded(int(value.size() - 1));
            QCOMPARE(skipJsonContainer(text.data(), offset, at), std::size_t(0));
        }
    }
}

QTEST_GUILESS_MAIN(TestJsonStream)
#include "tst_json_stream.moc"
