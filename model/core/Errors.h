// SPDX-License-Identifier: MIT
#pragma once
// Error types shared by importers, the store and the command line.
#include <stdexcept>
#include <string>

namespace memviz {

// Bad input: the message names what is wrong and where (file, line, byte offset, record).
class ImportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The user cancelled a long operation; nothing was stored.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

// A SQLite failure, or a file that is not a memviz store.
class StoreError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace memviz
