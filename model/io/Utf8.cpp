// SPDX-License-Identifier: MIT
#include "io/Utf8.h"

#include <cstdint>
#include <cstring>

namespace memviz {

bool isValidUtf8(std::string_view s, bool allowSurrogates) { return firstInvalidUtf8(s, allowSurrogates) == s.size(); }

std::size_t firstInvalidUtf8(std::string_view s, bool allowSurrogates) {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    const unsigned char* const end = p + s.size();
    const auto* const begin = p;
    const auto bad = [&] { return static_cast<std::size_t>(p - begin); };
    auto cont = [](unsigned char c) { return (c & 0xC0) == 0x80; };
    while (p < end) {
        if (end - p >= 8) { // ASCII fast path
            std::uint64_t word;
            std::memcpy(&word, p, 8);
            if (!(word & 0x8080808080808080ull)) {
                p += 8;
                continue;
            }
        }
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
        } else if (c < 0xC2) {
            return bad(); // continuation byte or overlong 2-byte form
        } else if (c < 0xE0) {
            if (end - p < 2 || !cont(p[1])) return bad();
            p += 2;
        } else if (c < 0xF0) {
            if (end - p < 3 || !cont(p[1]) || !cont(p[2])) return bad();
            if (c == 0xE0 && p[1] < 0xA0) return bad(); // overlong
            if (c == 0xED && p[1] >= 0xA0 && !allowSurrogates) return bad();
            p += 3;
        } else if (c < 0xF5) {
            if (end - p < 4 || !cont(p[1]) || !cont(p[2]) || !cont(p[3])) return bad();
            if (c == 0xF0 && p[1] < 0x90) return bad();  // overlong
            if (c == 0xF4 && p[1] >= 0x90) return bad(); // above U+10FFFF
            p += 4;
        } else {
            return bad();
        }
    }
    return s.size();
}

} // namespace memviz
