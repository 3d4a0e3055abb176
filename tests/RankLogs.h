// SPDX-License-Identifier: MIT
#pragma once
// Three ranks' allocation logs whose figures are worked out by hand here, for the rank-set
// tests (tst_ranks_cli: `memviz ranks`; tst_ranks_window: the Ranks window).
#include <QByteArray>

namespace memviz::test {

// Rank 0: weights 1000 B at 0 ns, activations 500 at 10, freed at 20, tail 100 at 30.
//   Live bytes 1000, 1500, 1000, 1100: peak 1500 at 10, final 1100; at the peak weights hold
//   1000, activations 500: top operator weights (1000).
inline const QByteArray kRank0 = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,1000,weights\n"
                          "10,alloc,0x20,500,activations\n"
                          "20,free,0x20,,\n"
                          "30,alloc,0x30,100,tail\n";
// Rank 1: activations 2000 at 15, freed at 25: live 1000, 3000, 1000, 1100: peak 3000 at 15,
//   final 1100; top operator activations (2000).
inline const QByteArray kRank1 = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,1000,weights\n"
                          "15,alloc,0x20,2000,activations\n"
                          "25,free,0x20,,\n"
                          "30,alloc,0x30,100,tail\n";
// Rank 2: activations 800 at 12, freed at 22, tail 300 at 30: live 1000, 1800, 1000, 1300:
//   peak 1800 at 12, final 1300; top operator weights (1000).
inline const QByteArray kRank2 = "time_ns,action,address,size,op\n"
                          "0,alloc,0x10,1000,weights\n"
                          "12,alloc,0x20,800,activations\n"
                          "22,free,0x20,,\n"
                          "30,alloc,0x30,300,tail\n";
// Imbalance: rank 1 (3000) over rank 0 (1500) = 2.0, 1500 B apart; activations hold 2000 at
// rank 1's peak and 500 at rank 0's: +1500, the operator that differs most (weights: 0).

} // namespace memviz::test
