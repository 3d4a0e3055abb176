// SPDX-License-Identifier: MIT
#pragma once
// Where a call stack's memory was asked for, as people read it: its innermost Python frame,
// "forward (model.py:54)". Used to name allocation sites of CUDA snapshots (the per-op table,
// the allocation lists).
#include <string>
#include <string_view>

namespace memviz {

inline std::string_view fileBaseName(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

inline bool isPythonFrame(std::string_view filename) { return filename.ends_with(".py"); }

// A line a frame does not know. PyTorch writes 0 for it; memviz stores every line no source
// has (an unsigned -1, a negative number) as this too, and shows it as no line.
inline constexpr long long kUnknownLine = 0;

// "model.py:54", or "model.py" when the line is unknown.
inline std::string fileAndLine(std::string_view filename, long long line) {
    return line > 0 ? std::string(filename) + ":" + std::to_string(line) : std::string(filename);
}

inline std::string frameSite(std::string_view name, std::string_view filename, long long line) {
    return std::string(name) + " (" + fileAndLine(fileBaseName(filename), line) + ")";
}

// The site of a stack given its frames innermost first (anything with .name, .filename, .line);
// empty when no frame is a Python frame.
template <typename Frames, typename FrameOf>
std::string stackSite(const Frames& frameIds, FrameOf frameOf) {
    for (const auto& id : frameIds) {
        const auto& f = frameOf(id);
        if (isPythonFrame(f.filename)) return frameSite(f.name, f.filename, static_cast<long long>(f.line));
    }
    return {};
}

} // namespace memviz
