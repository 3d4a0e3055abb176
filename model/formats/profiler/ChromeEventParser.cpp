// SPDX-License-Identifier: MIT
#include "formats/profiler/ChromeEventParser.h"

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "io/JsonError.h"
#include "io/JsonSkip.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace od = simdjson::ondemand;

namespace {
// text == literal, with a memcmp of constant size (inlined; string_view's == calls memcmp).
template <std::size_t N>
bool is(std::string_view text, const char (&literal)[N]) {
    return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}
} // namespace

bool isCpuSideCategory(std::string_view cat) {
    return is(cat, "cpu_op") || is(cat, "Operator") || is(cat, "user_annotation") || is(cat, "cuda_runtime") || is(cat, "cuda_driver") ||
           is(cat, "Runtime") || is(cat, "python_function");
}

namespace {
// The legacy autograd profiler (torch.autograd.profiler.profile(...).export_chrome_trace) writes
// its CPU-side calls without "cat", on the process it names "CPU functions".
bool isLegacyCpuFunction(const EventFields& e) { return e.cat.empty() && is(e.pid, "CPU functions"); }
} // namespace

bool microsToNs(std::string_view text, std::int64_t& ns) {
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    // One pass: [-]digits[.digits], anything else (an exponent) through a double.
    std::size_t i = !text.empty() && text.front() == '-' ? 1 : 0;
    while (i < text.size() && isDigit(text[i])) ++i;
    const std::size_t intEnd = i;
    std::int64_t frac = 0;
    if (i < text.size() && text[i] == '.') {
        int scale = 100;
        for (std::size_t k = 0; ++i < text.size() && isDigit(text[i]); ++k) {
            if (k < 3) frac += (text[i] - '0') * scale, scale /= 10;
            else if (k == 3 && text[i] >= '5') frac += 1; // round half up at ns
        }
    }
    if (i == text.size()) {
        std::int64_t whole = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + intEnd, whole);
        if (ec != std::errc() || p != text.data() + intEnd) return false;
        if (__builtin_mul_overflow(whole, 1000, &ns)) return false;
        ns += text.front() == '-' ? -frac : frac;
        return true;
    }
    if (text[i] != 'e' && text[i] != 'E') return false;
    double d = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(d) || std::fabs(d) > 9e15) return false;
    ns = static_cast<std::int64_t>(std::llround(d * 1000.0));
    return true;
}

namespace {

// The parser's string buffer is reused: strings that outlive the event are copied.
std::string_view keep(ParsedBatch& batch, std::string_view s) {
    std::string& a = batch.arena;
    if (a.size() + s.size() > a.capacity()) return batch.overflow.emplace_back(s);
    const std::size_t at = a.size();
    a.append(s);
    return std::string_view(a.data() + at, s.size());
}

// A string's content: in the batch's bytes when it has no escapes (most do not), else
// unescaped by simdjson and kept. Not a string: get_string() throws as before.
std::string_view stringText(od::value v, ParsedBatch& batch) {
    const std::string_view raw = v.raw_json_token(); // the opening quote up to the next structural
    if (raw.size() >= 2 && raw.front() == '"') {
        const void* close = std::memchr(raw.data() + 1, '"', raw.size() - 1);
        if (close && !std::memchr(raw.data() + 1, '\\', static_cast<std::size_t>(static_cast<const char*>(close) - raw.data() - 1))) {
            // Consumed like get_string() (so what follows is checked at the same place), not copied.
            (void)od::raw_json_string(v.get_raw_json_string());
            return std::string_view(raw.data() + 1, static_cast<std::size_t>(static_cast<const char*>(close) - raw.data() - 1));
        }
    }
    return keep(batch, v.get_string());
}

// A member's name: its bytes in the batch when it has no escapes (names rarely do), else
// unescaped by simdjson. unescaped_key() copied every name into the parser's string buffer:
// a seventh of the parsers' time on the 240 MB profiler trace (issue 33).
std::string_view keyText(simdjson::simdjson_result<od::field>& field) {
    od::raw_json_string raw;
    if (const auto error = field.key().get(raw)) throw simdjson::simdjson_error(error);
    const char* key = raw.raw(); // just after the opening quote; the batch is padded
    const char* at = key;
    while (*at != '"' && *at != '\\') ++at;
    if (*at == '"') return std::string_view(key, static_cast<std::size_t>(at - key));
    return field.unescaped_key();
}

// Text of a scalar value: a number's token or a string's content.
std::string_view scalarText(od::value v, ParsedBatch& batch) {
    // type() first: it refuses a value that is no value at all (a stray ':'), at this event.
    if (v.type() == od::json_type::string) return stringText(v, batch);
    const std::string_view raw = v.raw_json_token();
    std::size_t end = 0; // the token runs up to the next space or separator
    while (end < raw.size()) {
        const char c = raw[end];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == '}' || c == ']') break;
        ++end;
    }
    return raw.substr(0, end);
}

