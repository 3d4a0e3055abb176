// SPDX-License-Identifier: MIT
#pragma once
// The two encodings of the allocation log. Both hand records to an AllocLogBuilder.
#include <string>
#include <string_view>

namespace memviz {

class AllocLogBuilder;
class LineReader;
class Progress;

// `header` is the first non-comment line, already read from `lines`.
void readAllocLogCsv(LineReader& lines, std::string_view header, AllocLogBuilder& builder, const Progress& progress);
void readAllocLogJsonl(LineReader& lines, std::string_view header, AllocLogBuilder& builder, const Progress& progress);

// "line 12 (byte 345)" for error messages.
std::string lineLocation(const LineReader& lines);
// Throws ImportError "FILE: line N (byte B): what", noting a truncated last line.
[[noreturn]] void failAtLine(const LineReader& lines, const std::string& what);
// Reports progress every so many records.
void reportLineProgress(LineReader& lines, const Progress& progress);

} // namespace memviz
