// SPDX-License-Identifier: MIT
#include "formats/ImportWorkerProtocol.h"

#include <charconv>

namespace memviz::importworker {

namespace {

// `word`: a space becomes \s too, so that the text stays one word of the line.
std::string escape(std::string_view s, bool word = false) {
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        if (c == '\\') out += "\\\\";
        else if (word && c == ' ') out += "\\s";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else out += c;
    }
    return out;
}

std::string unescape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const char next = s[++i];
        out += next == 'n' ? '\n' : next == 'r' ? '\r' : next == 's' ? ' ' : next;
    }
    return out;
}

// Splits off the first space-separated word of `rest`.
std::string_view word(std::string_view& rest) {
    const std::size_t space = rest.find(' ');
    const std::string_view w = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
    return w;
}

std::optional<std::int64_t> number(std::string_view w) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || w.empty()) return std::nullopt;
    return v;
}

const char* axisWord(PreviewAxis axis) { return axis == PreviewAxis::Index ? "index" : "time_us"; }

std::optional<Line> parsePreview(std::string_view rest) {
    Line line;
    line.kind = Line::Kind::Preview;
    const std::string_view device = word(rest);
    if (device.empty()) return std::nullopt;
    line.preview.device = unescape(device);
    const std::string_view axis = word(rest);
    if (axis == "time_us") line.preview.axis = PreviewAxis::TimeUs;
    else if (axis == "index") line.preview.axis = PreviewAxis::Index;
    else return std::nullopt;
    const auto allocatedBase = number(word(rest));
    const auto reservedBase = number(word(rest));
    if (!allocatedBase || !reservedBase) return std::nullopt;
    line.preview.allocatedBase = *allocatedBase;
    line.preview.reservedBase = *reservedBase;
    while (!rest.empty()) {
        const auto x = number(word(rest));
        const auto allocated = number(word(rest));
        const auto reserved = number(word(rest));
        if (!x || !allocated || !reserved) return std::nullopt;
        line.preview.points.push_back({*x, *allocated, *reserved});
    }
    return line;
}

} // namespace

const char* phaseWord(ProgressPhase phase) {
    switch (phase) {
    case ProgressPhase::Reading: return "reading";
    case ProgressPhase::Building: return "building";
    case ProgressPhase::Writing: return "writing";
    }
    return "reading";
}

std::string format(const Line& line) {
    switch (line.kind) {
    case Line::Kind::Phase: return std::string("phase ") + phaseWord(line.phase) + "\n";
    case Line::Kind::Progress: return "progress " + std::to_string(line.done) + " " + std::to_string(line.total) + "\n";
    case Line::Kind::Done: return "done " + std::to_string(line.traceId) + (line.imported ? " 1\n" : " 0\n");
    case Line::Kind::Error: return "error " + escape(line.message) + "\n";
    case Line::Kind::OutOfMemory: return "oom\n";
    case Line::Kind::Cancelled: return "cancelled\n";
    case Line::Kind::Preview: {
        const PreviewBatch& b = line.preview;
        std::string text = "preview " + escape(b.device, true) + " " + axisWord(b.axis) + " " + std::to_string(b.allocatedBase) +
                           " " + std::to_string(b.reservedBase);
        for (const PreviewPoint& p : b.points)
            text += " " + std::to_string(p.x) + " " + std::to_string(p.allocated) + " " + std::to_string(p.reserved);
        return text + "\n";
    }
    case Line::Kind::PreviewRestart: return "preview-restart\n";
    }
    return {};
}

std::optional<Line> parse(std::string_view text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    std::string_view rest = text;
    const std::string_view keyword = word(rest);
    Line line;
    if (keyword == "phase") {
        line.kind = Line::Kind::Phase;
        if (rest == "reading") line.phase = ProgressPhase::Reading;
        else if (rest == "building") line.phase = ProgressPhase::Building;
        else if (rest == "writing") line.phase = ProgressPhase::Writing;
        else return std::nullopt;
        return line;
    }
    if (keyword == "progress") {
        line.kind = Line::Kind::Progress;
        const auto done = number(word(rest));
        const auto total = number(rest);
        if (!done || !total) return std::nullopt;
        line.done = *done;
        line.total = *total;
        return line;
    }
    if (keyword == "done") {
        line.kind = Line::Kind::Done;
        const auto id = number(word(rest));
        if (!id || (rest != "0" && rest != "1")) return std::nullopt;
        line.traceId = *id;
        line.imported = rest == "1";
        return line;
    }
    if (keyword == "error") {
        line.kind = Line::Kind::Error;
        line.message = unescape(rest);
        return line;
    }
    if (keyword == "oom" && rest.empty()) {
        line.kind = Line::Kind::OutOfMemory;
        return line;
    }
    if (keyword == "preview") return parsePreview(rest);
    if (keyword == "preview-restart" && rest.empty()) {
        line.kind = Line::Kind::PreviewRestart;
        return line;
    }
    if (keyword == "cancelled" && rest.empty()) {
        line.kind = Line::Kind::Cancelled;
        return line;
    }
    return std::nullopt;
}

} // namespace memviz::importworker
