// SPDX-License-Identifier: MIT
// The lessons' plain formulas against hand calculations: tensor size in MB and MiB (the
// article's examples), decimal/binary formatting, sparse COO/CSR bytes and the break-even
// density, and views vs copies (strides, ATen's view rule, bytes each statement allocates).
#include <QtTest>

#include <stdexcept>

#include "words/Units.h"
#include "workshop/ShapeGuesses.h"
#include "workshop/SparseFormulas.h"
#include "workshop/StrideSim.h"
#include "workshop/TensorSize.h"

using namespace memviz;
using namespace memviz::workshop;

Q_DECLARE_METATYPE(Dims)

class TestWorkshopFormulas : public QObject {
    Q_OBJECT
private slots:
    void tensorSize_data();
    void tensorSize();
    void tensorSizeOverflowAndNegative();
    void batchOfADataset();
    void parsesWhatLearnersType_data();
    void parsesWhatLearnersType();
    void formatsBothUnitSystems();
    void sparseFormulas();
    void stridesAndContiguity();
    void viewRuleMatchesATen();
    void viewsShareStorageCopiesAllocate();
    void sliceKeepsTheWholeStorageAlive();
    void badStatementsGiveErrors();
    void shapeGuesses();
};

void TestWorkshopFormulas::tensorSize_data() {
    QTest::addColumn<Dims>("dims");
    QTest::addColumn<int>("elementBytes");
    QTest::addColumn<qint64>("elements");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<QString>("decimal");
    QTest::addColumn<QString>("binary");
    // 112121 * 1 * 40 * 40 = 179,393,600; * 4 = 717,574,400 B; / 1e6 = 717.5744 MB;
    // / 1048576 = 684.33 MiB.
    QTest::newRow("torch.ones((112121, 1, 40, 40))")
        << Dims{112121, 1, 40, 40} << 4 << qint64(179393600) << qint64(717574400) << "717.6 MB"
        << "684.3 MiB";
    // 100000 * 3 * 256 * 256 = 19,660,800,000; * 4 = 78,643,200,000 B = 78.6 GB = 73.2 GiB.
    QTest::newRow("torch.randn(100000, 3, 256, 256)")
        << Dims{100000, 3, 256, 256} << 4 << qint64(19660800000) << qint64(78643200000) << "78.6 GB"
        << "73.2 GiB";
    // 1000 * 3 * 4096 * 4096 = 50,331,648,000; * 4 = 201,326,592,000 B = 201.3 GB = 187.5 GiB.
    QTest::newRow("1000 images 3x4096x4096")
        << Dims{1000, 3, 4096, 4096} << 4 << qint64(50331648000) << qint64(201326592000) << "201.3 GB"
        << "187.5 GiB";
    QTest::newRow("fp16 halves") << Dims{112121, 1, 40, 40} << 2 << qint64(179393600) << qint64(358787200) << "358.8 MB"
                                 << "342.2 MiB";
    QTest::newRow("scalar") << Dims{} << 4 << qint64(1) << qint64(4) << "4 B"
                            << "4 B";
    QTest::newRow("empty") << Dims{0, 3} << 4 << qint64(0) << qint64(0) << "0 B"
                           << "0 B";
}

void TestWorkshopFormulas::tensorSize() {
    QFETCH(Dims, dims);
    QFETCH(int, elementBytes);
    const auto s = memviz::workshop::tensorSize(dims, elementBytes);
    QVERIFY(s);
    QTEST(qint64(s->elements), "elements");
    QTEST(qint64(s->bytes), "bytes");
    QTEST(QString::fromStdString(formatDecimalBytes(double(s->bytes))), "decimal");
    QTEST(QString::fromStdString(formatBytes(double(s->bytes), 1)), "binary");
    QCOMPARE(s->megabytes(), double(s->bytes) / 1e6);
    QCOMPARE(s->mebibytes(), double(s->bytes) / 1048576.0);
}

void TestWorkshopFormulas::tensorSizeOverflowAndNegative() {
    QVERIFY(!memviz::workshop::tensorSize({1LL << 40, 1LL << 40}, 4));
    QVERIFY(!memviz::workshop::tensorSize({1LL << 61}, 8));
    QVERIFY(!memviz::workshop::tensorSize({-1, 3}, 4));
    QVERIFY(memviz::workshop::tensorSize({1LL << 30, 1LL << 30}, 4)); // 2^62 bytes still fit
}

void TestWorkshopFormulas::batchOfADataset() {
    // One DataLoader batch of 64 from randn(100000, 3, 256, 256): 64 * 196608 * 4 = 50,331,648 B.
    const auto b = batchSize({100000, 3, 256, 256}, 4, 64);
    QVERIFY(b);
    QCOMPARE(b->bytes, qint64(50331648));
    QVERIFY(!batchSize({}, 4, 64));
}

