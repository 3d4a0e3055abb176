// SPDX-License-Identifier: MIT
// Text widths from DejaVu Sans' advances (see TextWidth.h).
#include "plot/TextWidth.h"

#include <cstdint>

#include "plot/GlyphAdvances.h"

namespace memviz {

namespace {

// The next code point of `s` from `i` (advancing it); a malformed byte is itself one character.
char32_t nextCodePoint(std::string_view s, std::size_t& i) {
    const auto b = static_cast<unsigned char>(s[i++]);
    int more = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0;
    char32_t c = more == 3 ? b & 0x07 : more == 2 ? b & 0x0F : more == 1 ? b & 0x1F : b;
    for (; more > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; --more)
        c = (c << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
    return c;
}

} // namespace

double svgTextWidth(std::string_view utf8, double pixelSize, bool bold) {
    const std::uint16_t* ascii = bold ? glyphs::kDejaVuSansBoldAscii : glyphs::kDejaVuSansAscii;
    const std::uint16_t* extra = bold ? glyphs::kDejaVuSansBoldExtra : glyphs::kDejaVuSansExtra;
    double units = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const char32_t c = nextCodePoint(utf8, i);
        if (c >= 32 && c < 127) {
            units += ascii[c - 32];
            continue;
        }
        double w = 2048; // not in the table: 1 em
        for (std::size_t k = 0; k < sizeof glyphs::kExtras / sizeof glyphs::kExtras[0]; ++k)
            if (glyphs::kExtras[k] == c) w = extra[k];
        units += w;
    }
    return units / 2048.0 * pixelSize;
}

} // namespace memviz
