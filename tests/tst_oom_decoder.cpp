// SPDX-License-Identifier: MIT
// The OOM message parser and its diagnosis over every message form PyTorch prints (texts as
// users posted them), wrapped and embedded in tracebacks, and over garbage. Expected numbers
// are the printed values converted by hand (1 MiB = 1048576 B, 1 GiB = 1073741824 B).
#include <QRandomGenerator>
#include <QtTest>
#include <cmath>

#include "costmodel/CudaCachingAllocator.h"
#include "workshop/OomDiagnosis.h"
#include "workshop/OomMessage.h"

using namespace memviz::workshop;

namespace {

constexpr double MiB = 1048576.0;
constexpr double GiB = 1073741824.0;
qint64 b(double value, double unit) { return std::llround(value * unit); }

} // namespace

class TestOomDecoder : public QObject {
    Q_OBJECT
private slots:
    void messageForms_data();
    void messageForms();
    void gpuDetails();
    void cpuDetails();
    void allocatorSegments();
    void diagnosis();
    void garbage_data();
    void garbage();
    void randomBytesNeverCrash();
};

void TestOomDecoder::messageForms_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("form");
    QTest::addColumn<QString>("backend");
    QTest::addColumn<qint64>("request");
    QTest::addColumn<qint64>("free");  // -1: not printed
    QTest::addColumn<qint64>("total"); // -1: not printed

    QTest::newRow("cpu windows")
        << R"(RuntimeError: [enforce fail at ..\c10\core\impl\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not enough memory: you tried to allocate 717574400 bytes.)"
        << "cpu-not-enough-memory"
        << "CPU" << qint64(717574400) << qint64(-1) << qint64(-1);
    QTest::newRow("cpu buy new ram")
        << R"(RuntimeError: [enforce fail at ..\c10\core\CPUAllocator.cpp:72] data. DefaultCPUAllocator: not enough memory: you tried to allocate 2359296 bytes. Buy new RAM!)"
        << "cpu-not-enough-memory"
        << "CPU" << qint64(2359296) << qint64(-1) << qint64(-1);
    QTest::newRow("cpu posix")
        << "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
           "allocate 78643200000 bytes. Error code 12 (Cannot allocate memory)"
        << "cpu-cannot-allocate"
        << "CPU" << qint64(78643200000) << qint64(-1) << qint64(-1);
    QTest::newRow("torch legacy") << "RuntimeError: $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM! at "
                                     "/pytorch/aten/src/TH/THGeneral.cpp:201"
                                  << "torch-legacy"
                                  << "CPU" << b(22, GiB) << qint64(-1) << qint64(-1);
    QTest::newRow("cuda cached (<1.5)") << "RuntimeError: CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 10.92 GiB total "
                                           "capacity; 8.39 GiB already allocated; 1.41 GiB free; 66.35 MiB cached)"
                                        << "gpu-semicolons"
                                        << "CUDA" << b(1.53, GiB) << b(1.41, GiB) << b(10.92, GiB);
    QTest::newRow("cuda reserved (1.5-1.9)")
        << "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.78 GiB already "
           "allocated; 17.69 MiB free; 9.83 GiB reserved in total by PyTorch)"
        << "gpu-semicolons"
        << "CUDA" << b(20, MiB) << b(17.69, MiB) << b(10.76, GiB);
    QTest::newRow("cuda max_split (1.10-2.0)")
        << "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 23.69 GiB total capacity; "
           "22.42 GiB already allocated; 41.06 MiB free; 23.04 GiB reserved in total by PyTorch) If reserved memory is >> "
           "allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
           "PYTORCH_CUDA_ALLOC_CONF"
        << "gpu-semicolons"
        << "CUDA" << b(256, MiB) << b(41.06, MiB) << b(23.69, GiB);
    QTest::newRow("cuda 2.1 capacty")
        << "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacty of 14.75 GiB "
           "of which 3.06 MiB is free. Process 62521 has 14.74 GiB memory in use. Of the allocated memory 14.23 GiB is allocated "
           "by PyTorch, and 387.48 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try "
           "setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
           "PYTORCH_CUDA_ALLOC_CONF"
        << "gpu-sentences"
        << "CUDA" << b(64, MiB) << b(3.06, MiB) << b(14.75, GiB);
    QTest::newRow("cuda 2.x")
        << "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of "
           "which 16.81 MiB is free. Including non-PyTorch memory, this process has 79.12 GiB memory in use. Of the allocated "
           "memory 77.51 GiB is allocated by PyTorch, and 1.07 GiB is reserved by PyTorch but unallocated. If reserved but "
           "unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  "
           "See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"
        << "gpu-sentences"
        << "CUDA" << b(20, MiB) << b(16.81, MiB) << b(79.15, GiB);
    QTest::newRow("cuda 0 bytes free") << "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total "
                                          "capacity of 8.00 GiB of which 0 bytes is free. Of the allocated memory 14.51 GiB is "
                                          "allocated by PyTorch, and 15.90 MiB is reserved by PyTorch but unallocated."
                                       << "gpu-sentences"
                                       << "CUDA" << b(20, MiB) << qint64(0) << b(8, GiB);
    QTest::newRow("hip") << "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity "
                            "of 63.98 GiB of which 0 bytes is free. Of the allocated memory 63.10 GiB is allocated by PyTorch, "
                            "and 280.50 MiB is reserved by PyTorch but unallocated."
                         << "gpu-sentences"
                         << "HIP" << b(2, MiB) << qint64(0) << b(63.98, GiB);
    QTest::newRow("xpu")
        << "XPU out of memory. Tried to allocate 512.00 MiB. GPU 1 has a total capacity of 15.11 GiB of which 300.00 MiB is "
           "free. Of the allocated memory 14.20 GiB is allocated by PyTorch, and 100.00 MiB is reserved by PyTorch but "
           "unallocated. Please use `empty_cache` to release all unoccupied cached memory."
        << "gpu-sentences"
        << "XPU" << b(512, MiB) << b(300, MiB) << b(15.11, GiB);
    QTest::newRow("mps")
        << "RuntimeError: MPS backend out of memory (MPS allocated: 18.09 GB, other allocations: 384.00 KB, max allowed: 18.13 "
           "GB). Tried to allocate 50.00 MB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for "
           "memory allocations (may cause system failure)."
        << "mps-backend"
        << "MPS" << b(50, MiB) << qint64(-1) << qint64(-1);
    QTest::newRow("cuda error, no numbers")
        << "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API "
           "call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1."
        << "gpu-no-numbers"
        << "CUDA" << qint64(-1) << qint64(-1) << qint64(-1);
    QTest::newRow("wrapped in a traceback")
        << "Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n    out = model(x)\n"
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 1 has a\n   total capacity of 93.02 GiB "
           "of which 1.18 GiB is free. Process 2752205 has 91.82 GiB memory in use.\n"
           "Of the allocated memory 90.63 GiB is allocated by PyTorch, and 120.54 MiB is reserved by PyTorch but unallocated.\n"
        << "gpu-sentences"
        << "CUDA" << b(1.25, GiB) << b(1.18, GiB) << b(93.02, GiB);
}

