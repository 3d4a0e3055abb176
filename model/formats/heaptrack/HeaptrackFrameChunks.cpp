// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackFrameChunks.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <limits>

#include "core/Errors.h"
#include "store/ChunkCodec.h"
#include "store/ColumnChunk.h"
#include "store/Database.h"

namespace memviz {

namespace {

const std::string kIpsWhat = "heaptrack frame chunk";
const std::string kStringsWhat = "heaptrack string chunk";
// An ip chunk: 4096 ips of six columns and 327,680 inlined frames of three, 8 bytes each at
// most, and the headers (a few MB); a string chunk: 1 MiB of text, then at most one string as
// long as a line can be (LineReader: 64 MiB), and the lengths.
constexpr std::size_t kMaxIpChunkBytes = 16u << 20;
constexpr std::size_t kMaxStringChunkBytes = 80u << 20;
constexpr std::int64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void damaged(const std::string& what, const std::string& why) {
    throw StoreError("damaged " + what + " in the store (" + why + ")");
}

// Reads n narrow values in [0, 2^32) into set(i, value); returns the next column.
template <typename Set>
const unsigned char* getU32s(const unsigned char* p, const unsigned char* end, std::size_t n, Set&& set,
                             const std::string& what) {
    bool bad = false;
    p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) {
        if (v < 0 || v > kU32Max) bad = true;
        else set(i, static_cast<std::uint32_t>(v));
    });
    if (!p) damaged(what, "a column past the end");
    if (bad) damaged(what, "a value out of range");
    return p;
}

} // namespace

// Ip chunk (narrow layout): the ips' address, module, function, file, line and inlined count,
// then a u32 count of inlined frames and their function, file and line columns.
std::vector<unsigned char> encodeHeaptrackIps(const HeaptrackIpChunk& c) {
    const std::size_t n = c.ips.size(), k = c.inlined.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), 128 + n * 24 + k * 8, true);
    columns::Bytes& raw = chunk.raw();
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].address; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].module; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].frame.function; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].frame.file; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].frame.line; });
    columns::putNarrow(raw, n, [&](std::size_t i) { return c.ips[i].inlinedCount; });
    const auto inlined = static_cast<std::uint32_t>(k);
    raw.insert(raw.end(), reinterpret_cast<const unsigned char*>(&inlined),
               reinterpret_cast<const unsigned char*>(&inlined) + 4);
    columns::putNarrow(raw, k, [&](std::size_t i) { return c.inlined[i].function; });
    columns::putNarrow(raw, k, [&](std::size_t i) { return c.inlined[i].file; });
    columns::putNarrow(raw, k, [&](std::size_t i) { return c.inlined[i].line; });
    return chunk.compress();
}

HeaptrackIpChunk decodeHeaptrackIps(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxIpChunkBytes, kIpsWhat);
    const std::optional<std::uint32_t> count = columns::narrowCount(raw, kHeaptrackIpsPerChunk, kIpsWhat);
    if (!count) damaged(kIpsWhat, "not a narrow chunk");
    const std::size_t n = *count;
    HeaptrackIpChunk c;
    c.ips.resize(n);
    const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
    const unsigned char* end = raw.data() + raw.size();
    p = columns::getNarrow(p, end, n, [&](std::size_t i, std::int64_t v) { c.ips[i].address = v; });
    if (!p) damaged(kIpsWhat, "a column past the end");
    p = getU32s(p, end, n, [&](std::size_t i, std::uint32_t v) { c.ips[i].module = v; }, kIpsWhat);
    p = getU32s(p, end, n, [&](std::size_t i, std::uint32_t v) { c.ips[i].frame.function = v; }, kIpsWhat);
    p = getU32s(p, end, n, [&](std::size_t i, std::uint32_t v) { c.ips[i].frame.file = v; }, kIpsWhat);
    p = getU32s(p, end, n, [&](std::size_t i, std::uint32_t v) { c.ips[i].frame.line = v; }, kIpsWhat);
    std::uint64_t sum = 0;
    p = getU32s(p, end, n, [&](std::size_t i, std::uint32_t v) { sum += (c.ips[i].inlinedCount = v); }, kIpsWhat);
    if (end - p < 4) damaged(kIpsWhat, "no inlined frame count");
    std::uint32_t k;
    std::memcpy(&k, p, 4);
    p += 4;
    if (k > kHeaptrackInlinedPerChunk || sum != k) damaged(kIpsWhat, "inlined frame counts that do not add up");
    c.inlined.resize(k);
    p = getU32s(p, end, k, [&](std::size_t i, std::uint32_t v) { c.inlined[i].function = v; }, kIpsWhat);
    p = getU32s(p, end, k, [&](std::size_t i, std::uint32_t v) { c.inlined[i].file = v; }, kIpsWhat);
    p = getU32s(p, end, k, [&](std::size_t i, std::uint32_t v) { c.inlined[i].line = v; }, kIpsWhat);
    if (p != end) damaged(kIpsWhat, "bytes after the last column");
    return c;
}

