// SPDX-License-Identifier: MIT
#include "formats/live/RecordingName.h"

#include <regex>

namespace memviz {

namespace {

std::string baseName(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string withoutExtension(const std::string& name) {
    const std::size_t dot = name.rfind('.');
    return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

bool isPython(const std::string& program) {
    static const std::regex interpreter("(python|pypy)[0-9.]*[dmw]?");
    return std::regex_match(program, interpreter);
}

// CPython's command line (`python [option] ... [-c cmd | -m mod | file | -] [arg] ...`): the
// script or module it runs, or empty when it runs code from -c or stdin.
std::string pythonTarget(const std::vector<std::string>& argv) {
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "-") return {};
        if (a == "--") return i + 1 < argv.size() ? withoutExtension(baseName(argv[i + 1])) : std::string();
        if (a.rfind("--", 0) == 0) { // long options; only this one takes a value
            if (a == "--check-hash-based-pycs") ++i;
            continue;
        }
        if (a.size() < 2 || a[0] != '-') return withoutExtension(baseName(a));
        // Short options may be combined (-uc CODE); c, m, W and X take the rest or the next word.
        for (std::size_t k = 1; k < a.size(); ++k) {
            const char o = a[k];
            if (o == 'c') return {};
            if (o == 'm') return k + 1 < a.size() ? a.substr(k + 1) : (i + 1 < argv.size() ? argv[i + 1] : std::string());
            if (o == 'W' || o == 'X') {
                if (k + 1 == a.size()) ++i;
                break;
            }
        }
    }
    return {};
}

} // namespace

std::string recordingName(const std::vector<std::string>& argv) {
    if (argv.empty()) return {};
    const std::string program = baseName(argv.front());
    if (isPython(program)) {
        const std::string target = pythonTarget(argv);
        if (!target.empty()) return target;
    }
    return program;
}

std::string fileNameStem(std::string_view name, std::size_t maxChars) {
    std::string out;
    bool replaced = false;
    for (const char c : name) {
        const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                          c == '-';
        if (safe) {
            out += c;
            replaced = false;
        } else if (!replaced) {
            out += '_';
            replaced = true;
        }
    }
    const std::size_t first = out.find_first_not_of("-.");
    out = first == std::string::npos ? std::string() : out.substr(first);
    if (out.size() > maxChars) out.resize(maxChars);
    if (out.empty() || out == "_") return "recording";
    return out;
}

} // namespace memviz