void TestOomDecoder::messageForms() {
    QFETCH(QString, text);
    const OomMessage m = parseOomMessage(text.toStdString());
    QVERIFY(m.recognized());
    QTEST(QString::fromLatin1(oomFormId(m.form)), "form");
    QTEST(QString::fromStdString(m.backend), "backend");
    QTEST(m.request ? qint64(m.request->bytes) : qint64(-1), "request");
    QTEST(m.free ? qint64(m.free->bytes) : qint64(-1), "free");
    QTEST(m.total ? qint64(m.total->bytes) : qint64(-1), "total");
    QVERIFY(!m.excerpt.empty());
    QVERIFY(text.simplified().contains(QString::fromStdString(m.excerpt)));
}

void TestOomDecoder::gpuDetails() {
    // 2.x with this process's memory and the expandable_segments advice.
    OomMessage m = parseOomMessage(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB "
        "of which 16.81 MiB is free. Including non-PyTorch memory, this process has 79.12 GiB memory in use. Of the "
        "allocated memory 77.51 GiB is allocated by PyTorch, and 1.07 GiB is reserved by PyTorch but unallocated. If "
        "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
        "fragmentation.  See documentation for Memory Management  "
        "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)");
    QCOMPARE(m.device, 0);
    QCOMPARE(m.request->text, std::string("20.00 MiB"));
    QCOMPARE(m.allocated->bytes, b(77.51, GiB));
    QCOMPARE(m.reservedUnallocated->bytes, b(1.07, GiB));
    QCOMPARE(m.reserved->bytes, b(77.51, GiB) + b(1.07, GiB));
    QCOMPARE(m.processes.size(), std::size_t(1));
    QCOMPARE(m.processes[0].pid, qint64(-1));
    QCOMPARE(m.processes[0].inUse.bytes, b(79.12, GiB));
    QVERIFY(m.suggestsExpandableSegments);
    QVERIFY(!m.suggestsMaxSplitSize);
    QVERIFY(QString::fromStdString(m.excerpt).endsWith("is reserved by PyTorch but unallocated."));
    QVERIFY(QString::fromStdString(m.excerpt).startsWith("CUDA out of memory."));
    // The printed "20.00" is known to +-0.005 MiB.
    QCOMPARE(m.request->low, qint64(std::ceil(20 * MiB - 0.005 * MiB)));
    QCOMPARE(m.request->high, qint64(std::floor(20 * MiB + 0.005 * MiB)));

    // CUDA graphs' private pools and another process.
    m = parseOomMessage("CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 39.39 GiB of which "
                        "1.50 GiB is free. Process 4242 has 2.00 GiB memory in use. Including non-PyTorch memory, this "
                        "process has 35.80 GiB memory in use. Of the allocated memory 30.50 GiB is allocated by PyTorch, with "
                        "4.00 GiB allocated in private pools (e.g., CUDA Graphs), and 512.00 MiB is reserved by PyTorch but "
                        "unallocated.");
    QCOMPARE(m.device, 3);
    QCOMPARE(m.privatePools->bytes, b(4, GiB));
    QCOMPARE(m.reservedUnallocated->bytes, b(512, MiB));
    QCOMPARE(m.processes.size(), std::size_t(2));
    QCOMPARE(m.processes[1].pid, qint64(4242)); // the "this process" entry is found first

    // set_per_process_memory_fraction in the 1.x form.
    m = parseOomMessage(
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; "
        "480.00 MiB already allocated; 5.95 GiB free; 512.00 MiB allowed; 500.00 MiB reserved in total by PyTorch)");
    QCOMPARE(m.allowed->bytes, b(512, MiB));
    QCOMPARE(m.reserved->bytes, b(500, MiB));
    QCOMPARE(m.reservedUnallocated->bytes, b(20, MiB));

    // The sentence form's "N allowed;" before "Of the allocated memory".
    m = parseOomMessage("CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which "
                        "10.00 GiB is free. 12.00 GiB allowed; Of the allocated memory 11.50 GiB is allocated by PyTorch, and "
                        "100.00 MiB is reserved by PyTorch but unallocated.");
    QCOMPARE(m.allowed->bytes, b(12, GiB));

    // Pre-1.5 "cached" is the reserved-but-unallocated part.
    m = parseOomMessage("CUDA out of memory. Tried to allocate 1.53 GiB (GPU 0; 10.92 GiB total capacity; 8.39 GiB already "
                        "allocated; 1.41 GiB free; 66.35 MiB cached)");
    QCOMPARE(m.reservedUnallocated->bytes, b(66.35, MiB));
    QCOMPARE(m.reserved->bytes, b(8.39, GiB) + b(66.35, MiB));

    // MPS fields.
    m = parseOomMessage("MPS backend out of memory (MPS allocated: 18.09 GB, other allocations: 384.00 KB, max allowed: "
                        "18.13 GB). Tried to allocate 50.00 MB on private pool.");
    QCOMPARE(m.allocated->bytes, b(18.09, GiB));
    QCOMPARE(m.otherAllocations->bytes, b(384, 1024));
    QCOMPARE(m.allowed->bytes, b(18.13, GiB));
}

