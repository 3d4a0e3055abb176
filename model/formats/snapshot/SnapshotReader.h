// SPDX-License-Identifier: MIT
#pragma once
// Reads the value tree of a snapshot pickle into SnapshotData: the newest dict form with
// `segments`, `device_traces`, `allocator_settings`, `external_annotations` (and pinned host
// memory in `host_segments` / `host_traces`), older dicts without times or with block
// `history`, and the 2022 bare list of segments. Errors name the place, e.g.
// "device_traces[0][1234]: 'size' is a str, not an int".
#include "formats/snapshot/SnapshotData.h"
#include "formats/snapshot/StackTable.h"
#include "pickle/PickleValue.h"

namespace memviz {
class Progress;
}

namespace memviz::snapshot {

// Warnings (problems that do not stop the import) go to `warn(kind, location, message)`.
using WarnFn = std::function<void(std::string_view kind, std::string_view location, std::string_view message)>;

// Throws ImportError when the pickle is not a snapshot or a field has the wrong type.
SnapshotData readSnapshot(const pickle::Document& doc, StackTable& stacks, const Progress& progress, const WarnFn& warn);

} // namespace memviz::snapshot
