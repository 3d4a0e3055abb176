// SPDX-License-Identifier: MIT
#pragma once
// Splits an InputFile into lines without copying them, keeping the line number and byte
// offset of each for error messages. Every returned line is followed by at least
// kPadding readable bytes, so simdjson can parse it in place.
#include <cstdint>
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
    bool next(std::string_view& line);

    std::int64_t lineNumber() const { return lineNumber_; } // 1-based, of the last line
    std::int64_t lineOffset() const { return lineOffset_; } // byte offset of its start
    // True when the last line returned was not terminated by a newline (end of data).
    bool lastLineUnterminated() const { return unterminated_; }
    InputFile& input() { return in_; }
    const InputFile& input() const { return in_; }

private:
    bool fill();

    InputFile& in_;
    std::size_t maxLine_;
    std::size_t block_; // what one read asks for: 4 MiB, less for a small uncompressed file
    std::vector<char, HugePageAllocator<char>> buf_; // up to 4 MiB, in huge pages (core/HugePages.h)
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