void TestOomDecoder::cpuDetails() {
    OomMessage m = parseOomMessage("DefaultCPUAllocator: can't allocate memory: you tried to allocate 78643200000 bytes. "
                                   "Error code 12 (Cannot allocate memory)");
    QVERIFY(m.request->exact());
    QCOMPARE(m.errorCode, 12);
    QCOMPARE(m.errorText, std::string("Cannot allocate memory"));
    QCOMPARE(m.excerpt, std::string("DefaultCPUAllocator: can't allocate memory: you tried to allocate 78643200000 bytes. "
                                    "Error code 12 (Cannot allocate memory)"));
    m = parseOomMessage("DefaultCPUAllocator: not enough memory: you tried to allocate 2359296 bytes. Buy new RAM!");
    QVERIFY(m.buyNewRam);
    QCOMPARE(m.excerpt, std::string("DefaultCPUAllocator: not enough memory: you tried to allocate 2359296 bytes. Buy new RAM!"));
    // TH printed whole GiB, rounded down: 22GB means [22, 23) GiB.
    m = parseOomMessage("$ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM!");
    QCOMPARE(m.request->low, b(22, GiB));
    QCOMPARE(m.request->high, b(23, GiB) - 1);
    QVERIFY(m.buyNewRam);
}

void TestOomDecoder::allocatorSegments() {
    // "20.00 MiB": a 1-10 MiB tensor in a 20 MiB segment, or an 18-20 MiB tensor rounded up.
    OomDiagnosis d = diagnose(
        parseOomMessage("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; "
                        "9.78 GiB already allocated; 17.69 MiB free; 9.83 GiB reserved in total by PyTorch)"));
    QCOMPARE(d.tensorReason, TensorRangeReason::LargeBuffer);
    QCOMPARE(d.tensorLow, qint64(1048577));
    QCOMPARE(d.tensorHigh, qint64(10 * 1048576 - 512)); // 512 B rounding: 10 MiB - 511 gets a 10 MiB segment
    QCOMPARE(d.tensorAlsoLow, qint64(18 * 1048576 + 1));
    QCOMPARE(d.tensorAlsoHigh, qint64(20 * 1048576));
    // Both readings agree with the allocator model: every tensor size in either range asks for
    // a 20 MiB segment, and the sizes just outside them do not.
    using A = memviz::costmodel::CudaCachingAllocator;
    const auto segment = [](qint64 t) { return A::segmentSize(A::roundSize(t)); };
    for (const qint64 t : {d.tensorLow, d.tensorHigh, d.tensorAlsoLow, d.tensorAlsoHigh}) QCOMPARE(segment(t), qint64(20 << 20));
    for (const qint64 t : {d.tensorLow - 1, d.tensorHigh + 1, d.tensorAlsoLow - 1, d.tensorAlsoHigh + 1})
        QVERIFY(segment(t) != qint64(20 << 20));
    // "12.00 MiB" has one reading: a tensor in (10 MiB, 12 MiB].
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 12.00 MiB (GPU 0; 10.76 GiB total capacity; "
                                 "9.78 GiB already allocated; 7.69 MiB free; 9.83 GiB reserved in total by PyTorch)"));
    QCOMPARE(d.tensorReason, TensorRangeReason::RoundedTo2MiB);
    QCOMPARE(d.tensorLow, qint64(10 * 1048576 + 1));
    QCOMPARE(d.tensorHigh, qint64(12 * 1048576));
    // "10.00 MiB": a tensor from 10 MiB - 511 B (rounded up to 512 B) to 10 MiB.
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 10.00 MiB (GPU 0; 10.76 GiB total capacity; "
                                 "9.78 GiB already allocated; 7.69 MiB free; 9.83 GiB reserved in total by PyTorch)"));
    QCOMPARE(d.tensorReason, TensorRangeReason::RoundedTo2MiB);
    QCOMPARE(d.tensorLow, qint64(10 * 1048576 - 511));
    QCOMPARE(d.tensorHigh, qint64(10 * 1048576));
    QCOMPARE(segment(d.tensorLow), qint64(10 << 20));
    QVERIFY(segment(d.tensorLow - 1) != qint64(10 << 20));
    QCOMPARE(d.tensorAlsoLow, qint64(0));
    // "2.00 MiB": a tensor of at most 1 MiB.
    d = diagnose(parseOomMessage("HIP out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 63.98 GiB of "
                                 "which 0 bytes is free. Of the allocated memory 63.10 GiB is allocated by PyTorch, and 280.50 "
                                 "MiB is reserved by PyTorch but unallocated."));
    QCOMPARE(d.tensorReason, TensorRangeReason::SmallSegment);
    QCOMPARE(d.tensorHigh, qint64(1048576));
    // "256.00 MiB": 256 MiB is a multiple of 2 MiB, the tensor was in (254 MiB, 256 MiB].
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 23.69 GiB total capacity; 22.42 "
                                 "GiB already allocated; 41.06 MiB free; 23.04 GiB reserved in total by PyTorch)"));
    QCOMPARE(d.tensorReason, TensorRangeReason::RoundedTo2MiB);
    QCOMPARE(d.tensorLow, qint64(254 * 1048576 + 1));
    QCOMPARE(d.tensorHigh, qint64(256 * 1048576));
    // CPU: exact.
    d = diagnose(parseOomMessage("DefaultCPUAllocator: not enough memory: you tried to allocate 717574400 bytes."));
    QCOMPARE(d.tensorReason, TensorRangeReason::Exact);
    QCOMPARE(d.tensorLow, qint64(717574400));
    QCOMPARE(d.tensorHigh, qint64(717574400));
    // XPU has its own allocator: only the printed rounding is known.
    d = diagnose(parseOomMessage("XPU out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 15.11 GiB of "
                                 "which 1.00 MiB is free. Of the allocated memory 14.20 GiB is allocated by PyTorch, and 100.00 "
                                 "MiB is reserved by PyTorch but unallocated."));
    QCOMPARE(d.tensorReason, TensorRangeReason::Printed);
}

