// SPDX-License-Identifier: MIT
#include "formats/profiler/ChromeEventParser.h"

#include <simdjson.h>

#include <algorithm>
#include <bit>

#include "io/JsonError.h"
#include "io/JsonSkip.h"

namespace memviz {

namespace od = simdjson::ondemand;

namespace {

// The parser's string buffer is reused: strings that outlive the event are copied.
std::string_view keep(ParsedBatch& batch, std::string_view s) {
    std::string& a = batch.arena;
    if (a.size() + s.size() > a.capacity()) return batch.overflow.emplace_back(s);
    const std::size_t at = a.size();
    a.append(s);
    return std::string_view(a.data() + at, s.size());
}

// Text of a scalar value: a number's token or a string's content.
std::string_view scalarText(od::value v, ParsedBatch& batch) {
    if (v.type() == od::json_type::string) return keep(batch, v.get_string());
    const std::string_view raw = v.raw_json_token();
    std::size_t end = 0; // the token runs up to the next space or separator
    while (end < raw.size()) {
        const char c = raw[end];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '}' || c == ']') break;
        ++end;
    }
    return raw.substr(0, end);
}

bool intArg(od::value v, std::int64_t& out) {
    if (v.type() != od::json_type::number) return false;
    std::int64_t i = 0;
    if (!v.get_int64().get(i)) {
        out = i;
        return true;
    }
    std::uint64_t u = 0; // addresses above 2^63
    if (!v.get_uint64().get(u)) {
        out = static_cast<std::int64_t>(u);
        return true;
    }
    return false;
}

void readArgs(od::object args, EventFields& e, ParsedBatch& batch) {
    for (auto field : args) {
        const std::string_view key = field.unescaped_key();
        od::value v = field.value();
        std::int64_t n = 0;
        if (key == "Device Type") {
            e.hasDeviceType = intArg(v, n);
            e.badArg |= !e.hasDeviceType;
            e.deviceType = n;
        } else if (key == "Device Id") {
            if (intArg(v, n)) e.deviceId = n;
            else e.badArg = true;
        } else if (key == "Bytes") {
            e.hasBytes = intArg(v, n);
            e.badArg |= !e.hasBytes;
            e.bytes = n;
        } else if (key == "Addr") {
            e.hasAddr = intArg(v, n);
            e.addr = n;
        } else if (key == "Total Allocated") {
            e.hasTotalAllocated = intArg(v, n);
            e.totalAllocated = n;
        } else if (key == "Total Reserved") {
            e.hasTotalReserved = intArg(v, n);
            e.totalReserved = n;
        } else if (key == "Input Dims" && v.type() == od::json_type::array) {
            od::array dims = v.get_array();
            e.inputDims = dims.raw_json();
        } else if (key == "Call stack" && v.type() == od::json_type::string) {
            e.callStack = keep(batch, v.get_string());
        }
    }
}

// Events (objects) that start at or after `from` in the batch and end at or before `at`.
std::int64_t eventsEndingBefore(std::string_view batch, std::size_t from, std::size_t at) {
    std::int64_t n = 0;
    std::size_t i = from;
    for (;;) {
        while (i < at && (batch[i] == ' ' || batch[i] == '\n' || batch[i] == '\r' || batch[i] == '\t')) ++i;
        if (i >= at || batch[i] != '{') return n;
        const std::size_t end = skipJsonContainer(batch.data(), i, batch.size()); // 64 readable bytes follow
        if (end == 0 || end == kJsonTooDeep || end > at) return n;
        ++n;
        i = end;
    }
}

} // namespace

void ParsedBatch::reset(const char* data, std::size_t n, std::int64_t at, std::size_t padding) {
    bytes.assign(data, data + n + padding);
    size = n;
    offset = at;
    arena.clear();
    arena.reserve(n);
    overflow.clear();
    events.clear();
    events.reserve(n / 128); // events are rarely shorter
    failed = wholeBatch = incomplete = false;
    errorOffset = 0;
    eventsSkippedBeforeError = 0;
    error.clear();
}

struct EventBatchParser::Impl {
    od::parser parser;
    std::size_t capacity = 0; // of the parser's buffers: only grows
};

EventBatchParser::EventBatchParser() : impl_(std::make_unique<Impl>()) {}
EventBatchParser::~EventBatchParser() = default;

void EventBatchParser::parse(ParsedBatch& batch) {
    od::parser& parser = impl_->parser;
    const char* data = batch.bytes.data();
    const auto fail = [&](std::int64_t at, simdjson::error_code error) {
        batch.failed = true;
        batch.errorOffset = at;
        batch.error = simdjson::error_message(error);
    };
    od::document_stream docs;
    // The same capacity for every batch, so the parser keeps its buffers instead of reallocating
    // them per batch: JsonEventStream's batches of a large file are 4 MiB and a bit, so 8 MiB.
    // A small file's one batch gets a small parser (8 MiB of buffers is about 45 MiB, which
    // cost more than reading the file); a batch past 8 MiB (one huge event) gets its size.
    const std::size_t wanted = batch.size > (8u << 20) ? batch.size : std::bit_ceil(std::max<std::size_t>(batch.size, 64u << 10));
    impl_->capacity = std::max(impl_->capacity, wanted);
    if (auto error = parser.iterate_many(data, batch.size, impl_->capacity).get(docs)) {
        batch.wholeBatch = true;
        return fail(batch.offset, error);
    }
    for (auto it = docs.begin(); it != docs.end(); ++it) {
        EventFields e;
        e.offset = batch.offset + static_cast<std::int64_t>(it.current_index());
        od::document_reference doc;
        bool haveDoc = false; // a document_reference that get() did not fill points nowhere
        try {
            if (auto error = (*it).get(doc)) throw simdjson::simdjson_error(error);
            haveDoc = true;
            od::object obj = doc.get_object();
            for (auto field : obj) {
                const std::string_view key = field.unescaped_key();
                od::value v = field.value();
                if (key == "ph") e.ph = keep(batch, v.get_string());
                else if (key == "cat") e.cat = keep(batch, v.get_string());
                else if (key == "name") e.name = keep(batch, v.get_string());
                else if (key == "pid") e.pid = scalarText(v, batch);
                else if (key == "tid") e.tid = scalarText(v, batch);
                else if (key == "ts") e.ts = scalarText(v, batch), e.hasTs = true;
                else if (key == "dur") e.dur = scalarText(v, batch), e.hasDur = true;
                else if (key == "args" && v.type() == od::json_type::object) readArgs(v.get_object(), e, batch);
            }
        } catch (const simdjson::simdjson_error& error) {
            // Where the parser stopped, when there is a document to ask (see io/JsonError.h); else
            // the byte the error is about, found by scanning the batch; else the event's start.
            const std::string_view text(data, batch.size);
            std::optional<std::size_t> at;
            if (haveDoc) at = jsonStopOffset(&static_cast<od::document&>(doc), text);
            if (!at) at = scanForJsonError(text, error.error());
            if (at)
                batch.eventsSkippedBeforeError = eventsEndingBefore(text, static_cast<std::size_t>(e.offset - batch.offset), *at);
            return fail(at ? batch.offset + static_cast<std::int64_t>(*at) : e.offset, error.error());
        }
        batch.events.push_back(e);
    }
    if (docs.truncated_bytes() > 0) {
        batch.incomplete = true;
        fail(batch.offset + static_cast<std::int64_t>(batch.size - docs.truncated_bytes()), simdjson::SUCCESS);
    }
}

} // namespace memviz
