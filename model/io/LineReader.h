// SPDX-License-Identifier: MIT
#pragma once
// Splits an InputFile into lines without copying them, keeping the line number and byte
// offset of each for error messages. Every returned line is followed by at least
// kPadding readable bytes, so simdjson can parse it in place.
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "core/HugePages.h"

namespace memviz {

class InputFile;
class ReadAhead;

class LineReader {
public:
    static constexpr std::size_t kPadding = 64;

    explicit LineReader(InputFile& in, std::size_t maxLineBytes = 64u << 20);
    ~LineReader();

    // For a big compressed file: decompress on a second thread, ahead of next() (ReadAhead.h).
    // Call before the first next(). Afterwards input().read() and input().fileOffset() belong
    // to that thread: use fileOffset() here.
    void readAhead();
    // Compressed bytes of the file consumed so far (for progress).
    std::int64_t fileOffset() const;

    // Next line without its terminator ("\n" or "\r\n"); false at the end of the data.
    // Throws ImportError for a line longer than maxLineBytes.
    // Inline for the short lines of record formats (heaptrack's average 9 bytes): the newline
    // is looked for 8 bytes at a time (the padding after the data keeps the reads inside the
    // buffer); a longer line, or one the buffer does not hold whole, goes to nextSlow().
    bool next(std::string_view& line) {
        const char* const base = buf_.data();
        const char* const end = base + end_;
        const char* p = base + begin_;
        for (int word = 0; word < 4 && p < end; ++word, p += 8) {
            std::uint64_t w;
            std::memcpy(&w, p, 8);
            const std::uint64_t x = w ^ 0x0a0a0a0a0a0a0a0aull; // a newline byte becomes 0
            // The lowest byte flagged here is the first zero byte (higher ones may be false).
            const std::uint64_t zero = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
            if (zero) {
                const char* nl = p + (std::countr_zero(zero) >> 3);
                if (nl >= end) break;
                take(line, static_cast<std::size_t>(nl - base));
                return true;
            }
        }
        return nextSlow(line);
    }

    std::int64_t lineNumber() const { return lineNumber_; } // 1-based, of the last line
    std::int64_t lineOffset() const { return lineOffset_; } // byte offset of its start
    // True when the last line returned was not terminated by a newline (end of data).
    bool lastLineUnterminated() const { return unterminated_; }
    InputFile& input() { return in_; }
    const InputFile& input() const { return in_; }

private:
    bool fill();
    bool nextSlow(std::string_view& line);
    // Hands out the line from begin_ to the newline at `pos`.
    void take(std::string_view& line, std::size_t pos) {
        std::size_t len = pos - begin_;
        if (len > 0 && buf_[begin_ + len - 1] == '\r') --len;
        line = std::string_view(buf_.data() + begin_, len);
        ++lineNumber_;
        lineOffset_ = consumed_;
        consumed_ += static_cast<std::int64_t>(pos + 1 - begin_);
        begin_ = pos + 1;
        unterminated_ = false;
    }

    InputFile& in_;
    std::size_t maxLine_;
    std::size_t block_; // what one read asks for: 4 MiB, less for a small uncompressed file
    std::vector<char, HugePageAllocator<char>> buf_; // up to 4 MiB (512 KiB for decompressed input), in huge pages (core/HugePages.h)
    std::size_t begin_ = 0; // start of unconsumed data in buf_
    std::size_t end_ = 0;   // end of valid data in buf_
    bool eof_ = false;
    std::int64_t lineNumber_ = 0;
    std::int64_t lineOffset_ = 0;
    std::int64_t consumed_ = 0; // bytes before buf_[begin_]
    bool unterminated_ = false;
    std::unique_ptr<ReadAhead> ahead_;
};

} // namespace memviz
