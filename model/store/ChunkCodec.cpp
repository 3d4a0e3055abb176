#include "store/ChunkCodec.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <zstd.h>

#include "core/Errors.h"

namespace memviz {

namespace {

// Layout before compression: u32 count, then one column after another. Times are stored as
// deltas from the previous event, which compresses far better than absolute nanoseconds.
constexpr int kLevel = 1;

template <typename T>
void putColumn(std::vector<unsigned char>& out, std::size_t n, auto&& get) {
    const std::size_t at = out.size();
    out.resize(at + n * sizeof(T));
    unsigned char* p = out.data() + at;
    for (std::size_t i = 0; i < n; ++i) {
        const T v = get(i);
        std::memcpy(p + i * sizeof(T), &v, sizeof(T));
    }
}

template <typename T>
T getAt(const unsigned char* base, std::size_t i) {
    T v;
    std::memcpy(&v, base + i * sizeof(T), sizeof(T));
    return v;
}

// Compression state reused across chunks (and threads): a fresh zstd context and fresh
// multi-megabyte buffers per chunk cost more, in page faults, than compressing the chunk.
struct Scratch {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    std::vector<unsigned char> raw, out;
    ~Scratch() { ZSTD_freeCCtx(cctx); }
};

class ScratchLease {
public:
    ScratchLease() {
        const std::lock_guard lock(mutex());
        if (!idle().empty()) {
            scratch_ = std::move(idle().back());
            idle().pop_back();
        }
        if (!scratch_) scratch_ = std::make_unique<Scratch>();
        if (!scratch_->cctx) throw StoreError("zstd compression failed: out of memory");
        scratch_->raw.clear();
    }
    ~ScratchLease() {
        const std::lock_guard lock(mutex());
        if (idle().size() < 4) idle().push_back(std::move(scratch_));
    }
    ScratchLease(const ScratchLease&) = delete;
    ScratchLease& operator=(const ScratchLease&) = delete;
    Scratch& operator*() const { return *scratch_; }

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    static std::vector<std::unique_ptr<Scratch>>& idle() {
        static std::vector<std::unique_ptr<Scratch>> pool;
        return pool;
    }
    std::unique_ptr<Scratch> scratch_;
};

// Compresses s.raw; the result is a fresh vector of just the compressed bytes.
std::vector<unsigned char> compress(Scratch& s) {
    s.out.resize(ZSTD_compressBound(s.raw.size()));
    const std::size_t n = ZSTD_compressCCtx(s.cctx, s.out.data(), s.out.size(), s.raw.data(), s.raw.size(), kLevel);
    if (ZSTD_isError(n)) throw StoreError(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    return std::vector<unsigned char>(s.out.begin(), s.out.begin() + static_cast<std::ptrdiff_t>(n));
}

std::vector<unsigned char> decompress(std::span<const unsigned char> blob, std::size_t maxSize) {
    const unsigned long long size = ZSTD_getFrameContentSize(blob.data(), blob.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > maxSize || size < 4)
        throw StoreError("damaged chunk in the store (bad frame header)");
    std::vector<unsigned char> raw(static_cast<std::size_t>(size));
    const std::size_t n = ZSTD_decompress(raw.data(), raw.size(), blob.data(), blob.size());
    if (ZSTD_isError(n) || n != raw.size()) throw StoreError("damaged chunk in the store (decompression failed)");
    return raw;
}

std::uint32_t readCount(const std::vector<unsigned char>& raw, std::size_t bytesPerItem) {
    std::uint32_t n;
    std::memcpy(&n, raw.data(), 4);
    if (raw.size() != 4 + std::size_t{n} * bytesPerItem) throw StoreError("damaged chunk in the store (size mismatch)");
    return n;
}

constexpr std::size_t kEventBytes = 8 + 8 + 8 + 4 + 4 + 4 + 2 + 1 + 1;
constexpr std::size_t kPointBytes = 16;
constexpr std::size_t kMaxChunkBytes = 256u << 20;

} // namespace

std::vector<unsigned char> encodeEvents(std::span<const Event> ev) {
    const std::size_t n = ev.size();
    const ScratchLease scratch;
    std::vector<unsigned char>& raw = (*scratch).raw;
    raw.reserve(4 + n * kEventBytes);
    const auto count = static_cast<std::uint32_t>(n);
    raw.resize(4);
    std::memcpy(raw.data(), &count, 4);
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].timeNs - (i ? ev[i - 1].timeNs : 0); });
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].address; });
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].size; });
    putColumn<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].op; });
    putColumn<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].category; });
    putColumn<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].stack; });
    putColumn<std::uint16_t>(raw, n, [&](std::size_t i) { return ev[i].device; });
    putColumn<std::uint8_t>(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(ev[i].kind); });
    putColumn<std::uint8_t>(raw, n, [&](std::size_t i) { return ev[i].flags; });
    return compress(*scratch);
}