// Digits only, 1 to 18 of them, no leading zero (but "0"): the text is the number's only spelling.
bool plainNumber(std::string_view text, std::uint64_t& out) {
    if (text.empty() || text.size() > 18 || (text[0] == '0' && text.size() > 1)) return false;
    std::uint64_t v = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    out = v;
    return true;
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
        const std::string_view key = keyText(field);
        od::value v = field.value();
        std::int64_t n = 0;
        if (is(key, "Device Type")) {
            e.hasDeviceType = intArg(v, n);
            e.badArg |= !e.hasDeviceType;
            e.deviceType = n;
        } else if (is(key, "Device Id")) {
            if (intArg(v, n)) e.deviceId = n;
            else e.badArg = true;
        } else if (is(key, "Bytes")) {
            e.hasBytes = intArg(v, n);
            e.badArg |= !e.hasBytes;
            e.bytes = n;
        } else if (is(key, "Addr")) {
            e.hasAddr = intArg(v, n);
            e.addr = n;
        } else if (is(key, "Total Allocated")) {
            e.hasTotalAllocated = intArg(v, n);
            e.totalAllocated = n;
        } else if (is(key, "Total Reserved")) {
            e.hasTotalReserved = intArg(v, n);
            e.totalReserved = n;
        } else if (is(key, "Input Dims") && v.type() == od::json_type::array) {
            od::array dims = v.get_array();
            e.inputDims = dims.raw_json();
        } else if (is(key, "Call stack") && v.type() == od::json_type::string) {
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

void ParsedBatch::adopt(JsonEventStream::Buffer& storage, const char* data, std::size_t n, std::int64_t at) {
    begin = static_cast<std::size_t>(data - storage.data());
    bytes.swap(storage);
    size = n;
    offset = at;
    arena.clear();
    arena.reserve(n);
    overflow.clear();
    newNames.clear();
    newShapes.clear();
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
    // Texts numbered so far (in order of first appearance, store/TraceWriter.h's NameTable).
    NameTable names, shapes;
    // The text's number; a text numbered here first also goes to `fresh` (the batch's list).
    static std::int32_t number(NameTable& table, std::string_view text, std::vector<std::string>& fresh) {
        const std::size_t before = table.names().size();
        const std::int32_t n = table.intern(text);
        if (table.names().size() != before) fresh.emplace_back(text);
        return n;
    }
};

EventBatchParser::EventBatchParser() : impl_(std::make_unique<Impl>()) {}
EventBatchParser::~EventBatchParser() = default;

void EventBatchParser::parse(ParsedBatch& batch) {
    od::parser& parser = impl_->parser;
    const char* data = batch.data();
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
                const std::string_view key = keyText(field);
                od::value v = field.value();
                if (is(key, "ph")) e.ph = stringText(v, batch);
                else if (is(key, "cat")) e.cat = stringText(v, batch);
                else if (is(key, "name")) e.name = stringText(v, batch);
                else if (is(key, "pid")) e.pid = scalarText(v, batch);
                else if (is(key, "tid")) e.tid = scalarText(v, batch);
                else if (is(key, "ts")) e.tsValid = microsToNs(scalarText(v, batch), e.tsNs), e.hasTs = true;
                else if (is(key, "dur")) e.durValid = microsToNs(scalarText(v, batch), e.durNs), e.hasDur = true;
                else if (is(key, "args") && v.type() == od::json_type::object) readArgs(v.get_object(), e, batch);
            }
            e.numericThread = plainNumber(e.pid, e.pidNumber) && plainNumber(e.tid, e.tidNumber);
            e.role = is(e.name, "[memory]")                             ? EventRole::Memory
                     : is(e.name, "[OutOfMemory]")                      ? EventRole::OutOfMemory
                     : is(e.ph, "X") && (isCpuSideCategory(e.cat) || isLegacyCpuFunction(e)) ? EventRole::Call
                                                                      : EventRole::Other;
            if (e.role == EventRole::Call && e.hasTs && e.tsValid) { // the calls the scanner keeps
                e.nameNumber = Impl::number(impl_->names, e.name, batch.newNames);
                if (!e.inputDims.empty()) e.shapesNumber = Impl::number(impl_->shapes, e.inputDims, batch.newShapes);
                e.oldOperator = is(e.cat, "Operator");
                e.pythonFunction = is(e.cat, "python_function");
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