void TestWorkshopFormulas::parsesWhatLearnersType_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<Dims>("dims");
    QTest::addColumn<QString>("dtype");
    QTest::newRow("ones tuple") << "torch.ones((112121, 1, 40, 40))" << Dims{112121, 1, 40, 40} << "";
    QTest::newRow("randn args") << "torch.randn(100000, 3, 256, 256)" << Dims{100000, 3, 256, 256} << "";
    QTest::newRow("times") << "1000x3x4096x4096" << Dims{1000, 3, 4096, 4096} << "";
    QTest::newRow("dtype kw") << "torch.zeros(2, 3, dtype=torch.float16)" << Dims{2, 3} << "float16";
    QTest::newRow("half") << "x = torch.empty([8, 1024], dtype=torch.half)" << Dims{8, 1024} << "float16";
    QTest::newRow("bf16 word") << "4096 4096 bf16" << Dims{4096, 4096} << "bfloat16";
    QTest::newRow("underscores") << "torch.ones(100_000, 10)" << Dims{100000, 10} << "";
    QTest::newRow("float args skipped") << "torch.full((3, 4), 1.5)" << Dims{3, 4} << "";
}

void TestWorkshopFormulas::parsesWhatLearnersType() {
    QFETCH(QString, text);
    const auto e = parseTensorExpression(text.toStdString());
    QVERIFY(e);
    QTEST(e->dims, "dims");
    QTEST(e->dtype ? QString::fromLatin1(e->dtype->name) : QString(), "dtype");
}

void TestWorkshopFormulas::formatsBothUnitSystems() {
    QCOMPARE(QString::fromStdString(formatBothUnits(717574400.0)), QStringLiteral("717.6 MB = 684.3 MiB"));
    QCOMPARE(QString::fromStdString(formatBothUnits(999.0)), QStringLiteral("999 B"));
    QCOMPARE(QString::fromStdString(formatDecimalBytes(1000.0)), QStringLiteral("1.0 kB"));
    QCOMPARE(QString::fromStdString(formatBytes(1024.0, 1)), QStringLiteral("1.0 KiB"));
    // 999,960 B is 999.96 kB, which rounds to 1000.0: shown as 1.0 MB instead.
    QCOMPARE(QString::fromStdString(formatDecimalBytes(999960.0)), QStringLiteral("1.0 MB"));
    // 1,048,575 B is 1023.999 KiB, which rounds to 1024.00 at two decimals: shown as 1.00 MiB
    // (the binary formatter carries like the decimal one; it used to print "1024.00 KiB").
    QCOMPARE(QString::fromStdString(formatBytes(1048575.0)), QStringLiteral("1.00 MiB"));
    QCOMPARE(QString::fromStdString(formatBytes(1048063.0)), QStringLiteral("1023.50 KiB"));
    QCOMPARE(QString::fromStdString(formatBytes(-1536.0)), QStringLiteral("-1.50 KiB"));
    // 2^60 bytes is 1 EiB (the old formatter stopped at TiB: "1048576.00 TiB").
    QCOMPARE(QString::fromStdString(formatBytes(1152921504606846976.0)), QStringLiteral("1.00 EiB"));
    QCOMPARE(QString::fromStdString(decimalByteUnitOfPower(2).suffix), QStringLiteral("MB"));
    QCOMPARE(QString::fromStdString(binaryByteUnitOfPower(9).suffix), QStringLiteral("EiB"));
    QCOMPARE(QString::fromStdString(formatDuration(1500000.0)), QStringLiteral("1.500 ms"));
    QCOMPARE(parseByteSize("1.5 KiB"), qint64(1536));
    QCOMPARE(parseByteSize("80GB"), qint64(80000000000));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseByteSize("12 parsecs"));
    QCOMPARE(QString::fromStdString(groupDigits(717574400)), QStringLiteral("717,574,400"));
    QCOMPARE(QString::fromStdString(groupDigits(-1000)), QStringLiteral("-1,000"));
    QCOMPARE(QString::fromStdString(groupDigits(999)), QStringLiteral("999"));
    QCOMPARE(QString::fromStdString(groupDigits(std::numeric_limits<std::int64_t>::min())),
             QStringLiteral("-9,223,372,036,854,775,808"));
}

