// SPDX-License-Identifier: MIT
#include "store/ColumnChunk.h"

#include <mutex>
#include <zstd.h>

#include "core/Errors.h"

namespace memviz::columns {

namespace {
constexpr int kLevel = 1;
} // namespace

struct Builder::Scratch {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    Bytes raw, out;
    ~Scratch() { ZSTD_freeCCtx(cctx); }
};

namespace {

std::mutex& poolMutex() {
    static std::mutex m;
    return m;
}
std::vector<std::unique_ptr<Builder::Scratch>>& idle() {
    static std::vector<std::unique_ptr<Builder::Scratch>> pool;
    return pool;
}

} // namespace

Builder::Builder(std::uint32_t rows, std::size_t reserveBytes, bool narrow) {
    {
        const std::lock_guard lock(poolMutex());
        if (!idle().empty()) {
            scratch_ = std::move(idle().back());
            idle().pop_back();
        }
    }
    if (!scratch_) scratch_ = std::make_unique<Scratch>();
    if (!scratch_->cctx) throw StoreError("zstd compression failed: out of memory");
    Bytes& raw = scratch_->raw;
    raw.clear();
    raw.reserve(reserveBytes);
    if (narrow) {
        raw.resize(kNarrowHeaderBytes);
        std::memcpy(raw.data(), &kNarrowMarker, 4);
        std::memcpy(raw.data() + 4, &rows, 4);
    } else {
        raw.resize(4);
        std::memcpy(raw.data(), &rows, 4);
    }
}

Builder::~Builder() {
    const std::lock_guard lock(poolMutex());
    if (idle().size() < 4) idle().push_back(std::move(scratch_));
}

Bytes& Builder::raw() { return scratch_->raw; }

std::vector<unsigned char> Builder::compress() {
    Scratch& s = *scratch_;
    s.out.resize(ZSTD_compressBound(s.raw.size()));
    const std::size_t n = ZSTD_compressCCtx(s.cctx, s.out.data(), s.out.size(), s.raw.data(), s.raw.size(), kLevel);
    if (ZSTD_isError(n)) throw StoreError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    return std::vector<unsigned char>(s.out.begin(), s.out.begin() + static_cast<std::ptrdiff_t>(n));
}

std::vector<unsigned char> decompress(std::span<const unsigned char> blob, std::size_t maxSize, const std::string& what) {
    const unsigned long long size = ZSTD_getFrameContentSize(blob.data(), blob.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > maxSize || size < 4)
        throw StoreError("damaged " + what + " in the store (bad frame header)");
    std::vector<unsigned char> raw(static_cast<std::size_t>(size));
    const std::size_t n = ZSTD_decompress(raw.data(), raw.size(), blob.data(), blob.size());
    if (ZSTD_isError(n) || n != raw.size()) throw StoreError("damaged " + what + " in the store (decompression failed)");
    return raw;
}

std::optional<std::uint32_t> narrowCount(const std::vector<unsigned char>& raw, std::size_t maxRows, const std::string& what) {
    std::uint32_t marker;
    std::memcpy(&marker, raw.data(), 4);
    if (marker != kNarrowMarker) return std::nullopt;
    std::uint32_t n;
    if (raw.size() < kNarrowHeaderBytes) throw StoreError("damaged " + what + " in the store (short header)");
    std::memcpy(&n, raw.data() + 4, 4);
    if (n > maxRows) throw StoreError("damaged " + what + " in the store (" + std::to_string(n) + " rows)");
    return n;
}

std::uint32_t readCount(const std::vector<unsigned char>& raw, std::size_t bytesPerRow, const std::string& what) {
    std::uint32_t n;
    std::memcpy(&n, raw.data(), 4);
    if (raw.size() != 4 + std::size_t{n} * bytesPerRow) throw StoreError("damaged " + what + " in the store (size mismatch)");
    return n;
}

} // namespace memviz::columns