void TestOomDecoder::diagnosis() {
    // CPU: the whole request is missing ("buy" at least that much more RAM).
    OomDiagnosis d = diagnose(parseOomMessage("DefaultCPUAllocator: can't allocate memory: you tried to allocate 78643200000 "
                                              "bytes. Error code 12 (Cannot allocate memory)"));
    QCOMPARE(*d.shortfallBytes, qint64(78643200000));
    QVERIFY(!d.capacityNeeded);

    // 1.5 form: 20 MiB wanted, 17.69 MiB free -> 2.31 MiB short; a 10.76 GiB + 2.31 MiB card
    // would have had room. Reserved-unallocated 9.83 - 9.78 = 0.05 GiB covers the shortfall.
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.78 GiB "
                                 "already allocated; 17.69 MiB free; 9.83 GiB reserved in total by PyTorch)"));
    QCOMPARE(*d.shortfallBytes, b(20, MiB) - b(17.69, MiB));
    QCOMPARE(*d.capacityNeeded, b(10.76, GiB) + b(20, MiB) - b(17.69, MiB));
    QCOMPARE(d.fragmentedBytes, b(9.83, GiB) - b(9.78, GiB));
    QVERIFY(d.fragmentationLikely);
    QVERIFY(!d.largerThanDevice);

    // 2.x: 1.07 GiB reserved-unallocated >> 20 MiB - 16.81 MiB short: fragmentation; this
    // process uses 79.12 GiB of which 77.51 + 1.07 are PyTorch's: 0.54 GiB outside it.
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.15 GiB of "
                                 "which 16.81 MiB is free. Including non-PyTorch memory, this process has 79.12 GiB memory in "
                                 "use. Of the allocated memory 77.51 GiB is allocated by PyTorch, and 1.07 GiB is reserved by "
                                 "PyTorch but unallocated."));
    QCOMPARE(*d.shortfallBytes, b(20, MiB) - b(16.81, MiB));
    QVERIFY(d.fragmentationLikely);
    QCOMPARE(d.nonPyTorchBytes, b(79.12, GiB) - b(77.51, GiB) - b(1.07, GiB));
    QCOMPARE(d.otherProcessesBytes, qint64(0));

    // Larger than the whole card: 130206.04 GiB on a 23.56 GiB GPU.
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 130206.04 GiB. GPU 0 has a total capacity of 23.56 GiB "
                                 "of which 16.57 GiB is free. Including non-PyTorch memory, this process has 6.97 GiB memory "
                                 "in use. Of the allocated memory 5.45 GiB is allocated by PyTorch, and 1.17 GiB is reserved by "
                                 "PyTorch but unallocated."));
    QVERIFY(d.largerThanDevice);
    QVERIFY(!d.fragmentationLikely);
    QCOMPARE(*d.shortfallBytes, b(130206.04, GiB) - b(16.57, GiB));

    // Another process holds memory.
    d = diagnose(parseOomMessage("CUDA out of memory. Tried to allocate 1.25 GiB. GPU 1 has a total capacity of 93.02 GiB of "
                                 "which 1.18 GiB is free. Process 2752205 has 91.82 GiB memory in use. Of the allocated memory "
                                 "90.63 GiB is allocated by PyTorch, and 120.54 MiB is reserved by PyTorch but unallocated."));
    QCOMPARE(d.otherProcessesBytes, b(91.82, GiB));
    QCOMPARE(*d.shortfallBytes, b(1.25, GiB) - b(1.18, GiB));
    // 120.54 MiB reserved-unallocated >= 0.07 GiB (71.68 MiB) short: the cache could have held it.
    QVERIFY(d.fragmentationLikely);

    // A memory fraction: 512 MiB allowed, 500 MiB reserved -> 12 MiB left under the limit, 8 MiB short.
    d = diagnose(
        parseOomMessage("CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 480.00 MiB "
                        "already allocated; 5.95 GiB free; 512.00 MiB allowed; 500.00 MiB reserved in total by PyTorch)"));
    QVERIFY(d.limitedByFraction);
    QCOMPARE(*d.shortfallBytes, b(8, MiB));
    QCOMPARE(*d.capacityNeeded, b(520, MiB));

    // MPS: 18.13 GB allowed - 18.09 GB - 384 KB = 40.58 MiB available for a 50 MiB request.
    d = diagnose(parseOomMessage("MPS backend out of memory (MPS allocated: 18.09 GB, other allocations: 384.00 KB, max "
                                 "allowed: 18.13 GB). Tried to allocate 50.00 MB on private pool."));
    QCOMPARE(*d.shortfallBytes, b(50, MiB) - (b(18.13, GiB) - b(18.09, GiB) - b(384, 1024)));

    // No numbers: nothing to compute.
    d = diagnose(parseOomMessage("RuntimeError: CUDA error: out of memory"));
    QVERIFY(!d.shortfallBytes);
}

