// SPDX-License-Identifier: MIT
// The probe attached through gdb, then recorded as --listen records (see AttachedProbeRecorder.h).
#include "formats/live/AttachedProbeRecorder.h"

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

namespace memviz {

namespace {

// A directory only we (and the target's user) may enter, for the socket.
std::string privateDirectory() {
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    std::string pattern = std::string(runtime && *runtime ? runtime : "/tmp") + "/memviz-attach-XXXXXX";
    if (::mkdtemp(pattern.data())) return pattern;
    pattern = "/tmp/memviz-attach-XXXXXX";
    if (::mkdtemp(pattern.data())) return pattern;
    throw std::runtime_error(std::string("cannot make a directory for the probe's socket: ") + std::strerror(errno));
}

ProbeAddress socketIn(const std::string& dir) {
    ProbeAddress a;
    a.path = dir + "/probe.sock";
    return a;
}

// The state letter of /proc/PID/status ("State:\tZ (zombie)"), or 0.
char processState(int pid) {
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

AttachedProbeRecorder::AttachedProbeRecorder(std::string storePath, int pid, std::string probeDir, std::string mode)
    : AttachedProbeRecorder(std::move(storePath), pid, std::move(probeDir), std::move(mode), privateDirectory()) {}

AttachedProbeRecorder::AttachedProbeRecorder(std::string storePath, int pid, std::string probeDir, std::string mode,
                                             std::string dir)
    : ProbeRecorder(std::move(storePath), socketIn(dir)), pid_(pid), probeDir_(std::move(probeDir)), mode_(std::move(mode)),
      dir_(std::move(dir)) {
    // A target of another user (memviz run as root) must be able to connect.
    struct stat st {};
    if (::stat(("/proc/" + std::to_string(pid)).c_str(), &st) == 0 && st.st_uid != ::geteuid()) {
        [[maybe_unused]] const int a = ::chown(dir_.c_str(), st.st_uid, st.st_gid);
        [[maybe_unused]] const int b = ::chown(address().path.c_str(), st.st_uid, st.st_gid);
    }
}

AttachedProbeRecorder::~AttachedProbeRecorder() {
    stop();
    wait();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

void AttachedProbeRecorder::run() {
    updateStatus([&](RecorderStatus& s) {
        s.state = RecorderStatus::State::Waiting;
        s.message = "attaching the probe to process " + std::to_string(pid_) + " through gdb";
    });
    ProbeInjection injection;
    injection.pid = pid_;
    injection.address = address().text();
    injection.probeDir = probeDir_;
    injection.mode = mode_;
    injectProbe(injection); // throws ProbeInjectError: the recording fails with its message
    ProbeRecorder::run();
}

std::string AttachedProbeRecorder::waitProblem() const {
    if (processState(pid_) == 'Z' || (::kill(pid_, 0) != 0 && errno == ESRCH))
        return "process " + std::to_string(pid_) + " exited before the probe connected; nothing was recorded";
    return {};
}

} // namespace memviz
