// SPDX-License-Identifier: MIT
#pragma once
// Two allocation logs whose comparison is worked out by hand here, for the diff tests
// (tst_diff_cli: `memviz diff`; tst_compare: the Compare window), and two profiler traces
// with training steps for lining them up.
#include <QByteArray>

namespace memviz::test {

// A: 100 (a) at 0, 300 (b) at 10, b freed at 20, 50 (c) at 30.
//    Live bytes 100, 400, 100, 150: peak 400 at 10 ns, final 150, 3 allocations.
inline const QByteArray kDiffLogA = "time_ns,action,address,size,op\n"
                                    "0,alloc,0x10,100,a\n"
                                    "10,alloc,0x20,300,b\n"
                                    "20,free,0x20,,\n"
                                    "30,alloc,0x30,50,c\n";
// B: 100 (a) at 0, 500 (b) at 10, 70 (d) at 15, b freed at 20.
//    Live bytes 100, 600, 670, 170: peak 670 at 15 ns, final 170, 3 allocations.
// B - A: 0 at 0, 200 at 10, 270 at 15, 70 at 20, 20 at 30. Per operator, bytes allocated:
// a 100/100, b 300/500 (+200), c 50/0 (-50), d 0/70 (+70).
inline const QByteArray kDiffLogB = "time_ns,action,address,size,op\n"
                                    "0,alloc,0x10,100,a\n"
                                    "10,alloc,0x20,500,b\n"
                                    "15,alloc,0x40,70,d\n"
                                    "20,free,0x20,,\n";

// Two profiler traces (PyTorch 1.10+ layout) whose times are written relative to their first
// event, ProfilerStep#0 (µs): A steps 0 at 0, 1 at 100, "my_label" at 150, cuda:0 peak 300 B
// at 120; B steps 0 at 0, 1 at 300, "my_label" at 330, peak 350 B at 350.
inline QByteArray diffProfilerTrace(qint64 base, int step1, int label, int firstAlloc, int peakAt, int peakBytes) {
    auto ts = [base](int us) { return QByteArray::number(base + us); };
    auto memory = [&](int us, int bytes, int total) {
        return R"( {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 7, "tid": 1, "ts": )" + ts(us) +
               R"(, "args": {"Device Type": 1, "Device Id": 0, "Addr": )" + QByteArray::number(4096 + us) + R"(, "Bytes": )" +
               QByteArray::number(bytes) + R"(, "Total Allocated": )" + QByteArray::number(total) +
               R"(, "Total Reserved": 4096}},
)";
    };
    return R"({"schemaVersion": 1, "deviceProperties": [], "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 7, "tid": 1, "ts": )" +
           ts(0) + R"(, "dur": )" + QByteArray::number(step1) + R"(},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 7, "tid": 1, "ts": )" +
           ts(step1) + R"(, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "my_label", "pid": 7, "tid": 1, "ts": )" +
           ts(label) + R"(, "dur": 10},
)" + memory(firstAlloc, 100, 100) +
           memory(peakAt, peakBytes - 100, peakBytes) + memory(peakAt + 30, -peakBytes, 0).chopped(2) + "\n]}";
}

} // namespace memviz::test
