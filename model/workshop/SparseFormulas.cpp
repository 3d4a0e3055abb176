// SPDX-License-Identifier: MIT
#include "workshop/SparseFormulas.h"

#include <algorithm>
#include <cmath>

namespace memviz::workshop {

std::int64_t cooBytes(int sparseDims, std::int64_t nnz, int elementBytes) {
    return nnz * (static_cast<std::int64_t>(sparseDims) * kSparseIndexBytes + elementBytes);
}

std::int64_t csrBytes(std::int64_t rows, std::int64_t nnz, int elementBytes) {
    return (rows + 1) * kSparseIndexBytes + nnz * (kSparseIndexBytes + elementBytes);
}

double cooBreakEvenDensity(int sparseDims, int elementBytes) {
    return static_cast<double>(elementBytes) / (sparseDims * kSparseIndexBytes + elementBytes);
}

double csrBreakEvenDensity(std::int64_t rows, std::int64_t cols, int elementBytes) {
    const double numel = static_cast<double>(rows) * static_cast<double>(cols);
    if (numel <= 0) return 0.0;
    const double nnz = (numel * elementBytes - static_cast<double>(rows + 1) * kSparseIndexBytes) /
                       (kSparseIndexBytes + elementBytes);
    return std::clamp(nnz / numel, 0.0, 1.0);
}

std::int64_t nonZerosAt(std::int64_t numel, double density) {
    const double d = std::clamp(density, 0.0, 1.0);
    return std::clamp<std::int64_t>(std::llround(static_cast<double>(numel) * d), 0, numel);
}

} // namespace memviz::workshop
