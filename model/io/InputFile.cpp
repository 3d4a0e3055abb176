// SPDX-License-Identifier: MIT
#include "io/InputFile.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include "core/Errors.h"

namespace memviz {

namespace {
constexpr std::int64_t kInputBuffer = 1 << 20;

// "123", "64K", "32G": bytes, with a binary suffix; nullopt for anything else.
std::optional<std::int64_t> parseByteCount(const char* text) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text, &end);
    if (end == text || errno || !(v >= 0)) return std::nullopt;
    double scale = 1;
    switch (*end) {
    case 'K':
    case 'k':
        scale = 1024.0;
        ++end;
        break;
    case 'M':
    case 'm':
        scale = 1024.0 * 1024;
        ++end;
        break;
    case 'G':
    case 'g':
        scale = 1024.0 * 1024 * 1024;
        ++end;
        break;
    case 'T':
    case 't':
        scale = 1024.0 * 1024 * 1024 * 1024;
        ++end;
        break;
    default: break;
    }
    if (*end == 'i' || *end == 'B') ++end; // "32GiB", "32GB", "32G"
    if (*end == 'B') ++end;
    if (*end || v * scale >= 9.2e18) return std::nullopt;
    return static_cast<std::int64_t>(v * scale);
}

DecompressionLimits limitsFromEnvironment() {
    DecompressionLimits l;
    if (const char* r = std::getenv("MEMVIZ_DECOMPRESSION_RATIO"); r && *r) {
        char* end = nullptr;
        const double ratio = std::strtod(r, &end);
        if (end != r && !*end && ratio >= 0 && std::isfinite(ratio)) l.ratio = ratio;
    }
    if (const char* m = std::getenv("MEMVIZ_DECOMPRESSION_LIMIT"); m && *m)
        if (const auto bytes = parseByteCount(m)) l.maxBytes = *bytes;
    return l;
}

std::mutex limitsMutex;
std::optional<DecompressionLimits> limitsOverride; // setDecompressionLimits()
} // namespace

DecompressionLimits InputFile::decompressionLimits() {
    std::lock_guard<std::mutex> lock(limitsMutex);
    if (limitsOverride) return *limitsOverride;
    return limitsFromEnvironment(); // read each time: cheap, once per file opened
}

void InputFile::setDecompressionLimits(const DecompressionLimits& limits) {
    std::lock_guard<std::mutex> lock(limitsMutex);
    limitsOverride = limits;
}

void InputFile::resetDecompressionLimits() {
    std::lock_guard<std::mutex> lock(limitsMutex);
    limitsOverride.reset();
}

const char* compressionName(Compression c) {
    switch (c) {
    case Compression::Gzip: return "gzip";
    case Compression::Zstd: return "zstd";
    case Compression::None: break;
    }
    return "none";
}

struct InputFile::Decoder {
    z_stream z{};
    bool zInit = false;
    ZSTD_DStream* zstd = nullptr;
    ~Decoder() {
        if (zInit) inflateEnd(&z);
        if (zstd) ZSTD_freeDStream(zstd);
    }
};

InputFile::InputFile(std::string path) : path_(std::move(path)) {
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_) throw ImportError(path_ + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (fstat(fileno(file_), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            std::fclose(file_);
            file_ = nullptr;
            throw ImportError(path_ + ": is a directory, not a trace file");
        }
        fileSize_ = st.st_size;
    }
    // A small file gets a small buffer (a sniff or a test opens many); one byte more than the
    // file, so the first read sees its end. Sizes of 0 (pipes, /proc) are unknown.
    inCap_ = fileSize_ > 0 ? static_cast<std::size_t>(std::clamp<std::int64_t>(fileSize_ + 1, 4096, kInputBuffer))
                           : static_cast<std::size_t>(kInputBuffer);
    inBuf_.reset(new char[inCap_]);
    refill();
    const auto* b = reinterpret_cast<const unsigned char*>(inBuf_.get());
    if (inLen_ >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        compression_ = Compression::Gzip;
        decoder_ = std::make_unique<Decoder>();
        if (inflateInit2(&decoder_->z, 15 + 32) != Z_OK) fail("cannot initialise zlib");
        decoder_->zInit = true;
    } else if (inLen_ >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) {
        compression_ = Compression::Zstd;
        decoder_ = std::make_unique<Decoder>();
        decoder_->zstd = ZSTD_createDStream();
        if (!decoder_->zstd) fail("cannot initialise zstd");
        ZSTD_initDStream(decoder_->zstd);
    }
    if (compression_ != Compression::None) {
        limits_ = decompressionLimits();
        ceiling_ = limits_.maxBytes; // streamed; readAll() adds the ratio
    }
}

