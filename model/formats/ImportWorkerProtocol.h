// SPDX-License-Identifier: MIT
#pragma once
// The lines an import worker (`memviz --import-worker`, a child process of the window) writes
// on its standard output, one per line, and their parsing in the window. Plain text, so a
// person can run the worker by hand and read it:
//   phase reading|building|writing        a new phase of the import starts
//   progress DONE TOTAL                   progress within the phase; while reading, DONE of
//                                         TOTAL is the file position (bytes of the file)
//   done TRACE_ID IMPORTED                the trace is in the store (IMPORTED 0: an earlier
//                                         import of the same file was reused)
//   error MESSAGE                         bad input or a store error; nothing was stored
//   oom                                   an allocation failed under the memory ceiling
//   cancelled                             stopped on SIGTERM; nothing was stored
//   preview DEVICE AXIS ABASE RBASE [X A R]...
//                                         new points of DEVICE's live memory curve
//                                         (core/PreviewSink.h): AXIS is time_us or index,
//                                         ABASE and RBASE the allocated and reserved bases so
//                                         far (they apply to all of DEVICE's points), then
//                                         triples of x, allocated and reserved bytes relative
//                                         to them; at most a few hundred per line, and a line
//                                         every 200 ms at most while reading (bases that
//                                         became exact go out at once, possibly without points)
//   preview-restart                       the preview points sent so far are void
// MESSAGE is UTF-8 with backslash and newline escaped as \\ and \n. DEVICE is escaped the same
// way, and a space in it as \s, so that it stays one word.
// The command line's `memviz import` sets no preview sink, so it never writes preview lines.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/PreviewSink.h"
#include "core/Progress.h"

namespace memviz::importworker {

// The switch that starts the worker mode: `memviz --import-worker FILE --db STORE
// [--memory-limit BYTES]`.
inline constexpr const char* kSwitch = "--import-worker";

// Test-only: makes the worker crash at its first progress report while reading
// (segv, abort, oom: allocate until the ceiling stops it, hang: ignore SIGTERM and wait).
inline constexpr const char* kCrashVariable = "MEMVIZ_TEST_CRASH_IMPORT";

// Exit statuses of a worker that ended on its own (the lines above say the same).
inline constexpr int kExitDone = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitOutOfMemory = 3;
inline constexpr int kExitCancelled = 4;

struct Line {
    enum class Kind { Phase, Progress, Done, Error, OutOfMemory, Cancelled, Preview, PreviewRestart };
    Kind kind = Kind::Error;
    ProgressPhase phase = ProgressPhase::Reading;
    std::int64_t done = 0, total = 0; // Progress
    std::int64_t traceId = 0;         // Done
    bool imported = false;            // Done
    std::string message;              // Error
    PreviewBatch preview;             // Preview

    static Line of(Kind k) {
        Line l;
        l.kind = k;
        return l;
    }
    static Line phaseStarts(ProgressPhase p) {
        Line l = of(Kind::Phase);
        l.phase = p;
        return l;
    }
    static Line progressed(std::int64_t d, std::int64_t t) {
        Line l = of(Kind::Progress);
        l.done = d;
        l.total = t;
        return l;
    }
    static Line finished(std::int64_t id, bool imp) {
        Line l = of(Kind::Done);
        l.traceId = id;
        l.imported = imp;
        return l;
    }
    static Line failed(std::string m) {
        Line l = of(Kind::Error);
        l.message = std::move(m);
        return l;
    }
    static Line outOfMemory() { return of(Kind::OutOfMemory); }
    static Line cancelled() { return of(Kind::Cancelled); }
    static Line previewed(PreviewBatch batch) {
        Line l = of(Kind::Preview);
        l.preview = std::move(batch);
        return l;
    }
    static Line previewRestarts() { return of(Kind::PreviewRestart); }
};

// One line, with its '\n'.
std::string format(const Line& line);
// nullopt for a line that is not one of the above (the worker writes nothing else, but a
// library might).
std::optional<Line> parse(std::string_view text);

const char* phaseWord(ProgressPhase phase);

} // namespace memviz::importworker