void TestWorkshopFormulas::sparseFormulas() {
    // 10000 x 10000 float32 at 1%: nnz 1,000,000; COO 1e6 * (2*8 + 4) = 20,000,000 B;
    // CSR 10001 * 8 + 1e6 * 12 = 12,080,008 B; dense 400,000,000 B.
    const std::int64_t nnz = nonZerosAt(100000000, 0.01);
    QCOMPARE(nnz, qint64(1000000));
    QCOMPARE(cooBytes(2, nnz, 4), qint64(20000000));
    QCOMPARE(csrBytes(10000, nnz, 4), qint64(12080008));
    // Break-even: 4 / (16 + 4) = 0.2 (2-D float32), 4 / 28 = 1/7 (3-D), 8 / 24 = 1/3 (2-D float64).
    QCOMPARE(cooBreakEvenDensity(2, 4), 0.2);
    QCOMPARE(cooBreakEvenDensity(3, 4), 4.0 / 28.0);
    QCOMPARE(cooBreakEvenDensity(2, 8), 1.0 / 3.0);
    // At the break-even density COO and dense take the same bytes: 20% of 1e8 = 2e7 nnz * 20 = 4e8.
    QCOMPARE(cooBytes(2, nonZerosAt(100000000, 0.2), 4), qint64(400000000));
    // CSR break-even for 10000 x 10000 float32: (4e8 - 10001 * 8) / 12 = 33,326,666 nnz -> 0.33326666...
    QCOMPARE(csrBreakEvenDensity(10000, 10000, 4), (4e8 - 80008.0) / 12.0 / 1e8);
    QCOMPARE(nonZerosAt(10, 2.0), qint64(10));
    QCOMPARE(nonZerosAt(10, -1.0), qint64(0));
}

void TestWorkshopFormulas::stridesAndContiguity() {
    QCOMPARE(contiguousStrides({2, 3, 4}), (Dims{12, 4, 1}));
    QVERIFY(isContiguous({2, 3}, {3, 1}));
    QVERIFY(!isContiguous({3, 2}, {1, 3})); // the transpose of a 2x3
    QVERIFY(isContiguous({1, 3}, {99, 1})); // a size-1 dimension's stride does not matter
    QVERIFY(isContiguous({0, 3}, {7, 7}));
}

void TestWorkshopFormulas::viewRuleMatchesATen() {
    // Contiguous: any view of the same numel works and is row-major.
    QCOMPARE(viewStrides({2, 3, 4}, {12, 4, 1}, {6, 4}), std::optional<Dims>(Dims{4, 1}));
    // Transposed 2x3 (shape 3x2, strides 1,3): flattening needs a copy.
    QVERIFY(!viewStrides({3, 2}, {1, 3}, {6}));
    // ... but splitting a dimension inside one chunk is fine: [3, 2] -> [3, 2, 1].
    QCOMPARE(viewStrides({3, 2}, {1, 3}, {3, 2, 1}), std::optional<Dims>(Dims{1, 3, 3}));
    // A column slice x[:, :3] of a 4x6 (shape 4x3, strides 6,1): the rows cannot merge...
    QVERIFY(!viewStrides({4, 3}, {6, 1}, {12}));
    // ... but x[:, ::2] (shape 4x3, strides 6,2) is evenly spaced: 0, 2, 4, 6, ... -> stride 2.
    QCOMPARE(viewStrides({4, 3}, {6, 2}, {12}), std::optional<Dims>(Dims{2}));
    // A row slice x[::2] of a 4x6 (shape 2x6, strides 12,1) can split its rows: [2, 2, 3].
    QCOMPARE(viewStrides({2, 6}, {12, 1}, {2, 2, 3}), std::optional<Dims>(Dims{12, 3, 1}));
}

void TestWorkshopFormulas::viewsShareStorageCopiesAllocate() {
    // x = torch.empty(1000, 1000) float32: 4,000,000 B.
    const std::vector<StrideStatement> p = {
        stmt::create("x", {1000, 1000}), stmt::view("v", "x", {100, 10000}),
        stmt::transpose("t", "x", 0, 1), stmt::view("bad", "t", {-1}),
        stmt::reshape("r", "t", {-1}),   stmt::contiguous("c", "x"),
        stmt::contiguous("tc", "t"),     stmt::clone("k", "x"),
    };
    const auto steps = runStrideProgram(p, 4);
    QCOMPARE(steps.size(), p.size());
    QCOMPARE(steps[0].allocatedBytes, qint64(4000000));
    QCOMPARE(steps[0].liveBytes, qint64(4000000));
    QCOMPARE(steps[0].code, std::string("x = torch.empty(1000, 1000)"));
    QVERIFY(steps[1].sharesStorage); // view: no bytes
    QCOMPARE(steps[1].allocatedBytes, qint64(0));
    QVERIFY(steps[2].sharesStorage && !steps[2].contiguous); // transpose: a view, not contiguous
    QCOMPARE(steps[2].result->strides, (Dims{1, 1000}));
    QVERIFY(!steps[3].error.empty()); // view of the transpose fails...
    QVERIFY(!steps[3].result);
    QVERIFY(!steps[4].sharesStorage); // ...reshape copies instead: 4 MB more
    QCOMPARE(steps[4].allocatedBytes, qint64(4000000));
    QCOMPARE(steps[4].liveBytes, qint64(8000000));
    QCOMPARE(steps[4].result->shape, (Dims{1000000}));
    QVERIFY(steps[5].sharesStorage); // contiguous() of a contiguous tensor is itself
    QCOMPARE(steps[5].allocatedBytes, qint64(0));
    QCOMPARE(steps[6].allocatedBytes, qint64(4000000)); // contiguous() of the transpose copies
    QCOMPARE(steps[7].allocatedBytes, qint64(4000000)); // clone() always copies
    QCOMPARE(steps[7].liveBytes, qint64(16000000));
    QCOMPARE(steps[7].code, std::string("k = x.clone()"));
}

