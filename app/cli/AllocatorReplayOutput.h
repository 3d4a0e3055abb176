// SPDX-License-Identifier: MIT
#pragma once
// The allocator replay (costmodel/AllocatorReplay.h) as JSON and text, for
// `memviz allocator-replay` and the OOM list of `memviz summary --json`.
#include <QJsonObject>
#include <QString>

#include "costmodel/AllocatorReplay.h"

namespace memviz::cli {

// reserved - requested taken apart (docs/cli.md, "allocator-replay").
QJsonObject gapJson(const costmodel::ReservedGap& gap);
QJsonObject replayJson(const costmodel::AllocatorReplayResult& r, bool steps);
QString replayText(const costmodel::AllocatorReplayResult& r);
// Why the request fails on the card, in one sentence.
QString cardFailureReason(const costmodel::CardFailure& f);

} // namespace memviz::cli
