// SPDX-License-Identifier: MIT
// memviz record --pid PID --probe (see ProbeAttach.h).
#include "cli/ProbeAttach.h"

#include <QCoreApplication>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <sys/stat.h>
#include <unistd.h>

#include "formats/live/ProbeInjector.h"

namespace memviz::cli {

namespace {

// A directory only we (and the target's user) may enter, for the socket.
std::string privateDirectory() {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    std::string base = runtime && *runtime ? runtime : "/tmp";
    std::string pattern = base + "/memviz-attach-XXXXXX";
    if (!::mkdtemp(pattern.data())) {
        pattern = "/tmp/memviz-attach-XXXXXX";
        if (!::mkdtemp(pattern.data()))
            throw std::runtime_error(std::string("cannot make a directory for the probe's socket: ") + std::strerror(errno));
    }
    return pattern;
}

// The state letter of /proc/PID/status ("State:\tZ (zombie)"), or 0.
char firstStatusState(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("State:", 0) == 0) {
            const auto at = line.find_first_not_of(" \t", 6);
            return at == std::string::npos ? 0 : line[at];
        }
    return 0;
}

} // namespace

AttachedProbe::AttachedProbe(int pid, const std::string& store, const std::string& mode) : pid_(pid) {
    checkProbeTarget(pid); // before anything is made: no such process, not Python, no PyTorch
    const std::string probeDir =
        findProbeDirectory(QCoreApplication::applicationDirPath().toStdString(), MEMVIZ_PROBE_SOURCE_DIR);
    if (probeDir.empty())
        throw ProbeInjectError("memviz_probe.py is not installed beside memviz (../share/memviz/python)");
    dir_ = privateDirectory();
    ProbeAddress address;
    address.path = dir_ + "/probe.sock";
    recorder_ = std::make_unique<ProbeRecorder>(store, address);
    // A target of another user (memviz run as root) must be able to connect.
    struct stat st {};
    if (::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0 && st.st_uid != ::geteuid()) {
        [[maybe_unused]] const int a = ::chown(dir_.c_str(), st.st_uid, st.st_gid);
        [[maybe_unused]] const int b = ::chown(address.path.c_str(), st.st_uid, st.st_gid);
    }
    ProbeInjection injection;
    injection.pid = pid;
    injection.address = recorder_->address().text();
    injection.probeDir = probeDir;
    injection.mode = mode;
    injectProbe(injection);
}

AttachedProbe::~AttachedProbe() {
    if (recorder_) recorder_.reset();
    if (!dir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
}

std::string AttachedProbe::waitProblem() const {
    // A process that ended but was not reaped yet (a zombie) has exited too.
    const bool zombie = firstStatusState(pid_) == 'Z';
    if (zombie || (::kill(pid_, 0) != 0 && errno == ESRCH))
        return "process " + std::to_string(pid_) + " exited before the probe connected; nothing was recorded";
    return {};
}

} // namespace memviz::cli
