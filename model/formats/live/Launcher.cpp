// SPDX-License-Identifier: MIT
#include "formats/live/Launcher.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/live/StderrTail.h"

extern char** environ;

namespace memviz {

namespace {

bool isExecutableFile(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

ExitStatus statusOf(int raw) {
    ExitStatus s;
    if (WIFEXITED(raw)) s.code = WEXITSTATUS(raw);
    else if (WIFSIGNALED(raw)) s.signal = WTERMSIG(raw);
    return s;
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

} // namespace

std::string ExitStatus::text() const {
    if (code) return "exited with status " + std::to_string(*code);
    if (signal) {
        const char* name = ::strsignal(*signal);
        return "killed by signal " + std::to_string(*signal) + (name ? std::string(" (") + name + ")" : "");
    }
    return "ended";
}

std::string resolveProgram(const std::string& program, const std::string& workingDirectory) {
    if (program.empty()) throw std::runtime_error("no program to run");
    if (program.find('/') != std::string::npos) {
        if (program.front() != '/' && !workingDirectory.empty()) return resolveProgram(workingDirectory + "/" + program);
        if (!isExecutableFile(program)) {
            const int err = errno;
            struct stat st {};
            if (::stat(program.c_str(), &st) != 0) throw std::runtime_error("cannot run " + program + ": " + std::strerror(err));
            throw std::runtime_error("cannot run " + program + ": not an executable file");
        }
        return program;
    }
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t begin = 0;
    while (begin <= dirs.size()) {
        const std::size_t end = std::min(dirs.find(':', begin), dirs.size());
        std::string dir = dirs.substr(begin, end - begin);
        if (dir.empty()) dir = ".";
        const std::string candidate = dir + "/" + program;
        if (isExecutableFile(candidate)) return candidate;
        begin = end + 1;
    }
    throw std::runtime_error("cannot run " + program + ": not found on PATH");
}

std::string joinCommandLine(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) {
        if (!out.empty()) out += ' ';
        const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?;&|<>()") == std::string::npos;
        if (plain) {
            out += a;
            continue;
        }
        out += '\'';
        for (char c : a) {
            if (c == '\'') out += "'\\''";
            else out += c;
        }
        out += '\'';
    }
    return out;
}

std::vector<std::string> splitCommandLine(std::string_view line) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false; // '' and "" make an (empty) word too
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord) words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else if (c == '\\') {
            if (i + 1 < line.size() && line[i + 1] == '\n') { // backslash-newline joins lines
                ++i;
                continue;
            }
            if (i + 1 < line.size()) word += line[++i];
            else word += c;
            inWord = true;
        } else if (c == '\'') {
            const std::size_t end = line.find('\'', i + 1);
            if (end == std::string_view::npos) throw std::invalid_argument("unterminated ' quote");
            word.append(line.substr(i + 1, end - i - 1));
            i = end;
            inWord = true;
        } else if (c == '"') {
            std::size_t j = i + 1;
            for (; j < line.size() && line[j] != '"'; ++j) {
                if (line[j] == '\\' && j + 1 < line.size() &&
                    std::string_view("$`\"\\\n").find(line[j + 1]) != std::string_view::npos) {
                    if (line[j + 1] != '\n') word += line[j + 1];
                    ++j;
                } else {
                    word += line[j];
                }
            }
            if (j >= line.size()) throw std::invalid_argument("unterminated \" quote");
            i = j;
            inWord = true;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord) words.push_back(std::move(word));
    return words;
}

