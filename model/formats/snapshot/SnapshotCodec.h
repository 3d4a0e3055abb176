// SPDX-License-Identifier: MIT
#pragma once
// Packs allocation lifetimes (SnapshotAllocationRow) into compressed column BLOBs, one row per
// 64K allocations: a 1M-entry snapshot has ~300K of them, and as rows they took longer to
// insert than Python takes to read the whole file.
#include <span>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

constexpr int kCodecZstdAllocationColumns = 1;       // fixed widths (stores before schema version 9)
constexpr int kCodecZstdAllocationNarrowColumns = 2; // narrow columns (encodeAllocations)
constexpr std::size_t kAllocationsPerChunk = 65536;
// snapshot_entry_chunks.codec of a row whose entries are those of an event chunk of the same
// trace, event by event: its data is that chunk's number (8 bytes, little-endian). Rows of
// other codecs hold their events themselves (store/ChunkCodec.h). Schema version 9.
constexpr int kCodecEntriesInEventChunk = 3;

std::vector<unsigned char> encodeAllocations(std::span<const SnapshotAllocationRow> rows);
// Appends the rows of a blob (either codec) to `out`; `device` fills their device field. Throws StoreError
// for a damaged blob.
void decodeAllocations(std::span<const unsigned char> blob, int device, std::vector<SnapshotAllocationRow>& out);

} // namespace memviz
