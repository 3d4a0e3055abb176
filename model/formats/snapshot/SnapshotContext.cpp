// SPDX-License-Identifier: MIT
#include "formats/snapshot/SnapshotContext.h"

#include <algorithm>
#include <charconv>

#include "store/Database.h"

namespace memviz {

bool isDefaultCompileContext(std::string_view text) { return text.empty() || text == "N/A"; }

const std::string& SnapshotContexts::text(std::int32_t id) const {
    static const std::string none;
    return id >= 0 && static_cast<std::size_t>(id) < texts.size() ? texts[static_cast<std::size_t>(id)] : none;
}

const SnapshotContextRun* SnapshotContexts::runAt(int device, std::int64_t seq) const {
    if (seq < 0) return nullptr;
    // The last run of the device starting at or before seq.
    const auto it = std::upper_bound(runs.begin(), runs.end(), std::pair{device, seq}, [](const auto& key, const SnapshotContextRun& r) {
        return key.first != r.device ? key.first < r.device : key.second < r.firstSeq;
    });
    if (it == runs.begin()) return nullptr;
    const SnapshotContextRun& r = *std::prev(it);
    return r.device == device && seq <= r.lastSeq ? &r : nullptr;
}

EntryContext SnapshotContexts::at(int device, std::int64_t seq) const {
    EntryContext c;
    const SnapshotContextRun* run = runAt(device, seq);
    if (!run) return c;
    const SnapshotContextRun& r = *run;
    c.compileContext = text(r.compileContext);
    if (isDefaultCompileContext(c.compileContext)) c.compileContext.clear();
    c.userMetadata = text(r.userMetadata);
    c.forwardFrames = text(r.forwardFrames);
    return c;
}

bool SnapshotContexts::hasCompileContext() const {
    return std::any_of(runs.begin(), runs.end(), [this](const SnapshotContextRun& r) {
        return r.compileContext >= 0 && !isDefaultCompileContext(text(r.compileContext));
    });
}

bool SnapshotContexts::hasUserMetadata() const {
    return std::any_of(runs.begin(), runs.end(), [](const SnapshotContextRun& r) { return r.userMetadata >= 0; });
}

bool SnapshotContexts::hasForwardFrames() const {
    return std::any_of(runs.begin(), runs.end(), [](const SnapshotContextRun& r) { return r.forwardFrames >= 0; });
}

void writeSnapshotContexts(Database& db, std::int64_t traceId, const std::vector<std::string>& texts,
                           const std::vector<SnapshotContextRun>& runs) {
    Statement t(db, "INSERT INTO snapshot_context_texts(trace_id, id, text) VALUES (?,?,?)");
    for (std::size_t i = 0; i < texts.size(); ++i)
        t.bind(1, traceId).bind(2, static_cast<std::int64_t>(i)).bind(3, texts[i]).run();
    Statement r(db, "INSERT INTO snapshot_entry_contexts(trace_id, device, first_seq, last_seq, compile_context, "
                    "user_metadata, forward_frames) VALUES (?,?,?,?,?,?,?)");
    const auto optional = [](std::int32_t id) { return id >= 0 ? std::optional<std::int64_t>(id) : std::nullopt; };
    for (const SnapshotContextRun& run : runs)
        r.bind(1, traceId)
            .bind(2, run.device)
            .bind(3, run.firstSeq)
            .bind(4, run.lastSeq)
            .bindOptional(5, optional(run.compileContext))
            .bindOptional(6, optional(run.userMetadata))
            .bindOptional(7, optional(run.forwardFrames))
            .run();
}

SnapshotContexts loadSnapshotContexts(Database& db, std::int64_t traceId) {
    SnapshotContexts c;
    Statement t(db, "SELECT id, text FROM snapshot_context_texts WHERE trace_id = ? ORDER BY id");
    t.bind(1, traceId);
    while (t.step()) {
        const auto id = static_cast<std::size_t>(t.int64(0));
        if (id >= c.texts.size()) c.texts.resize(id + 1);
        c.texts[id] = t.text(1);
    }
    Statement r(db, "SELECT device, first_seq, last_seq, compile_context, user_metadata, forward_frames "
                    "FROM snapshot_entry_contexts WHERE trace_id = ? ORDER BY device, first_seq");
    r.bind(1, traceId);
    const auto id = [&r](int column) { return r.isNull(column) ? -1 : static_cast<std::int32_t>(r.int64(column)); };
    while (r.step())
        c.runs.push_back({static_cast<int>(r.int64(0)), r.int64(1), r.int64(2), id(3), id(4), id(5)});
    return c;
}

std::vector<FrameRow> parseForwardFrames(std::string_view text) {
    std::vector<FrameRow> frames;
    std::size_t start = 0;
    bool afterFrame = false; // the line after a "File" line is its source code
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string_view::npos) continue;
        line = line.substr(first);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
        if (line.starts_with("File \"")) {
            const std::size_t close = line.find("\", line ", 6);
            const std::size_t in = close == std::string_view::npos ? close : line.find(", in ", close + 8);
            if (in != std::string_view::npos) {
                FrameRow f;
                f.filename = std::string(line.substr(6, close - 6));
                const std::string_view number = line.substr(close + 8, in - close - 8);
                std::int64_t n = 0;
                if (std::from_chars(number.data(), number.data() + number.size(), n).ec == std::errc() && n > 0) f.line = n;
                f.name = std::string(line.substr(in + 5));
                frames.push_back(std::move(f));
                afterFrame = true;
                continue;
            }
        }
        if (afterFrame) {
            afterFrame = false;
            continue;
        }
        if (line.starts_with("Traceback (most recent call last)")) continue;
        frames.push_back({std::string(line), {}, 0});
    }
    return frames;
}

} // namespace memviz