// String chunk (narrow layout): the lengths, then the texts one after another.
std::vector<unsigned char> encodeHeaptrackStrings(std::span<const std::string_view> strings) {
    std::size_t bytes = 0;
    for (std::string_view s : strings) bytes += s.size();
    columns::Builder chunk(static_cast<std::uint32_t>(strings.size()), 64 + strings.size() * 4 + bytes, true);
    columns::Bytes& raw = chunk.raw();
    columns::putNarrow(raw, strings.size(), [&](std::size_t i) { return strings[i].size(); });
    for (std::string_view s : strings) raw.insert(raw.end(), s.begin(), s.end());
    return chunk.compress();
}

std::vector<std::string> decodeHeaptrackStrings(std::span<const unsigned char> blob) {
    const std::vector<unsigned char> raw = columns::decompress(blob, kMaxStringChunkBytes, kStringsWhat);
    const std::optional<std::uint32_t> count = columns::narrowCount(raw, kHeaptrackStringsPerChunk, kStringsWhat);
    if (!count) damaged(kStringsWhat, "not a narrow chunk");
    std::vector<std::uint32_t> lengths(*count);
    const unsigned char* p = raw.data() + columns::kNarrowHeaderBytes;
    const unsigned char* end = raw.data() + raw.size();
    p = getU32s(p, end, lengths.size(), [&](std::size_t i, std::uint32_t v) { lengths[i] = v; }, kStringsWhat);
    std::vector<std::string> out;
    out.reserve(lengths.size());
    for (const std::uint32_t length : lengths) {
        if (static_cast<std::size_t>(end - p) < length) damaged(kStringsWhat, "a string past the end");
        out.emplace_back(reinterpret_cast<const char*>(p), length);
        p += length;
    }
    if (p != end) damaged(kStringsWhat, "bytes after the last string");
    return out;
}

std::vector<std::string> loadHeaptrackStrings(Database& db, std::int64_t traceId) {
    std::vector<std::string> out(1); // id 0: none
    Statement s(db, "SELECT first_string, string_count, data FROM heaptrack_string_chunks WHERE trace_id = ? "
                    "ORDER BY first_string");
    s.bind(1, traceId);
    while (s.step()) {
        // The chunks follow each other from string 1 on, as the writer makes them.
        if (s.int64(0) != static_cast<std::int64_t>(out.size()))
            damaged(kStringsWhat, "string " + std::to_string(s.int64(0)) + " where string " + std::to_string(out.size()) +
                                      " should follow");
        std::vector<std::string> chunk = decodeHeaptrackStrings(s.blob(2));
        if (static_cast<std::int64_t>(chunk.size()) != s.int64(1)) damaged(kStringsWhat, "string count");
        std::move(chunk.begin(), chunk.end(), std::back_inserter(out));
    }
    return out;
}

namespace {

bool hasIpChunks(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT 1 FROM heaptrack_frame_chunks WHERE trace_id = ? LIMIT 1");
    s.bind(1, traceId);
    return s.step();
}

const std::string& stringAt(const std::vector<std::string>& strings, std::uint32_t id) {
    if (id >= strings.size())
        damaged(kIpsWhat, "string " + std::to_string(id) + " of " + std::to_string(strings.size()) + " strings");
    return strings[id];
}

// The frames of the ip at `offset` in a decoded chunk.
std::vector<StackFrame> chunkFrames(const HeaptrackFrameLookup::Chunk& c, std::size_t offset,
                                    const std::vector<std::string>& strings) {
    const HeaptrackStoredIp& ip = c.data.ips[offset];
    std::vector<StackFrame> out;
    out.reserve(1 + ip.inlinedCount);
    const auto add = [&](const HeaptrackFrame& f, bool inlined) {
        out.push_back({stringAt(strings, f.function), stringAt(strings, ip.module), stringAt(strings, f.file),
                       static_cast<std::int64_t>(f.line), ip.address, inlined});
    };
    add(ip.frame, false);
    for (std::uint32_t i = 0; i < ip.inlinedCount; ++i) add(c.data.inlined[c.inlinedAt[offset] + i], true);
    return out;
}

HeaptrackFrameLookup::Chunk decodedChunk(std::int64_t firstIp, std::int64_t ipCount, std::span<const unsigned char> blob) {
    HeaptrackFrameLookup::Chunk c;
    c.firstIp = firstIp;
    c.data = decodeHeaptrackIps(blob);
    if (static_cast<std::int64_t>(c.data.ips.size()) != ipCount) damaged(kIpsWhat, "ip count");
    c.inlinedAt.reserve(c.data.ips.size());
    std::uint32_t at = 0;
    for (const HeaptrackStoredIp& ip : c.data.ips) {
        c.inlinedAt.push_back(at);
        at += ip.inlinedCount; // decodeHeaptrackIps checked the sum
    }
    return c;
}

StackFrame rowFrame(Statement& s, int first) {
    StackFrame f;
    f.inlined = s.int64(first) > 0;
    f.address = s.int64(first + 1);
    f.module = s.text(first + 2);
    f.function = s.text(first + 3);
    f.file = s.text(first + 4);
    f.line = s.int64(first + 5);
    return f;
}

} // namespace

