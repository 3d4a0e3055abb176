// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackImporter.h"

#include "core/Progress.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackReader.h"
#include "formats/heaptrack/HeaptrackStore.h"
#include "formats/heaptrack/HeaptrackStreamTables.h"
#include "formats/heaptrack/HeaptrackTimeline.h"
#include "io/InputFile.h"
#include "io/LineReader.h"
#include "io/Numbers.h"
#include "store/TraceWriter.h"

namespace memviz {

std::vector<std::string> HeaptrackImporter::filePatterns() const { return {"heaptrack.*", "*.zst"}; }

int HeaptrackImporter::sniff(std::string_view head, std::string_view fileName) const {
    // heaptrack files start with "v <heaptrack version> <file version>", both hex (after
    // comments, in handwritten files).
    std::string_view first;
    while (!head.empty()) {
        const std::size_t nl = head.find('\n');
        first = head.substr(0, nl);
        if (!first.starts_with('#')) break;
        head = nl == std::string_view::npos ? std::string_view() : head.substr(nl + 1);
    }
    if (!first.starts_with("v ")) return 0;
    first.remove_prefix(2);
    const std::size_t space = first.find(' ');
    const auto program = parseHex(first.substr(0, space));
    if (!program || *program < 0x10000 || *program > 0xffffff) return 0;
    if (space != std::string_view::npos && !parseHex(first.substr(space + 1))) return 0;
    return fileName.find("heaptrack") != std::string_view::npos ? 100 : 90;
}

void HeaptrackImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    LineReader lines(in);
    lines.readAhead();
    HeaptrackModel model;
    HeaptrackTimeline timeline(out);
    HeaptrackStreamTables tables(out);
    // Jobs on the writer's worker read the model and use the tables' statements: on an error,
    // they finish before those go.
    struct Drain {
        TraceWriter& out;
        ~Drain() { out.drainQuietly(); }
    } drain{out};
    HeaptrackReader reader(lines, out, model, timeline);
    reader.setStreamTables(&tables);
    reader.run(progress);
    tables.finish(model);
    progress.enterPhase(ProgressPhase::Building);
    model.finish();
    timeline.finish(reader.header().pageSize);
    writeHeaptrackTables(out, model, reader.header(), timeline.timeMs() + 1);
    progress.update(in.fileSize(), in.fileSize());
}

} // namespace memviz
