// SPDX-License-Identifier: MIT
#pragma once
// The tables of live recordings (attach to a process, launch and record, the PyTorch probe
// stream): schema steps 5 and 14, registered in formats/FormatRegistry.cpp. Documented in docs/schema.md.
//
// A recording writes these tables in small transactions while it runs (at most a second of
// samples is ever uncommitted), so a killed recorder loses little; when it stops, or when a
// store with an interrupted recording is opened later, the recording is finalised into the
// ordinary shape (series chunks and LOD pyramid, events, op_stats, device_summary) by
// LiveFinalizer. The live tables stay afterwards: plain SQL answers from them.
namespace memviz {

inline constexpr const char* kLiveSchemaSql = R"SQL(
-- One row per live recording; its trace row exists from the recording's first moment.
CREATE TABLE live_recordings (
    trace_id       INTEGER PRIMARY KEY REFERENCES traces(id) ON DELETE CASCADE,
    source         TEXT    NOT NULL, -- 'attach', 'launch' or 'probe'
    state          TEXT    NOT NULL, -- 'recording', then 'finalized'
    target_pid     INTEGER,          -- the process sampled (the probe's, once it said hello)
    command        TEXT    NOT NULL, -- its command line, arguments separated by spaces
    interval_ns    INTEGER NOT NULL, -- sampling interval (0: the probe stream)
    children       INTEGER NOT NULL, -- 1: descendants' memory summed in
    recorder_pid   INTEGER NOT NULL, -- the memviz process writing it ...
    recorder_start INTEGER NOT NULL, -- ... its start time (/proc/PID/stat field 22) ...
    recorder_boot  TEXT    NOT NULL, -- ... and the boot it ran in: a dead recorder is told apart
                                     -- from a reused pid
    last_commit_ns INTEGER NOT NULL DEFAULT 0, -- t of the newest committed sample
    end_reason     TEXT,             -- why it stopped (docs/schema.md), NULL while recording
    exit_code      INTEGER,          -- the program's exit status, when memviz saw it exit
    exit_signal    INTEGER,          -- or the signal that killed it
    message        TEXT    NOT NULL DEFAULT ''
);
-- The series a recording samples; `series` numbers them within the recording.
CREATE TABLE live_series (
    trace_id   INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    series     INTEGER NOT NULL,
    device     TEXT    NOT NULL, -- 'process' for /proc samples; 'cpu', 'cuda:0' from the probe
    name       TEXT    NOT NULL, -- 'rss', 'pss', 'allocated', 'reserved', ...
    unit       TEXT    NOT NULL,
    is_primary INTEGER NOT NULL, -- the series the device summary's peak comes from
    PRIMARY KEY (trace_id, series)
) WITHOUT ROWID;
CREATE TABLE live_samples (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    series   INTEGER NOT NULL,
    t        INTEGER NOT NULL,
    value    INTEGER NOT NULL
);
CREATE INDEX live_samples_by_time ON live_samples(trace_id, series, t);
-- Labelled moments: the user's markers, the probe's phases and training steps, the exit.
CREATE TABLE live_markers (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    t        INTEGER NOT NULL,
    kind     TEXT    NOT NULL, -- 'user', 'phase', 'step', 'exit'
    label    TEXT    NOT NULL
);
CREATE INDEX live_markers_by_time ON live_markers(trace_id, t);
-- The probe's operator (or module) records: one row per record and device it reported.
CREATE TABLE live_ops (
    trace_id     INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL, -- record number in the stream
    device       TEXT    NOT NULL,
    t            INTEGER NOT NULL, -- start
    t_end        INTEGER NOT NULL,
    kind         TEXT    NOT NULL, -- 'op', 'module', 'backward', 'optimizer'; 'gap': the change
                                   -- between two ops, named '(between operators)'
    name         TEXT    NOT NULL,
    phase        TEXT    NOT NULL, -- 'forward', 'backward', 'optimizer'
    step         INTEGER NOT NULL,
    bytes_before INTEGER NOT NULL,
    bytes_after  INTEGER NOT NULL,
    PRIMARY KEY (trace_id, seq, device)
) WITHOUT ROWID;
CREATE INDEX live_ops_by_time ON live_ops(trace_id, t);
)SQL";

// Schema step 14: the tensor storages a probe in op mode saw operators make, each with the
// moment its last tensor went, so that what an operator holds at a moment is known exactly
// (frees paired with the operator that allocated, whichever operator or line of Python frees).
inline constexpr const char* kLiveStoragesSchemaSql = R"SQL(
CREATE TABLE live_storages (
    trace_id INTEGER NOT NULL REFERENCES traces(id) ON DELETE CASCADE,
    id       INTEGER NOT NULL, -- the probe's number for the storage
    device   TEXT    NOT NULL, -- 'cpu', 'cuda:0'
    bytes    INTEGER NOT NULL, -- the storage's size
    op       TEXT    NOT NULL, -- the operator whose output it first was
    phase    TEXT    NOT NULL, -- that call's phase
    t_alloc  INTEGER NOT NULL, -- the end of that call
    t_free   INTEGER,          -- when it was released; NULL: alive when the recording ended
    PRIMARY KEY (trace_id, id)
) WITHOUT ROWID;
)SQL";

} // namespace memviz
