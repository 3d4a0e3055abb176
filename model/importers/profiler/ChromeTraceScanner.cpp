#include "importers/profiler/ChromeTraceScanner.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/Errors.h"
#include "core/Progress.h"
#include "io/InputFile.h"
#include "io/JsonEventStream.h"
#include "io/Numbers.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace od = simdjson::ondemand;

std::string deviceTypeName(int type) {
    static const char* const names[] = {"cpu",  "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip",
                                        "fpga", "ort",  "xla",    "vulkan", "metal",  "xpu",   "mps",
                                        "meta", "hpu",  "ve",     "lazy",   "ipu",    "mtia",  "privateuseone"};
    if (type >= 0 && type < static_cast<int>(std::size(names))) return names[type];
    return "device" + std::to_string(type);
}

bool countsAsCpuMemory(int type) { return type == 0 || type == 2 || type == 5; }

namespace {

// The categories of CPU-side events: the ones key_averages attributes memory to.
bool isCpuSideCategory(std::string_view cat) {
    return cat == "cpu_op" || cat == "Operator" || cat == "user_annotation" || cat == "cuda_runtime" ||
           cat == "cuda_driver" || cat == "Runtime" || cat == "python_function";
}

// A JSON number token in microseconds ("1623142623460121", "12.345", "1e3") to ns, exactly
// for integers and up to three decimals.
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

struct EventFields {
    std::string_view ph, cat, name, pid, tid, ts, dur, inputDims;
    bool hasTs = false, hasDur = false;
    // [memory] args
    std::int64_t deviceType = 0, deviceId = -1, addr = 0, bytes = 0, totalAllocated = 0, totalReserved = 0;
    bool hasDeviceType = false, hasBytes = false, hasAddr = false, hasTotalAllocated = false, hasTotalReserved = false;
    bool badArg = false;
};

// Text of a scalar value: a number's token or a string's content.
std::string_view scalarText(od::value v) {
    if (v.type() == od::json_type::string) return v.get_string();
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

void readArgs(od::object args, EventFields& e) {
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
        }
    }
}

// "[[1, 2], []]" whatever the spacing in the file, like str(evt.input_shapes).
std::string normaliseShapes(std::string_view raw) {
    std::string out;
    out.reserve(raw.size() + 8);
    for (char c : raw) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
        out.push_back(c);
        if (c == ',') out.push_back(' ');
    }
    return out;
}

class Scanner {
public:
    Scanner(InputFile& in, TraceWriter& out, const Progress& progress) : in_(in), out_(out), progress_(progress) {
        noShapes_ = out_.name(NameKind::Shapes, "");
    }

    ScannedTrace run() {
        JsonEventStream stream(in_, "traceEvents");
        stream.run([this](const JsonEventStream::Batch& b) { scanBatch(b); },
                   [this](std::string_view key, std::string_view raw) { member(key, raw); });
        if (!stream.sawEvents()) throw ImportError(in_.path() + ": no traceEvents in the trace");
        return finish();
    }

private:
    void member(std::string_view key, std::string_view raw) {
        if (key == "baseTimeNanoseconds") {
            const auto v = parseInt64(raw);
            if (!v) throw ImportError(in_.path() + ": baseTimeNanoseconds is not an integer: " + std::string(raw.substr(0, 40)));
            baseTimeNs_ = *v;
        } else if (key == "schemaVersion" || key == "distributedInfo" || key == "displayTimeUnit") {
            std::string value(raw);
            if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
            out_.setMetadata(key, value);
        }
    }

    // One batch of events: a stream of JSON documents, one per event.
    void scanBatch(const JsonEventStream::Batch& b) {
        od::document_stream docs;
        // One batch size for every call, so the parser keeps its buffers instead of
        // reallocating them per batch (JsonEventStream's batches are about 4 MiB).
        if (auto error = parser_.iterate_many(b.data, b.size, std::max<std::size_t>(b.size, 8u << 20)).get(docs))
            throw ImportError(in_.path() + ": byte " + std::to_string(b.offset) + ": invalid JSON: " + simdjson::error_message(error));
        for (auto it = docs.begin(); it != docs.end(); ++it) {
            eventOffset_ = b.offset + static_cast<std::int64_t>(it.current_index());
            od::document_reference doc;
            try {
                if (auto error = (*it).get(doc)) throw simdjson::simdjson_error(error);
                od::object obj = doc.get_object();
                EventFields e;
                for (auto field : obj) {
                    const std::string_view key = field.unescaped_key();
                    od::value v = field.value();
                    if (key == "ph") e.ph = v.get_string();
                    else if (key == "cat") e.cat = v.get_string();
                    else if (key == "name") e.name = v.get_string();
                    else if (key == "pid") e.pid = scalarText(v);
                    else if (key == "tid") e.tid = scalarText(v);
                    else if (key == "ts") e.ts = scalarText(v), e.hasTs = true;
                    else if (key == "dur") e.dur = scalarText(v), e.hasDur = true;
                    else if (key == "args" && v.type() == od::json_type::object) readArgs(v.get_object(), e);
                }
                take(e);
            } catch (const simdjson::simdjson_error& error) {
                // Where the parser stopped, when it can tell; else where the event starts.
                const char* at = nullptr;
                std::int64_t where = eventOffset_;
                if (!doc.current_location().get(at) && at >= b.data && at <= b.data + b.size)
                    where = b.offset + (at - b.data);
                throw ImportError(in_.path() + ": byte " + std::to_string(where) + ": invalid JSON in event " +
                                  std::to_string(result_.eventCount + 1) + ": " + simdjson::error_message(error.error()));
            }
            ++result_.eventCount;
        }
        if (docs.truncated_bytes() > 0)
            throw ImportError(in_.path() + ": byte " + std::to_string(b.offset + static_cast<std::int64_t>(b.size - docs.truncated_bytes())) +
                              ": invalid JSON: an event is not complete");
        progress_.update(in_.fileOffset(), in_.fileSize());
    }

