// SPDX-License-Identifier: MIT
#include "cli/MallocTuning.h"

#include <cstdlib>
#include <string_view>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace memviz {

namespace {

constexpr std::string_view kTunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=4294967296";

bool isSet(const char* value) { return value && *value; }

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

} // namespace

std::optional<std::string> tunedGlibcTunables(const char* glibcTunables, const char* ldPreload, const char* optOut) {
    if (isSet(ldPreload)) return std::nullopt;
    if (isSet(optOut) && std::string_view(optOut) != "0") return std::nullopt;
    if (!isSet(glibcTunables)) return std::string(kTunables);
    const std::string_view current(glibcTunables);
    if (current.find("glibc.malloc.") != std::string_view::npos) return std::nullopt; // the user's own choice
    return std::string(current) + ":" + std::string(kTunables);
}

namespace {
constexpr const char* kTunablesBefore = "MEMVIZ_GLIBC_TUNABLES_BEFORE";

// glibc has read GLIBC_TUNABLES by now: the environment goes back to what the user gave, so
// that the programs memviz starts (a recording's program, Python, heaptrack) run untuned.
void restoreEnvironment() {
    if (const char* before = std::getenv(kTunablesBefore)) {
        setenv("GLIBC_TUNABLES", before, 1);
        unsetenv(kTunablesBefore);
    } else {
        unsetenv("GLIBC_TUNABLES");
    }
    unsetenv(kMallocTunedVariable);
}
} // namespace

void restartWithTunedMalloc(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
    if (kSanitized || !argv || !argv[0]) return;
    if (isSet(std::getenv(kMallocTunedVariable))) return restoreEnvironment();
    const char* current = std::getenv("GLIBC_TUNABLES");
    const auto tunables =
        tunedGlibcTunables(current, std::getenv("LD_PRELOAD"), std::getenv("MEMVIZ_NO_MALLOC_TUNING"));
    if (!tunables) return;
    if (current && setenv(kTunablesBefore, current, 1) != 0) return;
    if (setenv(kMallocTunedVariable, "1", 1) != 0 || setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0)
        return restoreEnvironment();
    execv("/proc/self/exe", argv);
    restoreEnvironment(); // the restart failed (no /proc, say): go on untuned
#else
    (void)argv;
#endif
}

} // namespace memviz
