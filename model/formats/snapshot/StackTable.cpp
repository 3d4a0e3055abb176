// SPDX-License-Identifier: MIT
#include "formats/snapshot/StackTable.h"

#include <algorithm>
#include <span>

#include "core/Errors.h"
#include "trace/Event.h"
#include "trace/StackSite.h"

namespace memviz::snapshot {

namespace {

constexpr std::int32_t kUnseen = -2;

std::size_t mix(std::size_t h, std::size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)); }

std::uint64_t sequenceHash(std::span<const std::int32_t> v) {
    std::uint64_t h = v.size() * 0x9e3779b97f4a7c15ull;
    std::size_t i = 0;
    for (; i + 1 < v.size(); i += 2) {
        const std::uint64_t pair = static_cast<std::uint32_t>(v[i]) | std::uint64_t{static_cast<std::uint32_t>(v[i + 1])} << 32;
        h = (h ^ pair) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    if (i < v.size()) h = (h ^ static_cast<std::uint32_t>(v[i])) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 32);
}

} // namespace

std::size_t StackTable::FrameKeyHash::operator()(const FrameKey& k) const noexcept {
    return mix(mix(std::hash<std::string_view>{}(k.name), std::hash<std::string_view>{}(k.filename)),
               static_cast<std::size_t>(k.line));
}

StackTable::StackTable(const pickle::Document& doc)
    : doc_(doc), byContainer_(doc.containerCount(), kUnseen) {}

// A document read as a stream grows while stacks are interned.
std::int32_t& StackTable::slot(std::size_t id) {
    if (id >= byContainer_.size()) byContainer_.resize(std::max(id + 1, doc_.containerCount()), kUnseen);
    return byContainer_[id];
}

void StackTable::doneReading() {
    std::vector<std::int32_t>().swap(byContainer_);
    frameIds_.clear();
    stackIds_ = AddressMap<std::int32_t>();
}

std::int32_t StackTable::internFrame(const pickle::Value& frame, const std::function<std::string()>& where) {
    if (frame.kind == pickle::Kind::Known && frame.knownKind() == pickle::Kind::Dict) return static_cast<std::int32_t>(frame.payload);
    if (frame.kind != pickle::Kind::Dict) throw ImportError(where() + ": a frame that is not a dict");
    std::int32_t& cached = slot(doc_.containerId(frame));
    if (cached != kUnseen) return cached;
    FrameKey key{{}, {}, 0};
    const auto kv = doc_.items(frame);
    for (std::size_t i = 0; i + 1 < kv.size(); i += 2) {
        const std::string_view k = doc_.text(kv[i]);
        const pickle::Value& v = kv[i + 1];
        if (k == "name" || k == "filename") {
            if (v.kind != pickle::Kind::Str)
                throw ImportError(where() + ": frame field '" + std::string(k) + "' is " + pickle::kindWithArticle(v.kind) +
                                  ", not a str");
            (k == "name" ? key.name : key.filename) = doc_.text(v);
        } else if (k == "line") {
            if (v.kind != pickle::Kind::Int && v.kind != pickle::Kind::UInt64 && v.kind != pickle::Kind::None)
                throw ImportError(where() + ": frame field 'line' is " + std::string(pickle::kindWithArticle(v.kind)) +
                                  ", not an int");
            // PyTorch writes 0 for a line it does not know; some C++ frames carry an unsigned -1
            // (18446744073709551615, pickled as LONG1) or another value no source line has.
            // All of them are an unknown line: kUnknownLine, shown as no line.
            key.line = v.kind == pickle::Kind::Int && v.payload > 0 ? v.payload : kUnknownLine;
        }
    }
    auto it = frameIds_.find(key);
    if (it == frameIds_.end()) {
        it = frameIds_.emplace(StoredFrameKey{std::string(key.name), std::string(key.filename), key.line},
                               static_cast<std::int32_t>(frames_.size()))
                 .first;
        frames_.push_back({std::string(key.name), std::string(key.filename), key.line});
    }
    cached = it->second;
    return cached;
}

std::int32_t StackTable::intern(const pickle::Value& list, const std::function<std::string()>& where) {
    if (list.kind == pickle::Kind::None) return kNoName;
    if (list.kind == pickle::Kind::Known) { // a frames list interned before, released since
        if (list.knownKind() == pickle::Kind::Dict)
            throw ImportError(where() + ": 'frames' is " + pickle::kindWithArticle(list.knownKind()) + ", not a list");
        return static_cast<std::int32_t>(list.payload);
    }
    if (list.kind != pickle::Kind::List && list.kind != pickle::Kind::Tuple)
        throw ImportError(where() + ": 'frames' is " + pickle::kindWithArticle(list.kind) + ", not a list");
    if (slot(doc_.containerId(list)) != kUnseen) return byContainer_[doc_.containerId(list)];
    const auto items = doc_.items(list);
    if (items.empty()) return byContainer_[doc_.containerId(list)] = kNoName;
    scratch_.clear();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const pickle::Value& frame = items[i];
        // A frame dict met before, known by identity (nearly every frame of a big file).
        if (frame.kind == pickle::Kind::Dict) {
            const std::size_t id = doc_.containerId(frame);
            if (id < byContainer_.size() && byContainer_[id] != kUnseen) {
                scratch_.push_back(byContainer_[id]);
                continue;
            }
        }
        scratch_.push_back(internFrame(frame, [&] { return where() + "[" + std::to_string(i) + "]"; }));
    }
    const std::int32_t stack = internSequence(where);
    // internFrame may have grown the document's tables: look the slot up again.
    return slot(doc_.containerId(list)) = stack;
}

std::int32_t StackTable::internSequence(const std::function<std::string()>& where) {
    for (std::uint64_t key = sequenceHash(scratch_);; ++key) {
        if (const std::int32_t* id = stackIds_.find(static_cast<std::int64_t>(key))) {
            if (stacks_[static_cast<std::size_t>(*id)] == scratch_) return *id;
            continue;
        }
        if (stacks_.size() >= 0x7fffffff) throw ImportError(where() + ": more than 2^31 distinct stacks");
        const auto id = static_cast<std::int32_t>(stacks_.size());
        stackIds_.put(static_cast<std::int64_t>(key), id);
        stacks_.push_back(scratch_);
        return id;
    }
}

std::string StackTable::siteOf(std::int32_t stack) const {
    if (stack < 0 || static_cast<std::size_t>(stack) >= stacks_.size()) return {};
    return stackSite(stacks_[static_cast<std::size_t>(stack)],
                     [this](std::int32_t id) -> const Frame& { return frames_[static_cast<std::size_t>(id)]; });
}

} // namespace memviz::snapshot
