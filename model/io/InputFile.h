// SPDX-License-Identifier: MIT
#pragma once
// A file read as a stream of bytes, transparently decompressing gzip and zstd (sniffed by
// their magic bytes, not the extension). Importers read through this so that every format
// accepts plain and compressed files alike.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace memviz {

enum class Compression { None, Gzip, Zstd };

const char* compressionName(Compression c);

// How far a compressed file may expand (decompression bombs). Data read in a stream (line by
// line, event by event) costs time, not memory: it may expand to `maxBytes`. Data held in
// memory whole (readAll: snapshot pickles, memory-timeline exports) may also expand only to
// `ratio` times the file's size (at least `floorBytes`). A ratio does not suit streamed data:
// a real heaptrack recording of a malloc/free loop expands 4,700 times. Past a ceiling,
// reading fails with a message naming it. Defaults: 64 times, 1 MiB, 32 GiB; the environment
// changes them for a process: MEMVIZ_DECOMPRESSION_RATIO (a number, 0 = no ratio ceiling)
// and MEMVIZ_DECOMPRESSION_LIMIT (bytes, with K, M, G or T for powers of 1024).
// docs/reliability.md.
struct DecompressionLimits {
    double ratio = 64;
    std::int64_t floorBytes = std::int64_t{1} << 20;
    std::int64_t maxBytes = std::int64_t{32} << 30;
};

class InputFile {
public:
    // Throws ImportError when the file cannot be opened.
    explicit InputFile(std::string path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // Reads up to `capacity` decompressed bytes into dst; returns 0 at the end of the data.
    // Throws ImportError for a corrupt or truncated compressed stream, naming the byte offset.
    std::size_t read(char* dst, std::size_t capacity);

    // Reads everything that is left (for formats that need the whole document in memory).
    // `limit` guards against decompression bombs: exceeding it is an ImportError. The
    // string's capacity exceeds its size by at least `padding` bytes (simdjson needs 64).
    std::string readAll(std::size_t limit, std::size_t padding = 0);

    const std::string& path() const { return path_; }
    Compression compression() const { return compression_; }
    std::int64_t fileSize() const { return fileSize_; }
    // Bytes of the file (compressed) consumed so far: the basis for progress.
    std::int64_t fileOffset() const { return fileOffset_; }
    // Decompressed bytes handed out so far.
    std::int64_t dataOffset() const { return dataOffset_; }

    // The first `n` decompressed bytes of a file, for sniffing; empty when unreadable.
    static std::string head(const std::string& path, std::size_t n);

    // The limits every InputFile opened from now on uses: the defaults, changed by the
    // environment (read at each open), unless set here (tests, a future setting); reset()
    // goes back to the environment.
    static DecompressionLimits decompressionLimits();
    static void setDecompressionLimits(const DecompressionLimits& limits);
    static void resetDecompressionLimits();
    // Decompressed bytes this file may produce (for compressed files; plain files have none):
    // maxBytes while streamed, with the ratio too once readAll() has been called.
    std::int64_t decompressionCeiling() const { return ceiling_; }
    // From now on the data is held in memory whole: the ratio ceiling applies (readAll does it).
    void holdWhole();

private:
    bool refill();
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void failCeiling() const;

    std::string path_;
    std::FILE* file_ = nullptr;
    Compression compression_ = Compression::None;
    std::int64_t fileSize_ = 0;
    std::int64_t fileOffset_ = 0;
    std::int64_t dataOffset_ = 0;
    std::unique_ptr<char[]> inBuf_; // not zeroed: only what fread wrote is read
    std::size_t inCap_ = 0;
    std::size_t inPos_ = 0;
    std::size_t inLen_ = 0;
    bool inEof_ = false;
    bool streamEnded_ = false;
    std::int64_t ceiling_ = 0;
    bool ratioApplied_ = false;
    DecompressionLimits limits_;
    struct Decoder;
    std::unique_ptr<Decoder> decoder_;
};

} // namespace memviz
