// SPDX-License-Identifier: MIT
#include "io/LineReader.h"

#include <algorithm>
#include <cstring>

#include "core/Errors.h"
#include "io/InputFile.h"
#include "io/ReadAhead.h"

namespace memviz {

namespace {
constexpr std::size_t kBlock = 4u << 20;
// Decompressed input comes in 256 KiB blocks (ReadAhead) or less: a bigger buffer only costs
// fresh memory (a 4 MiB one touched 7 MiB while it grew, about 4 ms on a loaded machine).
constexpr std::size_t kDecompressedBlock = 512u << 10;
}

namespace {
// A small uncompressed file needs no 4 MiB buffer (zeroing it cost more than reading the file).
std::size_t blockFor(const InputFile& in) {
    if (in.compression() != Compression::None) return kDecompressedBlock;
    if (in.fileSize() <= 0) return kBlock;
    return std::clamp<std::size_t>(static_cast<std::size_t>(in.fileSize()) + 1, 64u << 10, kBlock);
}
} // namespace

// The buffer starts at 64 KiB at most and doubles in fill() up to the block: an empty file,
// a pipe or a small compressed file (whose size says nothing) then costs no 4 MiB buffer.
LineReader::LineReader(InputFile& in, std::size_t maxLineBytes)
    : in_(in), maxLine_(maxLineBytes), block_(blockFor(in)), buf_(std::min<std::size_t>(block_, 64u << 10) + kPadding) {}

LineReader::~LineReader() = default;

void LineReader::readAhead() {
    // A thread pays only where there is decompression to overlap (a few ms and up).
    constexpr std::int64_t kWorthIt = 256 << 10;
    if (!ahead_ && in_.compression() != Compression::None && in_.fileSize() >= kWorthIt)
        ahead_ = std::make_unique<ReadAhead>(in_, 256u << 10, 6);
}

std::int64_t LineReader::fileOffset() const { return ahead_ ? ahead_->fileOffset() : in_.fileOffset(); }

bool LineReader::fill() {
    if (eof_) return false;
    // Move the partial line to the front, grow when one line exceeds the block.
    if (begin_ > 0) {
        std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
    }
    if (buf_.size() - kPadding - end_ < block_ / 2) {
        if (end_ > maxLine_)
            throw ImportError(in_.path() + ": line " + std::to_string(lineNumber_ + 1) + " is longer than " +
                              std::to_string(maxLine_) + " bytes");
        buf_.resize(buf_.size() * 2);
    }
    const std::size_t capacity = buf_.size() - kPadding - end_;
    const std::size_t n = ahead_ ? ahead_->read(buf_.data() + end_, capacity) : in_.read(buf_.data() + end_, capacity);
    if (n == 0) eof_ = true;
    end_ += n;
    std::memset(buf_.data() + end_, 0, kPadding);
    return n > 0;
}

bool LineReader::nextSlow(std::string_view& line) {
    std::size_t scanFrom = begin_;
    for (;;) {
        const char* start = buf_.data() + scanFrom;
        const void* nl = std::memchr(start, '\n', end_ - scanFrom);
        if (nl) {
            take(line, static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data()));
            return true;
        }
        const std::size_t scanned = end_ - begin_;
        if (!fill()) {
            if (begin_ == end_) return false;
            std::size_t len = end_ - begin_;
            if (buf_[begin_ + len - 1] == '\r') --len;
            line = std::string_view(buf_.data() + begin_, len);
            ++lineNumber_;
            lineOffset_ = consumed_;
            consumed_ += static_cast<std::int64_t>(end_ - begin_);
            begin_ = end_;
            unterminated_ = true;
            return true;
        }
        scanFrom = begin_ + scanned;
    }
}

} // namespace memviz