void TestOomDecoder::garbage_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("spaces") << "   \n\t  ";
    QTest::newRow("prose") << "My training is slow, please help";
    QTest::newRow("no number") << "you tried to allocate lots of bytes";
    QTest::newRow("anchor at the end") << "Tried to allocate";
    QTest::newRow("cut off") << "DefaultCPUAllocator: not enough memory: you tried to allocate ";
    QTest::newRow("no unit") << "you tried to allocate 1234";
    QTest::newRow("bad unit") << "you tried to allocate 12 parsecs";
    QTest::newRow("huge number") << "you tried to allocate 99999999999999999999999 bytes";
    QTest::newRow("huge gib") << "you tried to allocate 999999999999 TiB";
    QTest::newRow("unicode") << QStringLiteral("内存不足，怎么办？ 显存爆了");
    QTest::newRow("value error") << "ValueError: Expected input batch_size (32) to match target batch_size (64).";
}

void TestOomDecoder::garbage() {
    QFETCH(QString, text);
    const OomMessage m = parseOomMessage(text.toStdString());
    QVERIFY(!m.recognized());
    QVERIFY(!m.request);
    const OomDiagnosis d = diagnose(m);
    QVERIFY(!d.shortfallBytes);
}

void TestOomDecoder::randomBytesNeverCrash() {
    QRandomGenerator rng(1234);
    const std::string pieces[] = {"CUDA out of memory. Tried to allocate ",
                                  "you tried to allocate ",
                                  " GiB",
                                  " bytes",
                                  "(GPU 0; ",
                                  "; ",
                                  ")",
                                  " of which ",
                                  "Of the allocated memory ",
                                  "and ",
                                  "12.5",
                                  "Process ",
                                  "MPS backend out of memory (",
                                  "max allowed: ",
                                  "\n",
                                  "9999999999999999999"};
    for (int round = 0; round < 3000; ++round) {
        std::string s;
        const int n = int(rng.bounded(12));
        for (int i = 0; i < n; ++i) {
            if (rng.bounded(2)) s += pieces[rng.bounded(int(std::size(pieces)))];
            else s += char(rng.bounded(256));
        }
        const OomMessage m = parseOomMessage(s);
        (void)diagnose(m);
    }
    // A large log: parsed in bounded time, the last message wins.
    std::string log(3 << 20, 'x');
    log += "\nDefaultCPUAllocator: not enough memory: you tried to allocate 1024 bytes.";
    QCOMPARE(parseOomMessage(log).request->bytes, qint64(1024));
}

QTEST_APPLESS_MAIN(TestOomDecoder)
#include "tst_oom_decoder.moc"