void InputFile::holdWhole() {
    if (compression_ == Compression::None || ratioApplied_) return;
    ratioApplied_ = true;
    if (limits_.ratio > 0 && fileSize_ > 0) {
        const double byRatio = std::max(limits_.ratio * static_cast<double>(fileSize_), static_cast<double>(limits_.floorBytes));
        if (byRatio < static_cast<double>(ceiling_)) ceiling_ = static_cast<std::int64_t>(byRatio);
    }
}

void InputFile::failCeiling() const {
    std::string why = std::string("the ") + compressionName(compression_) + " data expands past " + std::to_string(ceiling_) +
                      " bytes";
    if (ceiling_ < limits_.maxBytes) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%g", limits_.ratio);
        why += std::string(" (") + ratio + " times the file's " + std::to_string(fileSize_) +
               " bytes; this format is held in memory whole)";
    }
    fail(why + ", memviz's ceiling against decompression bombs. To read it anyway, raise "
               "MEMVIZ_DECOMPRESSION_RATIO or MEMVIZ_DECOMPRESSION_LIMIT (docs/reliability.md)");
}

InputFile::~InputFile() {
    if (file_) std::fclose(file_);
}

void InputFile::fail(const std::string& what) const { throw ImportError(path_ + ": " + what); }

bool InputFile::refill() {
    if (inEof_) return false;
    inPos_ = 0;
    inLen_ = std::fread(inBuf_.get(), 1, inCap_, file_);
    if (inLen_ < inCap_) {
        if (std::ferror(file_)) fail(std::string("read error: ") + std::strerror(errno));
        inEof_ = true;
    }
    return inLen_ > 0;
}

namespace {
// Plain files: reads of at least this much skip the input buffer.
constexpr std::size_t kDirectReadBytes = 64u << 10;
} // namespace

