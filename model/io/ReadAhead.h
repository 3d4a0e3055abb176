// SPDX-License-Identifier: MIT
#pragma once
// Reads an InputFile on a second thread, a few blocks ahead of its consumer: decompressing a
// zstd or gzip file then runs beside the parser instead of before each of its reads (issue 33:
// a big heaptrack recording spends a fifth of its import in zstd). The consumer gets the same
// bytes, and the reader's errors at the point of the data where they happened.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace memviz {

class InputFile;

class ReadAhead {
public:
    // Starts the thread; from now on only it calls in.read() (the caller may still use the
    // file's path() and fileSize()).
    ReadAhead(InputFile& in, std::size_t blockBytes = 1u << 20, std::size_t blocks = 4);
    ~ReadAhead(); // stops the thread (a consumer that stops early, e.g. on an error, is fine)
    ReadAhead(const ReadAhead&) = delete;
    ReadAhead& operator=(const ReadAhead&) = delete;

    // Like InputFile::read: up to `capacity` bytes into dst, 0 at the end of the data. Rethrows
    // the reader's error once the data before it has been handed out.
    std::size_t read(char* dst, std::size_t capacity);
    // InputFile::fileOffset() as it was when the data handed out last was read.
    std::int64_t fileOffset() const { return fileOffset_; }

private:
    struct Block {
        std::vector<char> data;
        std::size_t size = 0;
        std::int64_t fileOffset = 0;
        std::exception_ptr error;
    };
    void run();

    InputFile& in_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Block> ready_; // read, in file order; size 0 = the end (or error)
    std::vector<Block> free_;
    bool stop_ = false;
    Block current_;           // the block being handed out (consumer side only)
    std::size_t currentPos_ = 0;
    bool ended_ = false;
    std::int64_t fileOffset_ = 0;
    std::thread thread_; // last: starts after the rest is set up
};

} // namespace memviz
