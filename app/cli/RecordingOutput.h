// SPDX-License-Identifier: MIT
#pragma once
// How the command line prints what a live recording was: its target, how it ended, the
// program's exit status (`memviz record` at the end, `memviz summary` for live traces).
#include <QJsonObject>
#include <QString>

#include "formats/live/LiveQueries.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

QJsonObject recordingJson(const LiveRecordingInfo& r);
// Two or three lines: what was recorded, and how it ended.
QString recordingText(const LiveRecordingInfo& r);

// One live trace as `memviz record --json` reports it: `memviz summary --json`'s object with
// "samples" (sampling moments) and "recording".
QJsonObject liveTraceJson(Database& db, std::int64_t traceId);
// "recorded N samples over D into STORE (trace ID)", then the recording's lines.
QString liveTraceHeadline(Database& db, const QString& store, std::int64_t traceId);
// A line per device: "NAME peak P at T, final F", each after `indent`.
QString deviceLines(const TraceSummary& summary, const QString& indent = {});

} // namespace memviz::cli
