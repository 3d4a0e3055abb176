// SPDX-License-Identifier: MIT
#include "formats/profiler/ChromeTraceImporter.h"

#include "core/ImportStages.h"
#include "core/Progress.h"
#include "formats/profiler/ChromeTraceScanner.h"
#include "formats/profiler/ProfilerTraceBuilder.h"
#include "io/InputFile.h"
#include "store/TraceWriter.h"

namespace memviz {

std::vector<std::string> ChromeTraceImporter::filePatterns() const {
    return {"*.pt.trace.json", "*.pt.trace.json.gz", "*.json", "*.json.gz"};
}

int ChromeTraceImporter::sniff(std::string_view head, std::string_view) const {
    const std::size_t start = head.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return 0;
    if (head[start] == '{' && head.find("\"traceEvents\"") != std::string_view::npos) return 95;
    if (head[start] != '[') return 0;
    if (head.find("\"ph\"") != std::string_view::npos &&
        (head.find("\"cpu_op\"") != std::string_view::npos || head.find("\"Operator\"") != std::string_view::npos ||
         head.find("\"[memory]\"") != std::string_view::npos))
        return 80;
    // A bare array of Chrome trace events of any kind (the legacy autograd profiler's
    // export_chrome_trace writes {"name", "ph": "X", "ts", "dur", "tid", "pid": "CPU functions",
    // "args"} without "cat"): the first element is an object and the head names "ph" and "ts".
    const std::size_t first = head.find_first_not_of(" \t\r\n", start + 1);
    if (first != std::string_view::npos && head[first] == '{' && head.find("\"ph\"", first) != std::string_view::npos &&
        head.find("\"ts\"", first) != std::string_view::npos)
        return 70;
    return 0;
}

void ChromeTraceImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    importStage("start", true);
    ScannedTrace scanned = scanChromeTrace(in, out, progress);
    importStage("scanned");
    out.setEpochNs(scanned.originNs);
    out.extendDuration(scanned.endNs);
    buildProfilerTrace(scanned, out, progress);
    importStage("built");
}

} // namespace memviz
