// SPDX-License-Identifier: MIT
// Attaching the PyTorch probe to a running Python through gdb (see ProbeInjector.h).
#include "formats/live/ProbeInjector.h"

#include "formats/live/CapturedRun.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace memviz {

namespace {

namespace fs = std::filesystem;

std::string pidText(int pid) { return "process " + std::to_string(pid); }

// The whole of a /proc file, or nothing when it cannot be opened (errno kept).
std::optional<std::string> readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (in) std::getline(in, line);
    return line;
}

std::string statusField(int pid, const std::string& key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key + ":", 0) == 0) {
            std::string v = line.substr(key.size() + 1);
            v.erase(0, v.find_first_not_of(" \t"));
            return v;
        }
    return {};
}

} // namespace

// Why tracing may be refused here, with the machine's real settings.
std::string ptraceExplanation(int pid) {
    std::string text = "gdb may not trace " + pidText(pid) + " (ptrace: Operation not permitted). ";
    const std::string tracer = statusField(pid, "TracerPid");
    if (!tracer.empty() && tracer != "0")
        return text + "It is already traced by process " + tracer +
               " (a debugger, strace, or another memviz): a process has one tracer at a time; detach that one first";
    text += "Attaching needs ";
    const std::string scope = firstLine("/proc/sys/kernel/yama/ptrace_scope");
    if (!scope.empty())
        text += "kernel.yama.ptrace_scope = 0 (it is " + scope +
                " here; 1 lets a user trace only its own children: sudo sysctl kernel.yama.ptrace_scope=0), or ";
    text += "the CAP_SYS_PTRACE capability (run memviz as root, or a container with --cap-add=SYS_PTRACE), "
            "and the process must be yours";
    return text;
}

