// SPDX-License-Identifier: MIT
#include "cli/WindowLauncher.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace memviz::cli {

namespace {
constexpr const char* kWindowName = "memviz-gui";
}

std::string windowProgram() {
    char self[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        std::string path(self, static_cast<std::size_t>(n));
        const std::size_t slash = path.rfind('/');
        path = path.substr(0, slash + 1) + kWindowName;
        if (access(path.c_str(), X_OK) == 0) return path;
    }
    return kWindowName; // execvp searches PATH
}

int execWindow(int argc, char** argv) {
    const std::string program = windowProgram();
    // argv[0] stays "memviz": the window's name and class; memviz-gui finds itself (its import
    // workers) through /proc/self/exe.
    std::vector<char*> args(argv, argv + argc);
    args.push_back(nullptr);
    execvp(program.c_str(), args.data());
    std::fprintf(stderr, "memviz: cannot start the window (%s): %s; it is installed beside memviz\n", program.c_str(),
                 std::strerror(errno));
    return 127;
}

int execWindowCommand(int argc, char** argv, const QStringList&) { return execWindow(argc, argv); }

} // namespace memviz::cli
