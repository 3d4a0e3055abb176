// SPDX-License-Identifier: MIT
#pragma once
// The width of a text as a browser draws it in the report's SVG, whose CSS names DejaVu Sans
// first (report/HtmlReport's style, with font-kerning off and geometric text rendering, so the
// width is the sum of the glyphs' advances): measured from the font's own advance widths
// (plot/GlyphAdvances.h), so plot/LabelPlacement's boxes are the boxes Chromium draws. Plain
// C++, no font files read at run time. A character outside the table counts as 1 em (wide
// characters such as CJK ones are about that).
#include <string_view>

namespace memviz {

// The font-family list the report's CSS gives its SVG texts: the measured font first.
inline constexpr const char* kSvgFontFamily = "'DejaVu Sans',sans-serif";

// `utf8` in DejaVu Sans (Bold) at `pixelSize` pixels per em, in pixels.
double svgTextWidth(std::string_view utf8, double pixelSize, bool bold = false);

} // namespace memviz
