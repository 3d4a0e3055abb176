// SPDX-License-Identifier: MIT
#pragma once
// The heaptrack strings and instruction pointers (with their frames) as compressed column
// chunks (schema step 11, HeaptrackSchema.h; layouts in docs/formats-native.md), and their
// readers. Stores written before step 11 keep a row per frame, with its texts, in
// heaptrack_frames (6 MB of a 13 MB store for a real PyTorch recording, and a sixth of its
// import's CPU time); the readers here fall back to those rows when a trace has no chunks.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackQueries.h"

namespace memviz {

class Database;

// An instruction pointer as stored: string ids are the file's own (0 = none, "").
struct HeaptrackStoredIp {
    std::int64_t address = 0;
    std::uint32_t module = 0;
    HeaptrackFrame frame;
    std::uint32_t inlinedCount = 0; // its frames in HeaptrackIpChunk::inlined, after the ip before's
    bool operator==(const HeaptrackStoredIp&) const = default;
};

// Consecutive instruction pointers and the frames inlined into each, in order.
struct HeaptrackIpChunk {
    std::vector<HeaptrackStoredIp> ips;
    std::vector<HeaptrackFrame> inlined;
    bool operator==(const HeaptrackIpChunk&) const = default;
};

// A chunk holds at most kHeaptrackIpsPerChunk instruction pointers and at most
// kHeaptrackInlinedPerChunk inlined frames; the writer cuts one when either fills up (an ip has
// at most kHeaptrackMaxInlined, HeaptrackReader), so that a chunk stays a few MB however deep
// the inlining. Chunks follow each other from ip 1 on.
constexpr std::size_t kHeaptrackIpsPerChunk = 4096;
constexpr std::size_t kHeaptrackMaxInlined = 65536;
constexpr std::size_t kHeaptrackInlinedPerChunk = 4 * kHeaptrackMaxInlined;
// A string chunk is cut after kHeaptrackStringsPerChunk strings or kHeaptrackStringChunkText bytes.
constexpr std::size_t kHeaptrackStringsPerChunk = 4096;
constexpr std::size_t kHeaptrackStringChunkText = 1u << 20;

// The inlined counts must add up to inlined.size().
std::vector<unsigned char> encodeHeaptrackIps(const HeaptrackIpChunk& chunk);
// Throws StoreError for a damaged blob.
HeaptrackIpChunk decodeHeaptrackIps(std::span<const unsigned char> blob);

std::vector<unsigned char> encodeHeaptrackStrings(std::span<const std::string_view> strings);
std::vector<std::string> decodeHeaptrackStrings(std::span<const unsigned char> blob);

// Every string of the trace by id (element 0 = ""); throws StoreError for damaged chunks.
std::vector<std::string> loadHeaptrackStrings(Database& db, std::int64_t traceId);

// Reads instruction pointers' frames by id, decoding only the chunks a lookup needs.
class HeaptrackFrameLookup {
public:
    HeaptrackFrameLookup(Database& db, std::int64_t traceId);
    // The ip's own frame, then the frames inlined into it (innermost first); empty for an ip
    // the trace does not have.
    std::vector<StackFrame> frames(std::int64_t ip);
    // The ip's address (0 for an ip the trace does not have), without reading the strings.
    std::int64_t address(std::int64_t ip);

    struct Chunk {
        std::int64_t firstIp = 0;
        HeaptrackIpChunk data;
        std::vector<std::uint32_t> inlinedAt; // each ip's first frame in data.inlined
    };

private:
    const Chunk* chunkOf(std::int64_t ip);

    Database& db_;
    std::int64_t traceId_;
    bool rows_ = false; // an old store: the rows of heaptrack_frames
    bool haveStrings_ = false;
    std::vector<std::string> strings_;
    std::vector<Chunk> chunks_; // decoded on demand, sorted by firstIp
};

// Every instruction pointer's frames in ip order, as HeaptrackFrameLookup::frames lists them
// (ips without frames are skipped).
void forEachHeaptrackIp(Database& db, std::int64_t traceId,
                        const std::function<void(std::int64_t ip, std::vector<StackFrame>&& frames)>& f);

} // namespace memviz
