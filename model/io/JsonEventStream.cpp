// SPDX-License-Identifier: MIT
#include "io/JsonEventStream.h"

#include <algorithm>
#include <cstring>

#include "core/Errors.h"
#include "io/InputFile.h"
#include "io/JsonSkip.h"

namespace memviz {

namespace {
constexpr std::size_t kPadding = 64;
constexpr std::size_t kMaxMemberBytes = 64u << 20;
// Read at most this much at a time: what was read past a batch is copied to the next buffer.
constexpr std::size_t kReadBytes = 256u << 10;
// One event (or member name) is never near this; a file where it happens is damaged (a quote
// or bracket lost, so the rest reads as one value): stop before holding all of it in memory.
constexpr std::size_t kMaxEventBytes = 256u << 20;
bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
// An uncompressed file smaller than a batch is one batch whatever the batch size: its buffer
// need not be bigger (zeroing 8 MiB cost more than reading a small trace).
std::size_t batchBytesFor(const InputFile& in, std::size_t batchBytes) {
    if (in.compression() != Compression::None || in.fileSize() <= 0) return batchBytes;
    return std::min(batchBytes, std::max<std::size_t>(64u << 10, static_cast<std::size_t>(in.fileSize()) + 1));
}
} // namespace

JsonEventStream::JsonEventStream(InputFile& in, std::string arrayKey, std::size_t batchBytes)
    : in_(in), arrayKey_(std::move(arrayKey)), batchBytes_(batchBytesFor(in, batchBytes)),
      // At most 128 KiB to start with; fill() doubles it up to what a batch needs, so an empty
      // or small compressed file (whose size says nothing) costs no 8 MiB buffer.
      buf_(std::min<std::size_t>(2 * batchBytes_, 128u << 10) + kPadding) {}

void JsonEventStream::fail(const std::string& what, std::size_t at) const {
    throw ImportError(in_.path() + ": byte " + std::to_string(base_ + static_cast<std::int64_t>(at)) + ": " + what);
}

bool JsonEventStream::fill() {
    if (eof_) return false;
    // Keep what is not consumed yet (an open batch counts as not consumed).
    const std::size_t keep = batchOpen_ ? batchStart_ : pos_;
    if (keep > 0) {
        std::memmove(buf_.data(), buf_.data() + keep, end_ - keep);
        end_ -= keep;
        pos_ -= keep;
        if (batchOpen_) batchStart_ = 0;
        base_ += static_cast<std::int64_t>(keep);
    }
    if (buf_.size() - kPadding - end_ < std::min(batchBytes_ / 2, kReadBytes)) buf_.resize(buf_.size() * 2);
    const std::size_t n = in_.read(buf_.data() + end_, std::min(buf_.size() - kPadding - end_, kReadBytes));
    end_ += n;
    std::memset(buf_.data() + end_, ' ', kPadding);
    if (n == 0) eof_ = true;
    return n > 0;
}

char JsonEventStream::peekNonSpace() {
    for (;;) {
        while (pos_ < end_ && isSpace(buf_[pos_])) ++pos_;
        if (pos_ < end_) return buf_[pos_];
        if (!fill()) return 0;
    }
}

void JsonEventStream::expect(char c, const char* what) {
    const char got = peekNonSpace();
    if (got != c)
        fail(std::string("expected ") + what +
                 (got ? std::string(", found '") + got + "'" : ", found the end of the data (truncated file?)"),
             pos_);
    ++pos_;
}

// End (one past) of the JSON value starting at `from`, or 0 when the buffer ends first.
std::size_t JsonEventStream::scanValue(std::size_t from) {
    const char* b = buf_.data();
    if (from >= end_) return 0;
    const char first = b[from];
    if (first == '{' || first == '[') { // kPadding readable bytes follow end_
        const std::size_t end = skipJsonContainer(b, from, end_);
        if (end == kJsonTooDeep)
            fail("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (a damaged file?)", from);
        return end;
    }
    if (first == '"') {                                                     // one past the closing quote
        for (std::size_t j = from + 1; j < end_; j += b[j] == '\\' ? 2 : 1) // an escaped byte never ends it
            if (b[j] == '"') return j + 1;
        return 0;
    }
    for (std::size_t i = from; i < end_; ++i) { // a number or a literal: up to a separator
        const char c = b[i];
        if (c == ',' || c == '}' || c == ']' || isSpace(c)) return i;
    }
    return eof_ ? end_ : 0;
}

std::string JsonEventStream::readKey() {
    if (peekNonSpace() != '"') fail("expected a member name", pos_);
    std::size_t end;
    while ((end = scanValue(pos_)) == 0) {
        if (end_ - pos_ > kMaxMemberBytes) fail("a member name longer than 64 MiB (a damaged file?)", pos_);
        if (!fill()) fail("the JSON ends in a member name (truncated file?)", end_);
    }
    std::string key(buf_.data() + pos_ + 1, end - pos_ - 2);
    pos_ = end;
    return key;
}

std::string JsonEventStream::readRawValue() {
    peekNonSpace();
    std::size_t end;
    while ((end = scanValue(pos_)) == 0) {
        if (end_ - pos_ > kMaxMemberBytes) fail("a top-level member larger than 64 MiB", pos_);
        if (!fill()) fail("the JSON ends in the middle of a value (truncated file?)", end_);
    }
    std::string raw(buf_.data() + pos_, end - pos_);
    pos_ = end;
    return raw;
}

void JsonEventStream::flushBatch(const BatchHandler& onBatch, std::size_t end) {
    if (batchOpen_ && end > batchStart_) {
        // What follows the batch goes on in the next buffer (the handler may take this one).
        Buffer next = std::move(spare_);
        spare_.clear();
        // A batch, a few reads and the padding: not the whole buffer's size, which doubled on
        // its way up (a fresh vector is zeroed, and a small file's few batches paid for it).
        // With the default 1 MiB batches that is 1.75 MiB: one huge page, where 2 MiB and 64
        // bytes took two (the 240 MB profiler trace's peak while reading: 134 -> 122 MB).
        const std::size_t wanted = std::max(end_ - end + kPadding + kReadBytes, batchBytes_ + 3 * kReadBytes + kPadding);
        if (next.size() < wanted) next.resize(wanted);
        std::memcpy(next.data(), buf_.data() + end, end_ - end + kPadding);
        Batch batch{buf_.data() + batchStart_, end - batchStart_, base_ + static_cast<std::int64_t>(batchStart_), &buf_};
        onBatch(batch);
        spare_ = std::move(buf_); // this buffer again when the handler did not take it
        buf_ = std::move(next);
        base_ += static_cast<std::int64_t>(end);
        pos_ -= end;
        end_ -= end;
    }
    batchOpen_ = false;
}

void JsonEventStream::readEvents(const BatchHandler& onBatch) {
    sawEvents_ = true;
    ++pos_; // '['
    if (peekNonSpace() == ']') {
        ++pos_;
        return;
    }
    for (;;) {
        const char first = peekNonSpace();
        if (!first) fail("the JSON ends in the middle of the event array (truncated file?)", end_);
        if (!batchOpen_) {
            batchStart_ = pos_;
            batchOpen_ = true;
        }
        std::size_t end;
        while ((end = scanValue(pos_)) == 0) {
            if (end_ - pos_ > kMaxEventBytes)
                fail("an event larger than 256 MiB (a damaged file? a string or bracket that is never closed)", pos_);
            if (!fill()) fail("the JSON ends in the middle of an event (truncated file?)", end_);
        }
        pos_ = end;
        const char next = peekNonSpace();
        if (next == ',') {
            buf_[pos_++] = ' '; // the batch becomes a stream of documents
            if (pos_ - batchStart_ >= batchBytes_) flushBatch(onBatch, pos_);
        } else if (next == ']') {
            flushBatch(onBatch, pos_);
            ++pos_;
            return;
        } else {
            fail(next ? std::string("expected ',' or ']' after an event, found '") + next + "'"
                      : std::string("the JSON ends after an event (truncated file?)"),
                 pos_);
        }
    }
}

void JsonEventStream::readObjectMembers(const MemberHandler& onMember, const BatchHandler& onBatch) {
    ++pos_; // '{'
    if (peekNonSpace() == '}') {
        ++pos_;
        return;
    }
    for (;;) {
        const std::string key = readKey();
        expect(':', "':' after a member name");
        if (key == arrayKey_) {
            if (peekNonSpace() != '[') fail("\"" + arrayKey_ + "\" must be an array", pos_);
            readEvents(onBatch);
        } else {
            onMember(key, readRawValue());
        }
        const char next = peekNonSpace();
        if (next == ',') {
            ++pos_;
            continue;
        }
        if (next == '}') {
            ++pos_;
            return;
        }
        fail(next ? std::string("expected ',' or '}' between members, found '") + next + "'"
                  : std::string("the JSON ends in the top-level object (truncated file?)"),
             pos_);
    }
}

void JsonEventStream::run(const BatchHandler& onBatch, const MemberHandler& onMember) {
    const char first = peekNonSpace();
    if (first == '[') readEvents(onBatch);
    else if (first == '{') readObjectMembers(onMember, onBatch);
    else fail(first ? "expected a JSON object or array" : "the file is empty", pos_);
    if (peekNonSpace() != 0) fail("unexpected text after the JSON document", pos_);
}

} // namespace memviz