namespace {

std::string pyQuote(const std::string& s) {
    std::string out = "'";
    for (const char c : s) {
        if (c == '\\' || c == '\'') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "'";
}

std::string hex(const std::string& s) {
    static const char* const digits = "0123456789abcdef";
    std::string out;
    out.reserve(s.size() * 2);
    for (const unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

// The last few non-empty lines of gdb's output, for an error we do not recognise.
std::string tail(const std::string& output, int lines) {
    std::vector<std::string> all;
    std::istringstream in(output);
    for (std::string l; std::getline(in, l);)
        if (!l.empty()) all.push_back(l);
    std::string out;
    for (std::size_t i = all.size() > static_cast<std::size_t>(lines) ? all.size() - lines : 0; i < all.size(); ++i)
        out += (out.empty() ? "" : " | ") + all[i];
    return out;
}

} // namespace

std::string checkProbeTarget(int pid) {
    const std::string dir = "/proc/" + std::to_string(pid);
    std::error_code ec;
    if (pid <= 0 || !fs::exists(dir, ec)) throw ProbeInjectError("no process with id " + std::to_string(pid));
    std::string name = firstLine(dir + "/comm");
    const auto maps = readWhole(dir + "/maps");
    if (!maps) { // /proc/PID/maps needs the same permission as ptrace
        if (!fs::exists(dir, ec)) throw ProbeInjectError(pidText(pid) + " exited");
        throw ProbeInjectError("cannot read the memory map of " + pidText(pid) + " (" + name + "): " + ptraceExplanation(pid));
    }
    if (maps->empty()) throw ProbeInjectError(pidText(pid) + " (" + name + ") is a kernel thread or a zombie, not running Python");
    std::string exe = fs::read_symlink(dir + "/exe", ec).filename().string();
    if (exe.empty()) exe = name;
    const bool pythonExe = exe.rfind("python", 0) == 0;
    if (!pythonExe && !contains(*maps, "/libpython"))
        throw ProbeInjectError(pidText(pid) + " (" + exe +
                               ") is not running Python: the probe attaches to a Python interpreter running PyTorch");
    if (!contains(*maps, "libtorch_python") && !contains(*maps, "libtorch_cpu") && !contains(*maps, "/torch/_C"))
        throw ProbeInjectError("PyTorch is not imported in " + pidText(pid) + " (" + exe +
                               "): the probe records PyTorch operators; attach once the script has run `import torch`");
    return exe;
}

std::string probeAttachSnippet(const std::string& probeDir, const std::string& address, const std::string& mode) {
    const std::string code = "import sys\n"
                             "try:\n"
                             "    _d = " + pyQuote(probeDir) + "\n"
                             "    if _d not in sys.path:\n"
                             "        sys.path.insert(0, _d)\n"
                             "    import memviz_probe\n"
                             "    memviz_probe.attach(" + pyQuote(address) + ", " + pyQuote(mode) + ")\n"
                             "except Exception as _e:\n"
                             "    sys.stderr.write('memviz_probe: could not attach: %s: %s\\n' % (type(_e).__name__, _e))\n";
    // Runs in __main__'s namespace: exec in a fresh dict so no name of the script is touched.
    return "exec(bytes.fromhex('" + hex(code) + "').decode(), {})";
}

std::vector<std::string> gdbInjectArguments(const ProbeInjection& in) {
    const std::string call = "call (int)Py_AddPendingCall((int (*)(void *))PyRun_SimpleString, (void *)\"" +
                             probeAttachSnippet(in.probeDir, in.address, in.mode) + "\")";
    return {"-q", "-batch", "-nx",
            // Only the symbols that hold the C API: the interpreter (read with the program) and
            // libpython where Python is linked shared. Reading libtorch's would take seconds.
            "-iex", "set auto-solib-add off", "-iex", "set debuginfod enabled off", "-iex", "set auto-load off",
            "-p", std::to_string(in.pid), "-ex", "sharedlibrary libpython", "-ex", call};
}

std::optional<std::string> gdbInjectError(const std::string& output, int exitCode, int pid) {
    if (contains(output, "ptrace: Operation not permitted")) return ptraceExplanation(pid);
    if (contains(output, "ptrace: No such process")) return pidText(pid) + " exited before gdb could attach";
    if (contains(output, "exited while in a function called from GDB") || contains(output, "exited normally]") ||
        contains(output, "exited with code"))
        return pidText(pid) + " exited while the probe was being injected";
    if (contains(output, "No symbol \"Py_AddPendingCall\"") || contains(output, "No symbol \"PyRun_SimpleString\"") ||
        contains(output, "No symbol table is loaded"))
        return "gdb finds no Python C API (Py_AddPendingCall, PyRun_SimpleString) in " + pidText(pid) +
               ": it is not a CPython interpreter, or one built without exported symbols (install its debug symbols, "
               "e.g. Debian's python3-dbg or the interpreter's -dbgsym package)";
    const auto at = output.find("$1 = ");
    if (at != std::string::npos) {
        if (output.compare(at, 6, "$1 = 0") == 0) return std::nullopt;
        return "Python refused the probe's pending call in " + pidText(pid) + " (its queue of pending calls is full); try again";
    }
    return "gdb could not inject the probe into " + pidText(pid) + " (exit status " + std::to_string(exitCode) +
           "): " + tail(output, 4);
}

void injectProbe(const ProbeInjection& in) {
    checkProbeTarget(in.pid);
    if (in.probeDir.empty() || !holdsProbePackage(in.probeDir))
        throw ProbeInjectError("the memviz_probe package (memviz_probe/__init__.py) is not in \"" + in.probeDir +
                               "\" (is memviz installed completely?)");
    std::vector<std::string> argv{in.gdb};
    const std::vector<std::string> args = gdbInjectArguments(in);
    argv.insert(argv.end(), args.begin(), args.end());
    CapturedRun run;
    try {
        run = runCaptured(argv, in.timeoutMs);
    } catch (const std::runtime_error& e) {
        throw ProbeInjectError(e.what());
    }
    if (run.spawnError == ENOENT)
        throw ProbeInjectError("gdb is not installed (" + in.gdb +
                               " not found on PATH): memviz attaches the probe through gdb; install it "
                               "(Debian: apt install gdb)");
    if (run.spawnError != 0) throw ProbeInjectError("cannot run " + in.gdb + ": " + std::strerror(run.spawnError));
    // A gdb that hangs was killed; the kernel detached it from the target, which runs on.
    if (run.timedOut)
        throw ProbeInjectError("gdb did not finish injecting the probe into " + pidText(in.pid) + " within " +
                               std::to_string(in.timeoutMs / 1000) + " s; it was stopped");
    const std::string& output = run.output;
    const int code = run.exitCode;
    if (auto error = gdbInjectError(output, code, in.pid)) throw ProbeInjectError(*error);
}

bool holdsProbePackage(const std::string& dir) {
    std::error_code ec;
    return !dir.empty() && fs::is_regular_file(fs::path(dir) / "memviz_probe" / "__init__.py", ec);
}

std::string findProbeDirectory(const std::string& appDir, const std::string& sourceDir) {
    std::error_code ec;
    for (const std::string& dir : {appDir + "/../share/memviz/python", sourceDir})
        if (holdsProbePackage(dir)) return fs::canonical(dir, ec).string();
    return {};
}

} // namespace memviz
