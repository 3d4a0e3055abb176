// SPDX-License-Identifier: MIT
#pragma once
// A safe pickle reader: interprets protocols 2 to 5 with a fixed whitelist of opcodes that only
// build plain data (see PickleOpcodes.h) into a Document. Anything that names a class, calls a
// function or refers to outside objects is rejected by name, as are truncated input, integers
// wider than 64 bits, lengths beyond the input, nesting beyond a depth limit, recursive
// structures and containers changed after being placed in another. It never executes data.
#include <cstdint>
#include <functional>
#include <string>

#include "core/Errors.h"
#include "pickle/PickleValue.h"

namespace memviz::pickle {

struct Limits {
    std::uint32_t maxDepth = 128;         // nesting of containers
    std::uint64_t maxValues = 1ull << 29; // values created (bounds memory: 16 bytes each); read as a
                                          // stream, values handed on and released no longer count
    std::uint64_t maxContainerItems = 1ull << 31;
    std::uint64_t maxStringBytes = 0xffffffffu; // one str or bytes
    std::uint64_t maxMarks = 1u << 20;          // open MARKs at once
};

// Bad or hostile pickle data. The message names the problem, the opcode and its byte offset.
class PickleError : public ImportError {
public:
    // opcode -1: the problem is not at an opcode (empty or truncated data).
    PickleError(const std::string& problem, std::uint64_t offset, int opcode = -1);
    std::uint64_t offset() const { return offset_; }
    int opcode() const { return opcode_; }

private:
    std::uint64_t offset_;
    int opcode_;
};

// Called now and then with (bytes read, total bytes); may throw (e.g. Cancelled) to stop.
using ReadProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Parses a whole pickle held in memory; the Document keeps `bytes`. Throws PickleError.
Document parse(std::string bytes, const Limits& limits = {}, const ReadProgress& progress = {});

} // namespace memviz::pickle
