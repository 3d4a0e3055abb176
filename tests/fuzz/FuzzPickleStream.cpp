// SPDX-License-Identifier: MIT
// The streaming pickle reader (PickleStream.h) and the streaming snapshot reader
// (SnapshotStream.h), fed in chunks of sizes the input chooses, against the readers of the
// whole tree: the pickle and snapshot targets call these on every input. Disagreement is a
// finding; the stream may only fall back (StreamFallback), never give other values.
#include "FuzzPickleStream.h"
#include "FuzzStore.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/snapshot/SnapshotReader.h"
#include "formats/snapshot/SnapshotStream.h"
#include "pickle/PickleReader.h"
#include "pickle/PickleStream.h"

namespace memviz::fuzz {

namespace {

// Hands out `d` in chunks of 1 to 61 bytes, sizes drawn from the data itself.
pickle::ByteSource chunked(std::string_view d) {
    return [d, seed = d.size()](char* dst, std::size_t n) mutable {
        if (d.empty()) return std::size_t{0};
        seed = seed * 31 + static_cast<unsigned char>(d[seed % d.size()]);
        const std::size_t k = std::min({d.size(), n, 1 + seed % 61});
        std::copy_n(d.data(), k, dst);
        d.remove_prefix(k);
        return k;
    };
}

constexpr std::size_t kMaxChars = 1 << 16;

// A value as text; a list a sink took is written from what it was handed (`taken`), a Known
// value from the text its container had when it was released (`known`).
void render(std::string& out, const pickle::Document& doc, const pickle::Value& v,
            const std::map<std::size_t, std::vector<std::string>>* taken, const std::vector<std::string>* known = nullptr) {
    if (out.size() >= kMaxChars) return;
    if (v.kind == pickle::Kind::Known && known && v.payload >= 0 && static_cast<std::size_t>(v.payload) < known->size()) {
        out += (*known)[static_cast<std::size_t>(v.payload)];
        return;
    }
    if (!v.isContainer()) {
        out += pickle::debugString(doc, v);
        return;
    }
    if (taken && doc.isStreamed(v)) {
        out += '[';
        const auto it = taken->find(doc.containerId(v));
        if (it != taken->end())
            for (std::size_t i = 0; i < it->second.size() && out.size() < kMaxChars; ++i) out += (i ? ", " : "") + it->second[i];
        out += ']';
        return;
    }
    const auto items = doc.items(v);
    out += v.kind == pickle::Kind::Dict ? '{' : v.kind == pickle::Kind::List ? '[' : '(';
    for (std::size_t i = 0; i < items.size() && out.size() < kMaxChars; ++i) {
        if (i) out += v.kind == pickle::Kind::Dict && i % 2 ? ": " : ", ";
        render(out, doc, items[i], taken, known);
    }
    out += v.kind == pickle::Kind::Dict ? '}' : v.kind == pickle::Kind::List ? ']' : ')';
}

// Claims every list (or none) and writes down the items it is handed before they go; with
// `flat`, it takes plain dicts flat (the reader's fast path) and writes them as built ones; with
// `know`, it claims only lists near the bottom of the stack and knows every container it lets go
// by the text it had (an id into `known`), so the
// memo gives those as Kind::Known values from then on (as a snapshot's stack table knows its
// frames lists).
class Recorder : public pickle::StreamSink {
public:
    Recorder(bool claimAll, bool flat, bool know = false) : claimAll_(claimAll), flat_(flat), know_(know) {}
    // Knowing, it claims only lists near the bottom of the stack (as a snapshot's lists of
    // entries are), so that the lists inside their items are released, not streamed.
    bool claim(const pickle::Document&, std::span<const pickle::Value> below) override {
        return claimAll_ && (!know_ || below.size() <= 2);
    }
    void take(const pickle::Document& doc, const pickle::Value& list, std::span<const pickle::Value> items) override {
        for (const pickle::Value& item : items) {
            std::string text;
            render(text, doc, item, &taken, &known);
            if (text.size() >= kMaxChars) cut = true;
            taken[doc.containerId(list)].push_back(std::move(text));
        }
    }
    bool mayRelease(const pickle::Document& doc, const pickle::Value& v) override {
        if (know_ && !doc.isStreamed(v)) {
            std::string text;
            render(text, doc, v, &taken, &known);
            if (text.size() >= kMaxChars) cut = true;
            idOf[doc.containerId(v)] = static_cast<std::int64_t>(known.size());
            known.push_back(std::move(text));
        }
        return true;
    }
    void forget(std::size_t id) override { idOf.erase(id); }
    std::optional<std::int64_t> knownAs(const pickle::Document& doc, const pickle::Value& v) override {
        const auto it = idOf.find(doc.containerId(v));
        if (it == idOf.end()) return std::nullopt;
        return it->second;
    }
    bool acceptsFlat(const pickle::Document&, const pickle::Value&) override { return flat_; }
    void takeFlat(const pickle::Document& doc, const pickle::Value& list, std::span<const pickle::Value> kv,
                  std::span<const std::uint32_t> ends) override {
        std::uint32_t from = 0;
        for (const std::uint32_t end : ends) {
            std::string text = "{";
            for (std::uint32_t i = from; i < end && text.size() < kMaxChars; ++i) {
                if (i > from) text += (i - from) % 2 ? ": " : ", ";
                render(text, doc, kv[i], &taken, &known);
            }
            text += '}';
            if (text.size() >= kMaxChars) cut = true;
            taken[doc.containerId(list)].push_back(std::move(text));
            from = end;
        }
    }

