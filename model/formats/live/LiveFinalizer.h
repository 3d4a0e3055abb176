// SPDX-License-Identifier: MIT
#pragma once
// Turns a live recording into the ordinary trace shape: series with chunks and the LOD
// pyramid, events and per-operator totals (for probe records), the canonical summary. The
// live tables stay as they are. Runs when a recording stops, and for recordings whose
// recorder died (SIGKILL, a crash, a power cut) when their store is opened again.
#include <cstdint>
#include <vector>

namespace memviz {

class Database;

// Finalises one recording (whatever its recorder's state: the caller knows it stopped).
// Returns false when it was finalised already. One transaction: all or nothing; then the
// store is checkpointed, so that the .memviz file alone (without -wal) holds the recording.
bool finalizeLiveRecording(Database& db, std::int64_t traceId);

// Finalises every recording in the store whose recorder is no longer running (its end
// reason becomes "recorder-died" unless it had recorded one). Returns their trace ids.
std::vector<std::int64_t> recoverInterruptedRecordings(Database& db);

} // namespace memviz
