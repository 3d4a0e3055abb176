// SPDX-License-Identifier: MIT
#pragma once
// The import worker: `memviz --import-worker FILE --db STORE [--memory-limit BYTES]`. The
// window starts it as a child process to import a raw trace (widgets/ImportTask), so that a
// parser that crashes or runs away with memory costs an error message, never the window.
// It imports exactly as the window did in-process (openTrace into the import cache) and
// reports on stdout in the lines of widgets/ImportWorkerProtocol.h. SIGTERM cancels (the
// import rolls back); the memory ceiling is an RLIMIT_DATA on the worker itself.
namespace memviz {

// argv[1] is importworker::kSwitch. Returns the exit status.
int runImportWorker(int argc, char** argv);

} // namespace memviz
