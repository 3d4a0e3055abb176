// SPDX-License-Identifier: MIT
#include "io/ReadAhead.h"

#include <algorithm>
#include <cstring>

#include "io/InputFile.h"

namespace memviz {

ReadAhead::ReadAhead(InputFile& in, std::size_t blockBytes, std::size_t blocks) : in_(in) {
    for (std::size_t i = 0; i < blocks; ++i) {
        Block b;
        b.data.resize(blockBytes);
        free_.push_back(std::move(b));
    }
    thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void ReadAhead::run() {
    for (;;) {
        Block b;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stop_ || !free_.empty(); });
            if (stop_) return;
            b = std::move(free_.back());
            free_.pop_back();
        }
        try {
            b.size = in_.read(b.data.data(), b.data.size());
        } catch (...) {
            b.size = 0;
            b.error = std::current_exception();
        }
        b.fileOffset = in_.fileOffset();
        const bool last = b.size == 0;
        {
            const std::lock_guard lock(mutex_);
            ready_.push_back(std::move(b));
        }
        changed_.notify_all();
        if (last) return;
    }
}

std::size_t ReadAhead::read(char* dst, std::size_t capacity) {
    std::size_t produced = 0;
    while (produced < capacity && !ended_) {
        if (currentPos_ == current_.size) {
            // The block is used up: give it back, take the next one.
            std::unique_lock lock(mutex_);
            if (!current_.data.empty()) {
                free_.push_back(std::move(current_));
                current_ = Block{};
                currentPos_ = 0;
                changed_.notify_all();
            }
            if (produced > 0 && ready_.empty()) break; // hand out what there is
            changed_.wait(lock, [this] { return !ready_.empty(); });
            current_ = std::move(ready_.front());
            ready_.pop_front();
            currentPos_ = 0;
            fileOffset_ = current_.fileOffset;
            if (current_.size == 0) {
                ended_ = true;
                if (current_.error) {
                    if (produced > 0) {
                        ended_ = false; // the error comes with the next call
                        current_.size = 0;
                        currentPos_ = 0;
                        ready_.push_front(std::move(current_));
                        current_ = Block{};
                        break;
                    }
                    std::rethrow_exception(current_.error);
                }
                break;
            }
        }
        const std::size_t n = std::min(capacity - produced, current_.size - currentPos_);
        std::memcpy(dst + produced, current_.data.data() + currentPos_, n);
        currentPos_ += n;
        produced += n;
    }
    return produced;
}

} // namespace memviz
