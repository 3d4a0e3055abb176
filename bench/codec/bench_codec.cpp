// SPDX-License-Identifier: MIT
// The event chunk codecs side by side (issue 33): every event chunk of STORE decoded, then
// encoded and decoded again in codec 1 (fixed widths, written here as the stores before
// schema version 8 hold it) and codec 2 (narrow columns, encodeEvents). Prints times and sizes
// for three rounds. bench_codec STORE
#include <chrono>
#include <cstdio>
#include "store/ChunkCodec.h"
#include "store/ColumnChunk.h"
#include "store/Database.h"
using namespace memviz;
namespace {

// Codec 1 as docs/schema.md describes it.
std::vector<unsigned char> fixedEncode(std::span<const Event> ev) {
    const std::size_t n = ev.size();
    columns::Builder chunk(static_cast<std::uint32_t>(n), 4 + n * 40);
    auto& raw = chunk.raw();
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].timeNs - (i ? ev[i - 1].timeNs : 0); });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].address; });
    columns::put<std::int64_t>(raw, n, [&](std::size_t i) { return ev[i].size; });
    columns::put<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].op; });
    columns::put<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].category; });
    columns::put<std::int32_t>(raw, n, [&](std::size_t i) { return ev[i].stack; });
    columns::put<std::uint16_t>(raw, n, [&](std::size_t i) { return ev[i].device; });
    columns::put<std::uint8_t>(raw, n, [&](std::size_t i) { return static_cast<std::uint8_t>(ev[i].kind); });
    columns::put<std::uint8_t>(raw, n, [&](std::size_t i) { return ev[i].flags; });
    return chunk.compress();
}
} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_codec STORE\n");
        return 2;
    }
    Database db(argv[1], Database::Mode::ReadOnly);
    std::vector<std::vector<Event>> chunks;
    Statement s(db, "SELECT data FROM event_chunks ORDER BY trace_id, chunk");
    while (s.step()) chunks.push_back(decodeEvents(s.blob(0)));
    std::size_t n = 0; for (auto& c : chunks) n += c.size();
    for (int rep = 0; rep < 3; ++rep) {
        using C = std::chrono::steady_clock;
        std::size_t b1 = 0, b2 = 0;
        auto t0 = C::now();
        std::vector<std::vector<unsigned char>> f, w;
        for (auto& c : chunks) { f.push_back(fixedEncode(c)); b1 += f.back().size(); }
        auto t1 = C::now();
        for (auto& c : chunks) { w.push_back(encodeEvents(c)); b2 += w.back().size(); }
        auto t2 = C::now();
        for (auto& b : f) decodeEvents(b);
        auto t3 = C::now();
        for (auto& b : w) decodeEvents(b);
        auto t4 = C::now();
        auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
        std::printf("%s: %zu events in %zu chunks; fixed enc %.0f ms %zu B dec %.0f ms | narrow enc %.0f ms %zu B dec %.0f ms\n", argv[1], n, chunks.size(), ms(t0,t1), b1, ms(t2,t3), ms(t1,t2), b2, ms(t3,t4));
    }
}
