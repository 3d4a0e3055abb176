// SPDX-License-Identifier: MIT
#include "formats/alloclog/AllocLogImporter.h"

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/alloclog/AllocLogBuilder.h"
#include "formats/alloclog/AllocLogReaders.h"
#include "io/CsvSplit.h"
#include "io/InputFile.h"
#include "io/LineReader.h"

namespace memviz {

namespace {

bool isBlankOrComment(std::string_view line) {
    line = trimmed(line);
    return line.empty() || line.front() == '#';
}

// The first line that is not blank and not a comment.
std::string_view firstRecordLine(std::string_view text) {
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!isBlankOrComment(line)) return line;
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return {};
}

} // namespace

std::vector<std::string> AllocLogImporter::filePatterns() const {
    return {"*.csv", "*.csv.gz", "*.csv.zst", "*.jsonl", "*.jsonl.gz", "*.jsonl.zst"};
}

int AllocLogImporter::sniff(std::string_view head, std::string_view) const {
    const std::string_view first = firstRecordLine(head);
    if (first.starts_with("{") && first.find("\"memviz_alloc_log\"") != std::string_view::npos) return 100;
    // A header naming our columns; a broken header still sniffs, so the import names what is wrong.
    const bool action = first.find("action") != std::string_view::npos;
    const bool address = first.find("address") != std::string_view::npos;
    const bool time = first.find("time") != std::string_view::npos;
    if (action && address && time) return 90;
    if (action && (address || time)) return 60;
    return 0;
}

std::string lineLocation(const LineReader& lines) {
    return "line " + std::to_string(lines.lineNumber()) + " (byte " + std::to_string(lines.lineOffset()) + ")";
}

void failAtLine(const LineReader& lines, const std::string& what) {
    throw ImportError(lines.input().path() + ": " + lineLocation(lines) + ": " + what +
                      (lines.lastLineUnterminated() ? " (the file ends in the middle of this record: truncated?)" : ""));
}

void reportLineProgress(LineReader& lines, const Progress& progress) {
    if ((lines.lineNumber() & 0xffff) == 0) progress.update(lines.input().fileOffset(), lines.input().fileSize());
}

void AllocLogImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    LineReader lines(in);
    std::string_view line;
    while (lines.next(line)) {
        if (isBlankOrComment(line)) continue;
        AllocLogBuilder builder(out, in.path());
        if (trimmed(line).starts_with("{")) readAllocLogJsonl(lines, line, builder, progress);
        else readAllocLogCsv(lines, line, builder, progress);
        progress.update(in.fileSize(), in.fileSize());
        return;
    }
    throw ImportError(in.path() + ": no header line (the file has no records)");
}

} // namespace memviz