    // Events come in long runs from one thread: the last label is remembered.
    std::int32_t thread(const EventFields& e) {
        if (lastThread_ >= 0 && e.pid == lastPid_ && e.tid == lastTid_) return lastThread_;
        std::string label(e.pid);
        label += '/';
        label += e.tid;
        lastPid_.assign(e.pid);
        lastTid_.assign(e.tid);
        lastThread_ = out_.thread(label);
        return lastThread_;
    }

    // Input Dims by their text in the file, normalised once.
    std::int32_t shapes(std::string_view raw) {
        if (raw.empty()) return noShapes_;
        const auto it = shapeIds_.find(raw);
        if (it != shapeIds_.end()) return it->second;
        const std::int32_t id = out_.name(NameKind::Shapes, normaliseShapes(raw));
        shapeIds_.emplace(std::string(raw), id);
        return id;
    }

    void skipMemory(const std::string& why) {
        if (result_.skippedMemory++ == 0)
            result_.firstSkipLocation =
                "event " + std::to_string(result_.eventCount + 1) + ", byte " + std::to_string(eventOffset_) + ": " + why;
    }

    void take(const EventFields& e) {
        std::int64_t ts = 0;
        if (e.hasTs && !microsToNs(e.ts, ts)) {
            if (e.name == "[memory]") skipMemory("non-numeric ts");
            return;
        }
        if (e.hasTs) {
            minTs_ = std::min(minTs_, ts);
            std::int64_t dur = 0;
            if (e.hasDur && microsToNs(e.dur, dur) && dur > 0) maxEnd_ = std::max(maxEnd_, ts + dur);
            else maxEnd_ = std::max(maxEnd_, ts);
        }
        const bool oom = e.name == "[OutOfMemory]";
        if (e.name == "[memory]" || oom) {
            if (!e.hasTs) return skipMemory("no ts");
            if (e.badArg || !e.hasDeviceType || (!e.hasBytes && !oom)) return skipMemory("missing or non-numeric args");
            MemoryRecord m;
            m.t = ts;
            m.bytes = e.bytes;
            m.address = e.addr;
            m.hasAddress = e.hasAddr;
            m.totalAllocated = e.totalAllocated;
            m.totalReserved = e.totalReserved;
            m.hasTotals = e.hasTotalAllocated && e.hasTotalReserved;
            m.deviceType = static_cast<std::int32_t>(e.deviceType);
            m.deviceId = static_cast<std::int32_t>(e.deviceId);
            m.thread = thread(e);
            m.outOfMemory = oom;
            m.order = static_cast<std::int64_t>(result_.memory.size());
            result_.memory.push_back(m);
            return;
        }
        if (e.ph != "X" || !isCpuSideCategory(e.cat) || !e.hasTs) return;
        if (e.cat == "Operator") sawOldOperators_ = true;
        OpRecord op;
        op.t = ts;
        std::int64_t dur = 0;
        if (e.hasDur && microsToNs(e.dur, dur) && dur > 0) op.dur = dur;
        op.thread = thread(e);
        op.name = out_.name(NameKind::Op, e.name);
        op.shapes = shapes(e.inputDims);
        result_.ops.push_back(op);
    }

    ScannedTrace finish() {
        if (minTs_ == std::numeric_limits<std::int64_t>::max()) minTs_ = 0;
        for (MemoryRecord& m : result_.memory) m.t -= minTs_;
        for (OpRecord& o : result_.ops) o.t -= minTs_;
        result_.originNs = minTs_ + baseTimeNs_;
        result_.endNs = maxEnd_ == std::numeric_limits<std::int64_t>::min() ? 0 : maxEnd_ - minTs_;
        result_.family = sawOldOperators_ ? "pytorch<=1.9" : (baseTimeNs_ ? "pytorch>=2.4" : "pytorch1.10-2.3");
        return std::move(result_);
    }

    InputFile& in_;
    TraceWriter& out_;
    const Progress& progress_;
    od::parser parser_;
    std::int64_t eventOffset_ = 0;
    ScannedTrace result_;
    std::int32_t noShapes_ = 0;
    std::string lastPid_, lastTid_;
    std::int32_t lastThread_ = -1;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> shapeIds_;
    std::int64_t minTs_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t maxEnd_ = std::numeric_limits<std::int64_t>::min();
    std::int64_t baseTimeNs_ = 0;
    bool sawOldOperators_ = false;
};

} // namespace

ScannedTrace scanChromeTrace(InputFile& in, TraceWriter& out, const Progress& progress) {
    return Scanner(in, out, progress).run();
}

} // namespace memviz