std::string oneLineTitle(const std::string& text, std::size_t maxChars) {
    std::string out;
    bool space = false;
    for (char c : text) {
        const bool white = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (white) {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    if (out.size() > maxChars) out = out.substr(0, maxChars > 3 ? maxChars - 3 : 0) + "...";
    return out;
}

LaunchedProcess::LaunchedProcess(const std::vector<std::string>& argv, const std::string& workingDirectory, bool captureStderr) {
    if (argv.empty()) throw std::runtime_error("no program to run");
    const std::string program = resolveProgram(argv.front(), workingDirectory);
    if (!workingDirectory.empty()) {
        struct stat st {};
        if (::stat(workingDirectory.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            throw std::runtime_error("cannot run in " + workingDirectory + ": no such folder");
    }
    // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int go[2], error[2], err2[2] = {-1, -1};
    if (::pipe2(go, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(error, O_CLOEXEC) != 0 || (captureStderr && ::pipe2(err2, O_CLOEXEC) != 0)) {
        const int err = errno;
        for (int fd : {go[0], go[1], error[0], error[1], err2[0], err2[1]})
            if (fd >= 0) ::close(fd);
        throw std::runtime_error(std::string("pipe: ") + std::strerror(err));
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        for (int fd : {go[0], go[1], error[0], error[1], err2[0], err2[1]})
            if (fd >= 0) ::close(fd);
        throw std::runtime_error(std::string("fork: ") + std::strerror(err));
    }
    if (pid == 0) {
        ::close(go[1]);
        ::close(error[0]);
        char byte = 0;
        ssize_t n;
        do n = ::read(go[0], &byte, 1);
        while (n < 0 && errno == EINTR);
        if (n != 1) ::_exit(127);                         // the recorder went away before releasing us
        if (err2[1] >= 0) ::dup2(err2[1], STDERR_FILENO); // the copy on fd 2 stays open across exec
        // The recorder ignores SIGPIPE; an ignored signal stays ignored across exec, and the
        // program must meet a closed pipe as it would outside memviz.
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &dfl, nullptr);
        if (!workingDirectory.empty() && ::chdir(workingDirectory.c_str()) != 0) {
            const int err = errno;
            [[maybe_unused]] const ssize_t w = ::write(error[1], &err, sizeof err);
            ::_exit(127);
        }
        ::execve(program.c_str(), args.data(), environ);
        const int err = errno;
        [[maybe_unused]] const ssize_t w = ::write(error[1], &err, sizeof err);
        ::_exit(127);
    }
    pid_ = pid;
    ::close(go[0]);
    ::close(error[1]);
    goFd_ = go[1];
    errorFd_ = error[0];
    if (err2[1] >= 0) {
        ::close(err2[1]);
        stderr_ = std::make_unique<StderrTail>(err2[0], STDERR_FILENO);
    }
}

LaunchedProcess::~LaunchedProcess() {
    if (pid_ > 0 && !released_ && !status_) {
        ::kill(pid_, SIGKILL);
        int raw = 0;
        ::waitpid(pid_, &raw, 0);
    }
    closeFd(goFd_);
    closeFd(errorFd_);
}

void LaunchedProcess::release() {
    if (released_) return;
    released_ = true;
    const char byte = 1;
    ssize_t n;
    do n = ::write(goFd_, &byte, 1);
    while (n < 0 && errno == EINTR);
    closeFd(goFd_);
    // The error pipe closes on a successful exec (EOF), or carries exec's errno.
    int err = 0;
    ssize_t r;
    do r = ::read(errorFd_, &err, sizeof err);
    while (r < 0 && errno == EINTR);
    closeFd(errorFd_);
    if (r == static_cast<ssize_t>(sizeof err)) {
        wait();
        throw std::runtime_error(std::string("cannot run the program: ") + std::strerror(err));
    }
}

std::optional<ExitStatus> LaunchedProcess::poll() {
    if (status_) return status_;
    int raw = 0;
    const pid_t r = ::waitpid(pid_, &raw, WNOHANG);
    if (r == pid_) status_ = statusOf(raw);
    else if (r < 0 && errno == ECHILD) status_ = ExitStatus{}; // reaped elsewhere: ended, status unknown
    return status_;
}

ExitStatus LaunchedProcess::wait() {
    if (status_) return *status_;
    int raw = 0;
    pid_t r;
    do r = ::waitpid(pid_, &raw, 0);
    while (r < 0 && errno == EINTR);
    status_ = r == pid_ ? statusOf(raw) : ExitStatus{};
    return *status_;
}

void LaunchedProcess::signal(int sig) {
    if (pid_ > 0 && !status_) ::kill(pid_, sig);
}

} // namespace memviz
