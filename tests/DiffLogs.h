// SPDX-License-Identifier: MIT
#pragma once
// Two allocation logs whose comparison is worked out by hand here, for the diff tests
// (tst_diff_cli: `memviz diff`; tst_compare: the Compare window).
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

} // namespace memviz::test
