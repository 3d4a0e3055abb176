// SPDX-License-Identifier: MIT
#include "formats/profiler/ChromeTraceScanner.h"

#include <array>
#include <deque>
#include <future>
#include <limits>
#include <memory>
#include <unordered_map>

#include "core/Errors.h"
#include "core/Progress.h"
#include "core/SystemMemory.h"
#include "formats/FormatIds.h"
#include "formats/profiler/ChromeEventParser.h"
#include "io/InputFile.h"
#include "io/JsonEventStream.h"
#include "io/Numbers.h"
#include "store/TraceWriter.h"
#include "store/WorkQueue.h"

namespace memviz {

std::string deviceTypeName(int type) {
    static const char* const names[] = {"cpu",  "cuda", "mkldnn", "opengl", "opencl", "ideep", "hip",
                                        "fpga", "ort",  "xla",    "vulkan", "metal",  "xpu",   "mps",
                                        "meta", "hpu",  "ve",     "lazy",   "ipu",    "mtia",  "privateuseone"};
    if (type >= 0 && type < static_cast<int>(std::size(names))) return names[type];
    return "device" + std::to_string(type);
}

bool countsAsCpuMemory(int type) { return type == 0 || type == 2 || type == 5; }

namespace {

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
        stream.run([this](JsonEventStream::Batch& b) { submit(b); },
                   [this](std::string_view key, std::string_view raw) { member(key, raw); });
        while (!pending_.empty()) takeOldest();
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
        } else {
            // Anything else the profiler writes at the top (traceName, deviceProperties, the
            // CUDA and CUPTI versions, record_shapes, profile_memory, with_stack, a cluster's
            // job fields, ...) is kept as it is, not dropped (issue 30: the wild corpus).
            std::string value(raw.substr(0, metadata_key::kTraceMemberMaxBytes));
            if (raw.size() > metadata_key::kTraceMemberMaxBytes) value += "… (" + std::to_string(raw.size()) + " bytes)";
            else if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
            out_.setMetadata(metadata_key::kTraceMemberPrefix + std::string(key), value);
        }
    }

    // The store's ids of a parser's numbers (EventFields::nameNumber, shapesNumber), by number.
    struct Numbers {
        std::vector<std::int32_t> names, shapes;
    };

    // Batches are parsed on two worker threads, each with its own parser, while this thread
    // reads and splits the file and takes the parsed events in file order.
    struct Pending {
        std::shared_ptr<ParsedBatch> batch;
        std::future<void> parsed;
        std::size_t worker = 0;
    };

    void submit(JsonEventStream::Batch& b) {
        // Batches are reused: fresh pages for every batch cost more than parsing it.
        std::shared_ptr<ParsedBatch> batch;
        if (spare_.empty()) {
            batch = std::make_shared<ParsedBatch>();
        } else {
            batch = std::move(spare_.back());
            spare_.pop_back();
        }
        batch->adopt(*b.storage, b.data, b.size, b.offset); // the stream's buffer, not a copy
        auto done = std::make_shared<std::promise<void>>();
        const std::size_t worker = submitted_++ % kWorkers;
        Pending p{batch, done->get_future(), worker};
        workers_[worker]->post([batch, done, parser = &parsers_[worker]] {
            parser->parse(*batch);
            done->set_value();
        });
        pending_.push_back(std::move(p));
        // Bounded: at most a few batches in flight.
        while (pending_.size() > 2 * kWorkers) takeOldest();
    }

    void takeOldest() {
        Pending p = std::move(pending_.front());
        pending_.pop_front();
        p.parsed.get();
        const ParsedBatch& b = *p.batch;
        // The store's ids of the texts the batch's parser numbered first in it, in order (the
        // same order of first appearance as interning them event by event).
        Numbers& numbers = numbers_[p.worker];
        for (const std::string& name : b.newNames) numbers.names.push_back(opName(name));
        for (const std::string& raw : b.newShapes) numbers.shapes.push_back(shapes(raw));
        for (const EventFields& e : b.events) {
            eventOffset_ = e.offset;
            take(e, numbers);
            ++result_.eventCount;
        }
        if (b.failed) {
            const std::string at = in_.path() + ": byte " + std::to_string(b.errorOffset) + ": ";
            if (b.incomplete) throw ImportError(at + "invalid JSON: an event is not complete");
            if (b.wholeBatch) throw ImportError(at + "invalid JSON: " + b.error);
            throw ImportError(at + "invalid JSON in event " +
                              std::to_string(result_.eventCount + b.eventsSkippedBeforeError + 1) + ": " + b.error);
        }
        if (!reserved_) reserveForWholeFile(b.offset + static_cast<std::int64_t>(b.size));
        progress_.update(std::min(in_.fileOffset(), b.offset + static_cast<std::int64_t>(b.size)), in_.fileSize());
        spare_.push_back(std::move(p.batch));
    }

    // After the first batch: the records' vectors reserved for the whole file at twice that
    // batch's density, so that they do not grow by copying (issue 33: a quarter of the 240 MB
    // trace's page faults were vectors growing; with a fifth more its 500,002 memory records
    // missed the 498,183 reserved by a hair and were copied once, 28 MB). Address space only:
    // pages come as records are written. Plain files only (a compressed file's size says
    // nothing of its events), and at most a quarter of memory for each.
    void reserveForWholeFile(std::int64_t consumed) {
        reserved_ = true;
        const std::int64_t size = in_.fileSize();
        if (in_.compression() != Compression::None || consumed <= 0 || size < 4 * consumed) return;
        const double scale = 2.0 * static_cast<double>(size) / static_cast<double>(consumed);
        const auto memory = static_cast<double>(totalPhysicalMemory().value_or(std::int64_t{8} << 30));
        const auto expect = [&](auto& records) {
            using Record = typename std::decay_t<decltype(records)>::value_type;
            const double wanted = std::min(static_cast<double>(records.size()) * scale, memory / 4 / sizeof(Record));
            try {
                records.reserve(static_cast<std::size_t>(wanted));
            } catch (const std::exception&) { // refused: the vector grows as it goes
            }
        };
        expect(result_.memory);
        expect(result_.ops);
    }

    // Events come in long runs from one thread: the last label is remembered.
    // Compared as numbers when both are (EventFields::numericThread), else as texts.
    std::int32_t thread(const EventFields& e) {
        if (lastThread_ >= 0 && e.numericThread == lastNumeric_) {
            if (e.numericThread ? e.pidNumber == lastPidNumber_ && e.tidNumber == lastTidNumber_
                                : e.pid == lastPid_ && e.tid == lastTid_)
                return lastThread_;
        }
        std::string label(e.pid);
        label += '/';
        label += e.tid;
        lastPid_.assign(e.pid);
        lastTid_.assign(e.tid);
        lastNumeric_ = e.numericThread;
        lastPidNumber_ = e.pidNumber;
        lastTidNumber_ = e.tidNumber;
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

    [[noreturn]] void failAtEvent(const std::string& why) const {
        throw ImportError(in_.path() + ": byte " + std::to_string(eventOffset_) + ": event " +
                          std::to_string(result_.eventCount + 1) + ": " + why);
    }

    void skipMemory(const std::string& why) {
        if (result_.skippedMemory++ == 0)
            result_.firstSkipLocation = "event " + std::to_string(result_.eventCount + 1) + ", byte " +
                                        std::to_string(eventOffset_) + ": " + why;
    }

    // An op name's id in the store, its text kept for the ops' names.
    std::int32_t opName(std::string_view name) {
        const std::int32_t id = out_.name(NameKind::Op, name);
        if (id >= 0) {
            if (static_cast<std::size_t>(id) >= result_.opNames.size()) result_.opNames.resize(static_cast<std::size_t>(id) + 1);
            std::string& known = result_.opNames[static_cast<std::size_t>(id)];
            if (known.empty()) known.assign(name);
        }
        return id;
    }

    void take(const EventFields& e, const Numbers& numbers) {
        if (e.hasTs && !e.tsValid) {
            if (e.role == EventRole::Memory) skipMemory("non-numeric ts");
            return;
        }
        const std::int64_t ts = e.tsNs;
        const bool positiveDur = e.hasDur && e.durValid && e.durNs > 0;
        if (e.hasTs) {
            // Times become ns from the earliest event: no two may be 2^63 ns (292 years) apart.
            std::int64_t end = ts;
            if (positiveDur && __builtin_add_overflow(ts, e.durNs, &end)) failAtEvent("ts + dur is past 2^63 - 1 ns");
            const std::int64_t lo = std::min(minTs_, ts), hi = std::max(maxEnd_, end);
            std::int64_t span = 0;
            if (__builtin_sub_overflow(hi, lo, &span))
                failAtEvent("its time is more than 292 years from another event's (a damaged ts?)");
            minTs_ = lo;
            maxEnd_ = hi;
        }
        if (e.role == EventRole::Other) return;
        const bool oom = e.role == EventRole::OutOfMemory;
        if (e.role == EventRole::Memory || oom) {
            if (!e.hasTs) return skipMemory("no ts");
            if (e.badArg || !e.hasDeviceType || (!e.hasBytes && !oom)) return skipMemory("missing or non-numeric args");
            // Every memory sum (live bytes, an op's inclusive and self bytes) is a sum of some of
            // these, so their absolute values together must fit int64.
            if (e.bytes == std::numeric_limits<std::int64_t>::min() ||
                __builtin_add_overflow(absoluteBytes_, e.bytes < 0 ? -e.bytes : e.bytes, &absoluteBytes_))
                failAtEvent("the memory events' Bytes add up past 2^63 - 1 (a damaged file?)");
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
            result_.memory.push_back(m);
            return;
        }
        if (!e.hasTs) return; // a call (EventRole::Call) needs its start
        if (e.oldOperator) sawOldOperators_ = true;
        OpRecord op;
        op.t = ts;
        if (positiveDur) op.dur = e.durNs;
        op.thread = thread(e);
        // Numbered by the parser (EventFields::nameNumber) for every call that gets here.
        op.name = numbers.names[static_cast<std::size_t>(e.nameNumber)];
        op.shapes = e.shapesNumber >= 0 ? numbers.shapes[static_cast<std::size_t>(e.shapesNumber)] : noShapes_;
        if (!e.callStack.empty()) {
            const auto [it, fresh] = callStackIds_.try_emplace(std::string(e.callStack), static_cast<std::int32_t>(result_.callStacks.size()));
            if (fresh) result_.callStacks.emplace_back(e.callStack);
            op.callStack = it->second;
            ++result_.callsWithStack;
        }
        if (e.pythonFunction) result_.pythonFunctions = true;
        result_.ops.push_back(op);
    }

    ScannedTrace finish() {
        if (minTs_ == std::numeric_limits<std::int64_t>::max()) minTs_ = 0;
        for (MemoryRecord& m : result_.memory) m.t -= minTs_;
        for (OpRecord& o : result_.ops) o.t -= minTs_;
        if (__builtin_add_overflow(minTs_, baseTimeNs_, &result_.originNs))
            throw ImportError(in_.path() + ": baseTimeNanoseconds plus the first event's ts is past 2^63 - 1 ns");
        result_.endNs = maxEnd_ == std::numeric_limits<std::int64_t>::min() ? 0 : maxEnd_ - minTs_;
        result_.path = in_.path();
        result_.family = sawOldOperators_ ? "pytorch<=1.9" : (baseTimeNs_ ? "pytorch>=2.4" : "pytorch1.10-2.3");
        return std::move(result_);
    }

    InputFile& in_;
    TraceWriter& out_;
    const Progress& progress_;
    static constexpr std::size_t kWorkers = 2;
    // Declared before the queues: a queue's thread is joined before its parser goes.
    std::array<EventBatchParser, kWorkers> parsers_;
    std::array<std::unique_ptr<WorkQueue>, kWorkers> workers_{std::make_unique<WorkQueue>(), std::make_unique<WorkQueue>()};
    std::deque<Pending> pending_;
    // Per worker: the store's ids of its parser's numbers.
    std::array<Numbers, kWorkers> numbers_;
    std::vector<std::shared_ptr<ParsedBatch>> spare_;
    std::size_t submitted_ = 0;
    std::int64_t eventOffset_ = 0;
    ScannedTrace result_;
    std::int32_t noShapes_ = 0;
    std::string lastPid_, lastTid_;
    std::int32_t lastThread_ = -1;
    bool lastNumeric_ = false;
    std::uint64_t lastPidNumber_ = 0, lastTidNumber_ = 0;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const noexcept { return std::hash<std::string_view>{}(v); }
    };
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> shapeIds_;
    std::unordered_map<std::string, std::int32_t> callStackIds_;
    std::int64_t minTs_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t maxEnd_ = std::numeric_limits<std::int64_t>::min();
    std::int64_t baseTimeNs_ = 0;
    std::int64_t absoluteBytes_ = 0; // sum of |Bytes| of the memory events kept
    bool sawOldOperators_ = false;
    bool reserved_ = false;
};

} // namespace

ScannedTrace scanChromeTrace(InputFile& in, TraceWriter& out, const Progress& progress) {
    return Scanner(in, out, progress).run();
}

} // namespace memviz
