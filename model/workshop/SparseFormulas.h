// SPDX-License-Identifier: MIT
#pragma once
// Lesson 8's formulas: a sparse COO tensor stores, for each of its nnz non-zeros, one int64
// index per sparse dimension and one value; CSR stores int64 row pointers, int64 column
// indices and the values. Dense wins above the break-even density.
#include <cstdint>

namespace memviz::workshop {

inline constexpr int kSparseIndexBytes = 8; // torch.sparse_coo_tensor indices are int64

// nnz * (sparseDims * 8 + elementBytes): indices [sparseDims, nnz] int64 + values [nnz].
std::int64_t cooBytes(int sparseDims, std::int64_t nnz, int elementBytes);
// (rows + 1) * 8 + nnz * (8 + elementBytes): crow_indices, col_indices and values.
std::int64_t csrBytes(std::int64_t rows, std::int64_t nnz, int elementBytes);
// The density (nnz / numel) at which COO takes as much memory as the dense tensor:
// elementBytes / (sparseDims * 8 + elementBytes). 2-D float32: 4 / 20 = 20%.
double cooBreakEvenDensity(int sparseDims, int elementBytes);
// The density at which CSR takes as much memory as a dense rows x cols tensor:
// (rows * cols * e - (rows + 1) * 8) / (8 + e) / (rows * cols); about e / (8 + e) for many rows.
double csrBreakEvenDensity(std::int64_t rows, std::int64_t cols, int elementBytes);
// round(numel * density), clamped to [0, numel].
std::int64_t nonZerosAt(std::int64_t numel, double density);

} // namespace memviz::workshop
