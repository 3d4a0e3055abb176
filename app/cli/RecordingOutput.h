// SPDX-License-Identifier: MIT
#pragma once
// How the command line prints what a live recording was: its target, how it ended, the
// program's exit status (`memviz record` at the end, `memviz summary` for live traces).
#include <QJsonObject>
#include <QString>

#include "formats/live/LiveQueries.h"

namespace memviz::cli {

QJsonObject recordingJson(const LiveRecordingInfo& r);
// Two or three lines: what was recorded, and how it ended.
QString recordingText(const LiveRecordingInfo& r);

} // namespace memviz::cli
