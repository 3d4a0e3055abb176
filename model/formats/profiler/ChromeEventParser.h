// SPDX-License-Identifier: MIT
#pragma once
// One batch of Chrome trace events parsed with simdjson On-Demand into the fields the
// profiler importer keeps. Batches are parsed on worker threads: a parsed batch owns its
// bytes and the strings its fields point at, and records where parsing stopped instead of
// throwing, so the events before an error are still taken in order.
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/JsonEventStream.h"

namespace memviz {

// What the scanner does with an event, decided on the parser's thread.
enum class EventRole : std::uint8_t {
    Other,       // only its time counts (the trace's start and end)
    Memory,      // name "[memory]"
    OutOfMemory, // name "[OutOfMemory]"
    Call,        // ph "X" of a CPU-side category: an op call
};

struct EventFields {
    std::string_view ph, cat, name, pid, tid, inputDims; // into the batch's bytes or strings
    std::string_view callStack; // args["Call stack"] (with_stack=True): "file(line): func;...", innermost first
    // pid and tid as numbers, when both are plain digits (1 to 18, no leading zero: one number
    // per text, so equal numbers mean equal texts). Read on the parser's thread: comparing the
    // texts on the taking thread read bytes another core had just written, a cache miss an
    // event (issue 33: 60 ms of the 240 MB trace's serial time).
    std::uint64_t pidNumber = 0, tidNumber = 0;
    bool numericThread = false;
    // For the calls the scanner keeps (role Call, with a readable ts): name and Input Dims as
    // numbers of the parser that read them (EventBatchParser: each distinct text numbered once,
    // in the order it first came; ParsedBatch::newNames/newShapes say which texts a batch
    // numbered). The taking thread maps them to the store's ids with a vector lookup instead of
    // hashing texts in bytes another core had just read (issue 33). shapes -1: no Input Dims.
    std::int32_t nameNumber = -1, shapesNumber = -1;
    bool oldOperator = false;   // cat "Operator" (PyTorch <= 1.9)
    bool pythonFunction = false; // cat "python_function"
    bool hasTs = false, hasDur = false;
    // ts and dur in ns (microsToNs), parsed on the parser's thread; false: not a number it reads.
    bool tsValid = false, durValid = false;
    std::int64_t tsNs = 0, durNs = 0;
    EventRole role = EventRole::Other;
    // [memory] args
    std::int64_t deviceType = 0, deviceId = -1, addr = 0, bytes = 0, totalAllocated = 0, totalReserved = 0;
    bool hasDeviceType = false, hasBytes = false, hasAddr = false, hasTotalAllocated = false, hasTotalReserved = false;
    bool badArg = false;
    std::int64_t offset = 0; // byte offset of the event in the file
};

struct ParsedBatch {
    JsonEventStream::Buffer bytes; // holds a stream of JSON documents at begin, 64 readable bytes after them
    std::size_t begin = 0;   // of the documents in bytes
    std::size_t size = 0;    // of the documents
    std::int64_t offset = 0; // file offset of bytes[0]
    // Unescaped strings the fields point at: an arena reserved to the batch size (a string
    // unescaped is never longer than in the file, so it does not move), the rest in a deque.
    std::string arena;
    std::deque<std::string> overflow;
    HugeVector<EventFields> events; // huge pages where allowed, as the bytes
    // Set when parsing stopped early: after events.size() good events, at errorOffset.
    bool failed = false;
    bool wholeBatch = false; // the batch as a whole could not be read (not one event)
    bool incomplete = false; // the last event is cut off
    std::int64_t errorOffset = 0;
    // Whole events between the last good one and errorOffset: simdjson finds invalid UTF-8 and
    // unescaped control characters in a first pass over the batch, before any event is read.
    std::int64_t eventsSkippedBeforeError = 0;
    std::string error; // simdjson's message
    // The texts this batch numbered first on its parser (EventFields::nameNumber/shapesNumber),
    // in number order: the parser's numbers before this batch are below these.
    std::vector<std::string> newNames, newShapes;

    // Refills this batch (keeping its buffers' capacity) with size bytes at data, which lie in
    // `storage` with 64 readable bytes after them: takes `storage` (swapping it with bytes).
    void adopt(JsonEventStream::Buffer& storage, const char* data, std::size_t size, std::int64_t offset);
    const char* data() const { return bytes.data() + begin; }
};

// A JSON number token in microseconds ("1623142623460121", "12.345", "1e3") to ns, exactly
// for integers and up to three decimals; false for anything else.
bool microsToNs(std::string_view text, std::int64_t& ns);

// The categories of CPU-side events: the ones key_averages attributes memory to.
bool isCpuSideCategory(std::string_view cat);

// A simdjson parser and its buffers, for one thread at a time.
class EventBatchParser {
public:
    EventBatchParser();
    ~EventBatchParser();
    EventBatchParser(const EventBatchParser&) = delete;
    EventBatchParser& operator=(const EventBatchParser&) = delete;

    // Parses batch.bytes[0, size) into batch.events; never throws for bad JSON. Numbers the
    // kept calls' names and Input Dims across the batches it parses (EventFields::nameNumber).
    void parse(ParsedBatch& batch);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace memviz