void TestWorkshopFormulas::sliceKeepsTheWholeStorageAlive() {
    // y = x[:10] of a 1000x1000 float32 is 40 kB of data, but keeps all 4 MB alive after del x;
    // z = x[:10].clone() lets the 4 MB go.
    const std::vector<StrideStatement> p = {stmt::create("x", {1000, 1000}), stmt::slice("y", "x", 0, 0, 10),
                                            stmt::clone("z", "y"), stmt::del("x"), stmt::del("y")};
    const auto steps = runStrideProgram(p, 4);
    QCOMPARE(steps[1].code, std::string("y = x[0:10]"));
    QCOMPARE(steps[1].result->shape, (Dims{10, 1000}));
    QCOMPARE(steps[1].allocatedBytes, qint64(0));
    QCOMPARE(steps[2].allocatedBytes, qint64(40000));
    QCOMPARE(steps[3].freedBytes, qint64(0)); // y still holds the storage
    QCOMPARE(steps[3].liveBytes, qint64(4040000));
    QCOMPARE(steps[4].freedBytes, qint64(4000000));
    QCOMPARE(steps[4].liveBytes, qint64(40000));
    // Every other row: shape 500x1000, stride 2000 -> not contiguous.
    const auto s2 = runStrideProgram({p[0], stmt::slice("e", "x", 0, 0, 1000, 2)}, 4);
    QCOMPARE(s2[1].result->shape, (Dims{500, 1000}));
    QCOMPARE(s2[1].result->strides, (Dims{2000, 1}));
    QVERIFY(!s2[1].contiguous);
    QCOMPARE(s2[1].code, std::string("e = x[0:1000:2]"));
}

void TestWorkshopFormulas::badStatementsGiveErrors() {
    const std::vector<StrideStatement> p = {stmt::clone("a", "nope"), stmt::create("x", {2, 3}), stmt::view("v", "x", {4}),
                                            stmt::transpose("t", "x", 0, 5), stmt::del("zzz")};
    const auto steps = runStrideProgram(p, 4);
    QVERIFY(!steps[0].error.empty());
    QVERIFY(steps[1].error.empty());
    QVERIFY(QString::fromStdString(steps[2].error).contains("invalid for input of size 6"));
    QVERIFY(!steps[3].error.empty());
    QVERIFY(!steps[4].error.empty());
    QCOMPARE(steps[4].liveBytes, qint64(24));
}

void TestWorkshopFormulas::shapeGuesses() {
    const auto has = [](const std::vector<ShapeGuess>& g, const Dims& d, const char* dtype) {
        return std::any_of(g.begin(), g.end(), [&](const ShapeGuess& s) { return s.dims == d && s.dtype == dtype; });
    };
    const auto a = guessShapes(717574400, 717574400);
    QVERIFY(has(a, {112121, 1, 40, 40}, "float32"));
    for (const auto& g : a) QCOMPARE(g.bytes, qint64(717574400));
    const auto b = guessShapes(78643200000, 78643200000);
    QVERIFY(!b.empty());
    QCOMPARE(b.front().dims, (Dims{100000, 3, 256, 256}));
    QCOMPARE(b.front().dtype, std::string("float32"));
    QVERIFY(has(guessShapes(201326592000, 201326592000), {1000, 3, 4096, 4096}, "float32"));
    // A range: [B, 3, 224, 224] float32 between 100 and 101 MiB: 602112 B per image,
    // 101 MiB / 602112 = 175.9 -> B = 175 (105,369,600 B, inside [104,857,600, 105,906,176]).
    QVERIFY(has(guessShapes(100 << 20, 101 << 20), {175, 3, 224, 224}, "float32"));
    QVERIFY(guessShapes(0, 0).empty());
    QVERIFY(guessShapes(7, 7).empty() || guessShapes(7, 7).front().dtype == std::string("uint8"));
    QCOMPARE(QString::fromStdString(dimsText({1, 2})), QStringLiteral("[1, 2]"));
}

QTEST_APPLESS_MAIN(TestWorkshopFormulas)
#include "tst_workshop_formulas.moc"
