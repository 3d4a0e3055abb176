// SPDX-License-Identifier: MIT
#pragma once
// Attaches the PyTorch probe (the memviz_probe package, python/memviz_probe/) to a Python that is already running,
// the way memray attaches: gdb in batch mode queues a pending call in the interpreter
// (Py_AddPendingCall(PyRun_SimpleString, snippet)) and detaches at once. CPython runs pending
// calls on its main thread between two bytecodes with the GIL held, so the snippet, which
// puts the folder holding the package on sys.path and calls memviz_probe.attach(ADDRESS), installs
// the probe's hooks (PyTorch keeps dispatch modes per thread) on the thread that runs a
// training loop's operators, at a safe point. The probe then connects to a ProbeRecorder
// listening on ADDRESS. Nothing here uses Qt; every failure is a ProbeInjectError whose
// message names the process, what went wrong and what to do, and none harms the target.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace memviz {

class ProbeInjectError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ProbeInjection {
    int pid = 0;
    std::string address;       // what the probe connects to: unix:PATH or 127.0.0.1:PORT
    std::string probeDir;      // the folder holding the package memviz_probe/
    std::string mode = "op";   // "op" or "module"
    std::string gdb = "gdb";   // the debugger to run (found on PATH)
    int timeoutMs = 120'000;   // gdb reads the target's symbols first: seconds for a big torch
};

// What /proc says about a candidate before gdb is run. Throws ProbeInjectError when the
// process does not exist, may not be read, does not run Python, or has not imported PyTorch.
// Returns the process' executable name for messages.
std::string checkProbeTarget(int pid);

// The Python code the pending call runs in the target (a single line, exec of hex, so no
// quoting survives into gdb's command line).
std::string probeAttachSnippet(const std::string& probeDir, const std::string& address, const std::string& mode);

// gdb's arguments (without the program name) for one injection.
std::vector<std::string> gdbInjectArguments(const ProbeInjection& injection);

// Reads gdb's combined output and exit status: nothing when the pending call was queued,
// else the error to report (ptrace not permitted, process gone, no Python symbols, ...).
std::optional<std::string> gdbInjectError(const std::string& output, int exitCode, int pid);

// Why gdb may not trace `pid` here (ptrace refused), with the machine's real settings: yama's
// ptrace_scope, CAP_SYS_PTRACE, another tracer. heaptrack's attach (--native --pid) says the same.
std::string ptraceExplanation(int pid);
// checkProbeTarget, then gdb. Throws ProbeInjectError (gdb not installed included).
void injectProbe(const ProbeInjection& injection);

// Whether `dir` holds the probe package (dir/memviz_probe/__init__.py).
bool holdsProbePackage(const std::string& dir);
// Where the probe must be found when memviz runs from `appDir` (the installed
// ../share/memviz/python, else the source tree's python/memviz_probe given as `sourceDir`):
// the folder that holds the package memviz_probe/; empty when neither does.
std::string findProbeDirectory(const std::string& appDir, const std::string& sourceDir);

} // namespace memviz
