// SPDX-License-Identifier: MIT
#pragma once
// Streams the event array of a large JSON trace without holding the whole document: the top
// level is either a bare array of events or an object whose member `arrayKey` holds them.
// Events are handed over in batches: slices of the read buffer holding complete array
// elements, with the commas between them turned into spaces (so simdjson's iterate_many reads
// the slice as a stream of documents) and at least 64 readable bytes after each slice. Other
// top-level members are handed over as their raw JSON text. Memory stays bounded by the
// buffer (a few MiB, more only for a single huge element), whatever the file size.
//
// A batch's handler may take the buffer the batch lies in instead of copying the batch
// (Batch::storage: swap it with a vector of its own, whose capacity the stream reuses); the
// stream goes on in another buffer, into which it copied the few bytes read past the batch.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/HugePages.h"

namespace memviz {

class InputFile;

class JsonEventStream {
public:
    // The read buffers: a few of 2 MiB and a bit, in huge pages where allowed (core/HugePages.h):
    // in 4 KiB pages their first touches were a sixth of the 240 MB profiler trace's page faults.
    using Buffer = HugeVector<char>;
    struct Batch {
        char* data;
        std::size_t size;
        std::int64_t offset; // decompressed byte offset of data[0] in the file
        // The buffer that holds data; the handler may swap it with another vector (empty or
        // one taken before): the batch and its padding then stay valid in what it took.
        Buffer* storage;
    };
    using BatchHandler = std::function<void(Batch&)>;
    using MemberHandler = std::function<void(std::string_view key, std::string_view rawValue)>;

    JsonEventStream(InputFile& in, std::string arrayKey, std::size_t batchBytes = 1u << 20);

    // Reads the whole file. Throws ImportError naming the byte offset for malformed or
    // truncated structure (errors inside an event are left to the batch's parser).
    void run(const BatchHandler& onBatch, const MemberHandler& onMember);
    // True when the events array was found.
    bool sawEvents() const { return sawEvents_; }

private:
    bool fill();         // more data into the buffer; false at the end
    char peekNonSpace(); // next non-space character (0 at the end), not consumed
    void expect(char c, const char* what);
    void readObjectMembers(const MemberHandler& onMember, const BatchHandler& onBatch);
    void readEvents(const BatchHandler& onBatch);
    std::string readKey();
    std::string readRawValue();              // a whole value, as text
    std::size_t scanValue(std::size_t from); // end of the value starting at from (0 = incomplete)
    void flushBatch(const BatchHandler& onBatch, std::size_t end);
    [[noreturn]] void fail(const std::string& what, std::size_t at) const;

    InputFile& in_;
    std::string arrayKey_;
    std::size_t batchBytes_;
    Buffer buf_;
    Buffer spare_; // the next buffer, when a handler took buf_
    std::size_t pos_ = 0, end_ = 0;
    std::int64_t base_ = 0; // file offset of buf_[0]
    bool eof_ = false;
    bool sawEvents_ = false;
    std::size_t batchStart_ = 0;
    bool batchOpen_ = false;
};

} // namespace memviz