std::size_t InputFile::read(char* dst, std::size_t capacity) {
    std::size_t produced = 0;
    if (compression_ == Compression::None) {
        while (produced < capacity) {
            if (inPos_ == inLen_ && capacity - produced >= kDirectReadBytes) {
                // A large read goes straight into dst, not through inBuf_ (a copy less).
                if (inEof_) break;
                const std::size_t want = capacity - produced;
                const std::size_t n = std::fread(dst + produced, 1, want, file_);
                if (n < want) {
                    if (std::ferror(file_)) fail(std::string("read error: ") + std::strerror(errno));
                    inEof_ = true;
                }
                fileOffset_ += static_cast<std::int64_t>(n);
                produced += n;
                if (n == 0) break;
                continue;
            }
            if (inPos_ == inLen_ && !refill()) break;
            const std::size_t n = std::min(capacity - produced, inLen_ - inPos_);
            std::memcpy(dst + produced, inBuf_.get() + inPos_, n);
            inPos_ += n;
            fileOffset_ += static_cast<std::int64_t>(n);
            produced += n;
        }
        dataOffset_ += static_cast<std::int64_t>(produced);
        return produced;
    }
    // Never decode more than one byte past the ceiling: a bomb stops here, not in memory.
    const std::int64_t room = ceiling_ - dataOffset_ + 1;
    if (room <= 0) failCeiling();
    capacity = std::min<std::size_t>(capacity, static_cast<std::size_t>(room));
    while (produced < capacity) {
        if (inPos_ == inLen_) {
            if (!refill()) {
                // Hand out what was decoded first; the next call reports the truncation.
                if (!streamEnded_ && produced == 0)
                    fail(std::string("truncated ") + compressionName(compression_) + " stream: the data ends at byte " +
                         std::to_string(fileOffset_) + " before the end of the compressed stream");
                break;
            }
        }
        const std::size_t before = inPos_;
        if (compression_ == Compression::Gzip) {
            z_stream& z = decoder_->z;
            if (streamEnded_) {
                // Another gzip member follows (concatenated .gz files are valid).
                if (inflateReset(&z) != Z_OK) fail("zlib reset failed");
                streamEnded_ = false;
            }
            z.next_in = reinterpret_cast<Bytef*>(inBuf_.get() + inPos_);
            z.avail_in = static_cast<uInt>(inLen_ - inPos_);
            z.next_out = reinterpret_cast<Bytef*>(dst + produced);
            z.avail_out = static_cast<uInt>(std::min<std::size_t>(capacity - produced, 1u << 30));
            const std::size_t outBefore = z.avail_out;
            const int rc = inflate(&z, Z_NO_FLUSH);
            inPos_ = inLen_ - z.avail_in;
            produced += outBefore - z.avail_out;
            if (rc == Z_STREAM_END) streamEnded_ = true;
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
                fail("corrupt gzip data near byte " + std::to_string(fileOffset_ + static_cast<std::int64_t>(inPos_ - before)) +
                     ": " + (z.msg ? z.msg : "inflate error"));
        } else {
            ZSTD_inBuffer in{inBuf_.get(), inLen_, inPos_};
            ZSTD_outBuffer out{dst + produced, capacity - produced, 0};
            const std::size_t rc = ZSTD_decompressStream(decoder_->zstd, &out, &in);
            if (ZSTD_isError(rc))
                fail("corrupt zstd data near byte " + std::to_string(fileOffset_) + ": " + ZSTD_getErrorName(rc));
            inPos_ = in.pos;
            produced += out.pos;
            streamEnded_ = (rc == 0);
        }
        fileOffset_ += static_cast<std::int64_t>(inPos_ - before);
    }
    dataOffset_ += static_cast<std::int64_t>(produced);
    if (dataOffset_ > ceiling_) failCeiling();
    return produced;
}

std::string InputFile::readAll(std::size_t limit, std::size_t padding) {
    holdWhole();
    std::string out;
    std::size_t size = 0;
    if (compression_ == Compression::None && fileSize_ - fileOffset_ > static_cast<std::int64_t>(limit))
        fail("the file holds " + std::to_string(fileSize_ - fileOffset_) + " bytes, more than the limit of " +
             std::to_string(limit) + " bytes");
    // Plain files: one allocation of the right size (+1 to see the end) instead of doubling,
    // which would hold twice a 1 GB trace while it is read; compressed: grow by doubling.
    const std::size_t capacity = compression_ == Compression::None && fileSize_ > fileOffset_
                                     ? static_cast<std::size_t>(fileSize_ - fileOffset_) + 1
                                     : std::size_t{1} << 20;
    out.resize(std::min(capacity, limit + 1) + padding);
    for (;;) {
        if (size + padding == out.size()) {
            if (size > limit) fail("decompressed data exceeds the limit of " + std::to_string(limit) + " bytes");
            out.resize(std::min(limit + 1, size * 2) + padding);
        }
        const std::size_t n = read(out.data() + size, out.size() - padding - size);
        if (n == 0) break;
        size += n;
        if (size > limit) fail("decompressed data exceeds the limit of " + std::to_string(limit) + " bytes");
    }
    out.resize(size); // shrinking keeps the capacity, so the padding stays allocated
    return out;
}

std::string InputFile::head(const std::string& path, std::size_t n) {
    try {
        InputFile f(path);
        std::string out(n, '\0');
        std::size_t got = 0;
        try {
            while (got < n) {
                const std::size_t r = f.read(out.data() + got, n - got);
                if (r == 0) break;
                got += r;
            }
        } catch (const ImportError&) {
            // A damaged stream still sniffs by what it decoded; the importer reports the damage.
        }
        out.resize(got);
        return out;
    } catch (const ImportError&) {
        return {};
    }
}

} // namespace memviz