    std::map<std::size_t, std::vector<std::string>> taken;
    std::vector<std::string> known;          // texts of the containers let go, by id
    std::map<std::size_t, std::int64_t> idOf; // container slot -> id, while the slot is its
    bool cut = false; // an item's text reached kMaxChars: it cannot be compared in place

private:
    bool claimAll_;
    bool flat_;
    bool know_;
};

} // namespace

void checkPickleStream(std::string_view d, const Outcome& whole) {
    std::string wholeText;
    if (whole.accepted) {
        const pickle::Document doc = pickle::parse(std::string(d));
        render(wholeText, doc, doc.root(), nullptr);
    }
    // Claims nothing; claims every list; the same, taking dicts flat; the same, knowing what it
    // lets go (Known values in the memo).
    for (const int mode : {0, 1, 2, 3}) {
        const bool claimAll = mode > 0;
        pickle::Document doc;
        Recorder sink(claimAll, mode >= 2, mode == 3);
        std::string text;
        try {
            pickle::parseStream(doc, chunked(d), sink);
            render(text, doc, doc.root(), &sink.taken, &sink.known);
        } catch (const pickle::PickleError& e) {
            if (whole.accepted || e.what() != whole.message)
                finding("the streamed pickle reader says \"" + std::string(e.what()) + "\" where the whole one says \"" +
                        (whole.accepted ? std::string("fine") : whole.message) + "\"");
            continue;
        } catch (const pickle::StreamFallback&) {
            if (!claimAll && whole.accepted) finding("the streamed pickle reader fell back with nothing claimed");
            continue;
        }
        if (!whole.accepted) finding("the streamed pickle reader accepted what the whole one refuses: " + whole.message);
        if (!sink.cut && text.size() < kMaxChars && text != wholeText)
            finding("the streamed pickle reader built other values than the whole one");
    }
}

namespace {

using snapshot::SnapshotData;

std::string describe(const SnapshotData& s, const snapshot::StackTable& stacks, const std::vector<std::string>& warnings) {
    std::string out = s.legacySegmentList ? "legacy\n" : "dict\n";
    for (const auto& seg : s.segments) {
        out += "seg " + std::to_string(seg.cudaDevice) + " " + std::to_string(seg.address) + " " + std::to_string(seg.totalSize) +
               " " + std::to_string(seg.allocatedSize) + " " + std::to_string(seg.activeSize) + " " +
               std::to_string(seg.requestedSize) + " " + std::to_string(seg.stream) + " " + seg.segmentType + " " + seg.poolId +
               " " + std::to_string(seg.expandable) + " " + std::to_string(seg.stack) + "\n";
        for (const auto& b : seg.blocks)
            out += " block " + std::to_string(b.address) + " " + std::to_string(b.size) + " " + std::to_string(b.requestedSize) +
                   " " + std::to_string(b.stack) + " " + std::to_string(static_cast<int>(b.state)) + "\n";
    }
    for (const auto& [device, trace] : s.traces) {
        out += "trace " + std::to_string(device) + "\n";
        for (std::size_t k = 0; k < trace.entries.size(); ++k) {
            const auto& e = trace.entries[k];
            const auto x = trace.extrasAt(k);
            out += " " + std::to_string(static_cast<int>(e.action)) + " " + std::to_string(e.timeUs) + " " +
                   std::to_string(e.addr) + " " + std::to_string(e.size) + " " + std::to_string(e.stack) + " " +
                   std::to_string(x.unknownAction) + " " + std::to_string(x.compileContext) + " " +
                   std::to_string(x.userMetadata) + " " + std::to_string(x.forwardFrames) + " " + std::to_string(e.hasTime) +
                   std::to_string(e.hasAddr) + "\n";
        }
        out += "runs " + std::to_string(trace.extras.size()) + "\n";
    }
    for (const auto& a : s.annotations)
        out += "annotation " + a.stage + " " + a.name + " " + std::to_string(a.cudaDevice.value_or(-7)) + " " +
               std::to_string(a.timeUs.value_or(-7)) + "\n";
    for (const auto& [k, v] : s.settings) out += "setting " + k + "=" + v + "\n";
    for (const auto& x : s.unknownActions) out += "unknown action " + x + "\n";
    for (const auto& x : s.otherTopLevelKeys) out += "other key " + x + "\n";
    for (const auto& x : s.contextTexts) out += "context " + x + "\n";
    for (const auto& f : stacks.frames()) out += "frame " + f.name + " " + f.filename + " " + std::to_string(f.line) + "\n";
    for (const auto& st : stacks.stacks()) {
        out += "stack";
        for (const std::int32_t id : st) out += " " + std::to_string(id);
        out += "\n";
    }
    for (const auto& w : warnings) out += "warning " + w + "\n";
    return out;
}

} // namespace

void checkSnapshotStream(std::string_view d) {
    std::vector<std::string> wholeWarnings, streamWarnings;
    const auto collect = [](std::vector<std::string>& into) {
        return [&into](std::string_view kind, std::string_view where, std::string_view msg) {
            into.push_back(std::string(kind) + "|" + std::string(where) + "|" + std::string(msg));
        };
    };
    std::string whole, wholeError;
    try {
        const pickle::Document doc = pickle::parse(std::string(d));
        snapshot::StackTable stacks(doc);
        const SnapshotData data = snapshot::readSnapshot(doc, stacks, Progress{}, collect(wholeWarnings));
        whole = describe(data, stacks, wholeWarnings);
    } catch (const ImportError& e) {
        wholeError = e.what();
    }
    try {
        pickle::Document doc;
        snapshot::StackTable stacks(doc);
        const Progress progress;
        snapshot::SnapshotStream sink(doc, stacks, progress, collect(streamWarnings));
        pickle::parseStream(doc, chunked(d), sink);
        const SnapshotData data = sink.finish();
        if (!wholeError.empty()) finding("the streamed snapshot reader accepted what the whole one refuses: " + wholeError);
        if (describe(data, stacks, streamWarnings) != whole)
            finding("the streamed snapshot reader gave other records than the whole one");
    } catch (const pickle::PickleError& e) {
        if (e.what() != wholeError)
            finding("the streamed snapshot reader says \"" + std::string(e.what()) + "\" where the whole one says \"" +
                    (wholeError.empty() ? std::string("fine") : wholeError) + "\"");
    } catch (const pickle::StreamFallback&) {
        // The importer reads the whole tree then: allowed for anything.
    }
}

} // namespace memviz::fuzz
