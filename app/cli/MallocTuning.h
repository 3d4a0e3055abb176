// SPDX-License-Identifier: MIT
#pragma once
// glibc's malloc tuned for an importer that fills hundreds of MB of vectors once (issue 33).
//
// Measured on the generated 240 MB profiler trace (docs/performance.md, "Malloc tuning"):
// a fifth of the import's CPU time went into page faults, of fresh mmap'ed blocks (every vector
// past 128 KiB-32 MiB gets its own mapping, faulted in 4 KiB at a time and unmapped on free)
// and of the heap. With these GLIBC_TUNABLES the same import takes about 40 % less time:
//   glibc.malloc.hugetlb=1            transparent huge pages for malloc's memory (THP
//                                     "madvise" mode, Debian's default: 2 MiB per fault)
//   glibc.malloc.mmap_threshold=1GiB  big blocks come from the heap and are reused, not
//                                     mapped and unmapped one by one
//   glibc.malloc.trim_threshold=4GiB  freed memory stays for the next batch (the process
//                                     exits after its import; the window imports in a child)
// glibc reads GLIBC_TUNABLES only when a program starts, so the command line and the window's
// import worker start themselves again with them (execv of /proc/self/exe, same pid, same
// arguments) before they do anything else, and then put the environment back as it was (the
// programs memviz starts, a recording's program among them, run untuned). Not done when the user set glibc.malloc tunables of
// their own, when something is preloaded (heaptrack, valgrind and other tools that watch
// malloc; LD_PRELOAD), under a sanitizer, or with MEMVIZ_NO_MALLOC_TUNING=1.
#include <optional>
#include <string>

namespace memviz {

// Set for the restarted process only (so it never restarts twice); removed once it runs.
inline constexpr const char* kMallocTunedVariable = "MEMVIZ_MALLOC_TUNED";

// The value GLIBC_TUNABLES should have for the import, given the current environment (null:
// unset), or nullopt when this process is to be left as it is.
std::optional<std::string> tunedGlibcTunables(const char* glibcTunables, const char* ldPreload, const char* optOut);

// Restarts this process with tunedGlibcTunables() when it gives a value (returns only when it
// does not, or when the restart failed: then the process goes on untuned).
void restartWithTunedMalloc(char** argv);

} // namespace memviz
