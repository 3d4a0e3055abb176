// SPDX-License-Identifier: MIT
#pragma once
// heaptrack's leak suppressions: LSan-style patterns ("leak:fn*") matched against the
// module, function and file names of every frame of a backtrace. Leaks of a matching
// backtrace are not counted in "total memory leaked" but reported as suppressed.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace memviz {

class HeaptrackModel;

// The pattern of one suppression line ("leak:pattern", surrounding blanks ignored);
// nullopt for comments, blank lines and other kinds.
std::optional<std::string> parseSuppressionLine(std::string_view line);

// LSan's template match: '*' matches any run, '^' anchors at the start, '$' at the end, and
// otherwise a pattern matches anywhere inside the text. An empty text never matches.
bool suppressionMatches(std::string_view pattern, std::string_view text);

// The patterns heaptrack always applies (known leaks in libc, the dynamic linker, glib).
std::span<const std::string_view> builtinSuppressions();

// Zeroes the leaked bytes of suppressed backtraces, moving them from totals.leaked to
// totals.suppressed.
void applyLeakSuppressions(HeaptrackModel& model);

} // namespace memviz
