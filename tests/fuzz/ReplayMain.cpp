// SPDX-License-Identifier: MIT
// Replays inputs through a fuzz target without libFuzzer: the sanitizer build runs every
// corpus seed and regression input through it in CI (tests/fuzz/CMakeLists.txt).
//   memviz_fuzz_replay TARGET PATH...   files, or folders (all files below them)
//   memviz_fuzz_replay --list           the targets
// Prints one line per input (accepted, or the refusal); a finding aborts, as under libFuzzer.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "FuzzTargets.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    using namespace memviz::fuzz;
    if (argc == 2 && std::string(argv[1]) == "--list") {
        for (const Target& t : targets()) std::printf("%-18s max_len %-7d %s\n", t.name, t.maxLen, t.what);
        return 0;
    }
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s TARGET PATH... | --list\n", argv[0]);
        return 2;
    }
    const Target* target = findTarget(argv[1]);
    if (!target) {
        std::fprintf(stderr, "no fuzz target named %s (see --list)\n", argv[1]);
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 2; i < argc; ++i) {
        const fs::path p(argv[i]);
        if (fs::is_directory(p)) {
            for (const auto& e : fs::recursive_directory_iterator(p))
                if (e.is_regular_file() && e.path().extension() != ".expect") files.push_back(e.path());
        } else if (fs::is_regular_file(p)) {
            files.push_back(p);
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    int accepted = 0;
    for (const fs::path& f : files) {
        std::string data;
        if (std::FILE* in = std::fopen(f.c_str(), "rb")) {
            char buf[1 << 16];
            while (const std::size_t n = std::fread(buf, 1, sizeof buf, in)) data.append(buf, n);
            std::fclose(in);
        }
        const Outcome o = runGuarded(*target, data);
        accepted += o.accepted;
        std::printf("%s: %s\n", f.c_str(), o.accepted ? "accepted" : ("refused: " + o.message.substr(0, 200)).c_str());
    }
    std::printf("%s: %zu inputs replayed, %d accepted, %zu refused, no findings\n", target->name, files.size(), accepted,
                files.size() - static_cast<std::size_t>(accepted));
    return 0;
}