HeaptrackFrameLookup::HeaptrackFrameLookup(Database& db, std::int64_t traceId)
    : db_(db), traceId_(traceId), rows_(!hasIpChunks(db, traceId)) {}

const HeaptrackFrameLookup::Chunk* HeaptrackFrameLookup::chunkOf(std::int64_t ip) {
    auto it = std::upper_bound(chunks_.begin(), chunks_.end(), ip,
                               [](std::int64_t v, const Chunk& c) { return v < c.firstIp; });
    if (it != chunks_.begin() && ip - std::prev(it)->firstIp < static_cast<std::int64_t>(std::prev(it)->data.ips.size()))
        return &*std::prev(it);
    Statement s(db_, "SELECT first_ip, ip_count, data FROM heaptrack_frame_chunks WHERE trace_id = ? AND first_ip <= ? "
                     "ORDER BY first_ip DESC LIMIT 1");
    s.bind(1, traceId_).bind(2, ip);
    if (!s.step() || ip - s.int64(0) >= s.int64(1)) return nullptr;
    Chunk c = decodedChunk(s.int64(0), s.int64(1), s.blob(2));
    it = std::upper_bound(chunks_.begin(), chunks_.end(), c.firstIp, [](std::int64_t v, const Chunk& k) { return v < k.firstIp; });
    return &*chunks_.insert(it, std::move(c));
}

std::vector<StackFrame> HeaptrackFrameLookup::frames(std::int64_t ip) {
    std::vector<StackFrame> out;
    if (ip <= 0) return out;
    if (rows_) {
        Statement s(db_, "SELECT depth, address, module, function, file, line FROM heaptrack_frames "
                         "WHERE trace_id = ? AND ip_id = ? ORDER BY depth");
        s.bind(1, traceId_).bind(2, ip);
        while (s.step()) out.push_back(rowFrame(s, 0));
        return out;
    }
    const Chunk* c = chunkOf(ip);
    if (!c) return out;
    if (!haveStrings_) {
        strings_ = loadHeaptrackStrings(db_, traceId_);
        haveStrings_ = true;
    }
    return chunkFrames(*c, static_cast<std::size_t>(ip - c->firstIp), strings_);
}

std::int64_t HeaptrackFrameLookup::address(std::int64_t ip) {
    if (ip <= 0) return 0;
    if (rows_) {
        Statement s(db_, "SELECT address FROM heaptrack_frames WHERE trace_id = ? AND ip_id = ? AND depth = 0");
        s.bind(1, traceId_).bind(2, ip);
        return s.step() ? s.int64(0) : 0;
    }
    const Chunk* c = chunkOf(ip);
    return c ? c->data.ips[static_cast<std::size_t>(ip - c->firstIp)].address : 0;
}

void forEachHeaptrackIp(Database& db, std::int64_t traceId,
                        const std::function<void(std::int64_t ip, std::vector<StackFrame>&& frames)>& f) {
    if (!hasIpChunks(db, traceId)) {
        // A store written before schema step 11: a row per frame.
        Statement s(db, "SELECT ip_id, depth, address, module, function, file, line FROM heaptrack_frames "
                        "WHERE trace_id = ? ORDER BY ip_id, depth");
        s.bind(1, traceId);
        std::int64_t ip = 0;
        std::vector<StackFrame> frames;
        while (s.step()) {
            if (s.int64(0) != ip && !frames.empty()) f(ip, std::move(frames));
            if (s.int64(0) != ip) frames.clear();
            ip = s.int64(0);
            frames.push_back(rowFrame(s, 1));
        }
        if (!frames.empty()) f(ip, std::move(frames));
        return;
    }
    const std::vector<std::string> strings = loadHeaptrackStrings(db, traceId);
    Statement s(db, "SELECT first_ip, ip_count, data FROM heaptrack_frame_chunks WHERE trace_id = ? ORDER BY first_ip");
    s.bind(1, traceId);
    std::int64_t next = 1;
    while (s.step()) {
        if (s.int64(0) != next)
            damaged(kIpsWhat, "ip " + std::to_string(s.int64(0)) + " where ip " + std::to_string(next) + " should follow");
        const HeaptrackFrameLookup::Chunk c = decodedChunk(s.int64(0), s.int64(1), s.blob(2));
        for (std::size_t i = 0; i < c.data.ips.size(); ++i) f(c.firstIp + static_cast<std::int64_t>(i), chunkFrames(c, i, strings));
        next = c.firstIp + static_cast<std::int64_t>(c.data.ips.size());
    }
}

} // namespace memviz
