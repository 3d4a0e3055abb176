// SPDX-License-Identifier: MIT
// The flame graph SVG (see FlameSvg.h).
#include "report/FlameSvg.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "words/Units.h"
#include "report/Markup.h"

namespace memviz {

namespace {

constexpr double kWidth = 1200, kRow = 17;

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string color(const std::string& label) {
    const std::size_t h = std::hash<std::string>{}(label);
    char buf[32];
    std::snprintf(buf, sizeof buf, "hsl(%d,%d%%,%d%%)", static_cast<int>(h % 50) + 5, 65 + static_cast<int>((h >> 8) % 25),
                  55 + static_cast<int>((h >> 16) % 15));
    return buf;
}

} // namespace

std::string flameSvg(const StackTree& tree, bool bytes, std::size_t maxFrames) {
    const double total = static_cast<double>(std::max<std::int64_t>(tree.total(), 1));
    struct Box {
        std::int32_t node;
        double x, w;
        int depth;
    };
    std::vector<Box> boxes;
    std::vector<Box> todo{{0, 0, kWidth, 0}};
    int maxDepth = 0;
    // Breadth first, so a cap on frames keeps the outer (wider) ones.
    for (std::size_t i = 0; i < todo.size() && boxes.size() < maxFrames; ++i) {
        const Box b = todo[i];
        boxes.push_back(b);
        maxDepth = std::max(maxDepth, b.depth);
        double x = b.x;
        for (const std::int32_t child : tree.nodes[static_cast<std::size_t>(b.node)].children) {
            const double w = static_cast<double>(tree.nodes[static_cast<std::size_t>(child)].inclusive) / total * kWidth;
            if (w < 0.5) break; // children are largest first
            todo.push_back({child, x, w, b.depth + 1});
            x += w;
        }
    }
    const double height = (maxDepth + 1) * kRow + 2;
    std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
                    "\" width=\"" + std::to_string(static_cast<int>(kWidth)) + "\" height=\"" +
                    std::to_string(static_cast<int>(height)) + "\" data-frames=\"" +
                    std::to_string(boxes.size()) + "\">\n";
    for (const Box& b : boxes) {
        const StackNode& n = tree.nodes[static_cast<std::size_t>(b.node)];
        const std::string value = bytes ? formatBytes(static_cast<double>(n.inclusive)) : std::to_string(n.inclusive);
        // The root reads as the window's does: "all (3.58 GiB)".
        const std::string label = b.node == 0 ? "all (" + value + ")" : frameLabel(tree.frameAt(b.node));
        char share[32];
        std::snprintf(share, sizeof share, "%.1f%%", 100.0 * static_cast<double>(n.inclusive) / total);
        s += "<g><title>" + escapeMarkup(label + " — " + value + " (" + share + ")") + "</title><rect x=\"" + num(b.x) +
             "\" y=\"" + num(b.depth * kRow) + "\" width=\"" + num(std::max(b.w - 0.5, 0.5)) + "\" height=\"" + num(kRow - 1) +
             "\" fill=\"" + (b.node == 0 ? std::string("#bbb") : color(label)) + "\"/>";
        if (b.w > 40) {
            const std::size_t chars = static_cast<std::size_t>((b.w - 6) / 6.5);
            std::string shown = label;
            if (label.size() > chars) {
                std::size_t cut = chars > 2 ? chars - 2 : 0;
                while (cut > 0 && (static_cast<unsigned char>(label[cut]) & 0xC0) == 0x80) --cut; // not inside a UTF-8 character
                shown = label.substr(0, cut) + "..";
            }
            s += "<text x=\"" + num(b.x + 3) + "\" y=\"" + num(b.depth * kRow + 12) + "\">" + escapeMarkup(shown) + "</text>";
        }
        s += "</g>\n";
    }
    s += "</svg>\n";
    return s;
}

} // namespace memviz
