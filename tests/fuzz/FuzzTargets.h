// SPDX-License-Identifier: MIT
#pragma once
// The fuzz targets: one per parser entry point, each handing its bytes to memviz the way a
// real import does (a file, an in-memory store, the importer's own builder and writer). The
// same functions are driven by libFuzzer (FuzzerMain.cpp), by the plain replay program that
// CI runs over every corpus under the sanitizers (ReplayMain.cpp), and by the Qt test that
// replays the committed regression inputs (tst_fuzz_regressions.cpp). docs/reliability.md.
#include <string>
#include <string_view>
#include <vector>

namespace memviz::fuzz {

// What one input did. Bad input must end as a refusal with a clear message; anything else a
// target meets (an unexpected exception type, a sanitizer report, a crash) is a finding and
// is left to escape.
struct Outcome {
    bool accepted = false; // imported / parsed
    std::string message;   // the error for refused input
};

using TargetFn = Outcome (*)(std::string_view data);

struct Target {
    const char* name; // "chrome_trace"
    TargetFn run;
    int maxLen;       // libFuzzer's -max_len for this format (bytes)
    const char* what; // for --list
};

const std::vector<Target>& targets();
const Target* findTarget(std::string_view name);

// Runs `target` on `data`; an exception that is not the format's own error type is reported
// on stderr and turned into abort(), so libFuzzer and the sanitizers see it as a crash.
Outcome runGuarded(const Target& target, std::string_view data);

} // namespace memviz::fuzz