std::vector<Event> decodeEvents(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = decompress(blob, kMaxChunkBytes);
    const std::size_t n = readCount(raw, kEventBytes);
    std::vector<Event> ev(n);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) ev[i].timeNs = (t += getAt<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].address = getAt<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].size = getAt<std::int64_t>(p, i);
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) ev[i].op = getAt<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].category = getAt<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].stack = getAt<std::int32_t>(p, i);
    p += n * 4;
    for (std::size_t i = 0; i < n; ++i) ev[i].device = getAt<std::uint16_t>(p, i);
    p += n * 2;
    for (std::size_t i = 0; i < n; ++i) {
        const auto k = getAt<std::uint8_t>(p, i);
        if (k < static_cast<std::uint8_t>(EventKind::Alloc) || k > kLastEventKind)
            throw StoreError("damaged chunk in the store (unknown event kind)");
        ev[i].kind = static_cast<EventKind>(k);
    }
    p += n;
    for (std::size_t i = 0; i < n; ++i) ev[i].flags = getAt<std::uint8_t>(p, i);
    return ev;
}

std::vector<unsigned char> encodePoints(std::span<const SeriesPoint> pts) {
    const std::size_t n = pts.size();
    const ScratchLease scratch;
    std::vector<unsigned char>& raw = (*scratch).raw;
    raw.reserve(4 + n * kPointBytes);
    const auto count = static_cast<std::uint32_t>(n);
    raw.resize(4);
    std::memcpy(raw.data(), &count, 4);
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return pts[i].t - (i ? pts[i - 1].t : 0); });
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return pts[i].v - (i ? pts[i - 1].v : 0); });
    return compress(*scratch);
}

std::vector<SeriesPoint> decodePoints(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = decompress(blob, kMaxChunkBytes);
    const std::size_t n = readCount(raw, kPointBytes);
    std::vector<SeriesPoint> pts(n);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0, v = 0;
    for (std::size_t i = 0; i < n; ++i) pts[i].t = (t += getAt<std::int64_t>(p, i));
    p += n * 8;
    for (std::size_t i = 0; i < n; ++i) pts[i].v = (v += getAt<std::int64_t>(p, i));
    return pts;
}

} // namespace memviz

namespace memviz {

std::vector<unsigned char> encodeRecords(std::span<const std::int64_t> rows, std::size_t columns) {
    const std::size_t n = columns ? rows.size() / columns : 0;
    const ScratchLease scratch;
    std::vector<unsigned char>& raw = (*scratch).raw;
    raw.reserve(4 + rows.size() * 8);
    const auto count = static_cast<std::uint32_t>(n);
    raw.resize(4);
    std::memcpy(raw.data(), &count, 4);
    putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i * columns] - (i ? rows[(i - 1) * columns] : 0); });
    for (std::size_t c = 1; c < columns; ++c)
        putColumn<std::int64_t>(raw, n, [&](std::size_t i) { return rows[i * columns + c]; });
    return compress(*scratch);
}

std::vector<std::int64_t> decodeRecords(std::span<const unsigned char> blob, std::size_t columns) {
    const std::vector<unsigned char> raw = decompress(blob, kMaxChunkBytes);
    if (columns == 0) throw StoreError("damaged chunk in the store (no columns)");
    const std::size_t n = readCount(raw, 8 * columns);
    std::vector<std::int64_t> rows(n * columns);
    const unsigned char* p = raw.data() + 4;
    std::int64_t t = 0;
    for (std::size_t i = 0; i < n; ++i) rows[i * columns] = (t += getAt<std::int64_t>(p, i));
    for (std::size_t c = 1; c < columns; ++c) {
        p += n * 8;
        for (std::size_t i = 0; i < n; ++i) rows[i * columns + c] = getAt<std::int64_t>(p, i);
    }
    return rows;
}

} // namespace memviz
