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

namespace memviz {

struct EventFields {
    std::string_view ph, cat, name, pid, tid, ts, dur, inputDims; // into the batch's bytes or strings
    std::string_view callStack; // args["Call stack"] (with_stack=True): "file(line): func;...", innermost first
    bool hasTs = false, hasDur = false;
    // [memory] args
    std::int64_t deviceType = 0, deviceId = -1, addr = 0, bytes = 0, totalAllocated = 0, totalReserved = 0;
    bool hasDeviceType = false, hasBytes = false, hasAddr = false, hasTotalAllocated = false, hasTotalReserved = false;
    bool badArg = false;
    std::int64_t offset = 0; // byte offset of the event in the file
};

struct ParsedBatch {
    std::vector<char> bytes; // a stream of JSON documents, 64 readable bytes after them
    std::size_t size = 0;    // of the documents
    std::int64_t offset = 0; // file offset of bytes[0]
    // Unescaped strings the fields point at: an arena reserved to the batch size (a string
    // unescaped is never longer than in the file, so it does not move), the rest in a deque.
    std::string arena;
    std::deque<std::string> overflow;
    std::vector<EventFields> events;
    // Set when parsing stopped early: after events.size() good events, at errorOffset.
    bool failed = false;
    bool wholeBatch = false; // the batch as a whole could not be read (not one event)
    bool incomplete = false; // the last event is cut off
    std::int64_t errorOffset = 0;
    // Whole events between the last good one and errorOffset: simdjson finds invalid UTF-8 and
    // unescaped control characters in a first pass over the batch, before any event is read.
    std::int64_t eventsSkippedBeforeError = 0;
    std::string error; // simdjson's message

    // Refills this batch (keeping its buffers' capacity) with size bytes at data, plus padding.
    void reset(const char* data, std::size_t size, std::int64_t offset, std::size_t padding);
};

// A simdjson parser and its buffers, for one thread at a time.
class EventBatchParser {
public:
    EventBatchParser();
    ~EventBatchParser();
    EventBatchParser(const EventBatchParser&) = delete;
    EventBatchParser& operator=(const EventBatchParser&) = delete;

    // Parses batch.bytes[0, size) into batch.events; never throws for bad JSON.
    void parse(ParsedBatch& batch);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace memviz
