// SPDX-License-Identifier: MIT
#pragma once
// The default name of a recording: after the program that runs (the script, for a Python
// interpreter), never after its first argument, and safe as a file name that no command line
// takes for an option. Pure C++, no Qt.
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

// What a launched command is called: the base name of argv[0]; for python/pypy the script's
// base name without its extension, the module of `-m MODULE`, or the interpreter itself for
// `-c CODE` and `-` (stdin). Empty for an empty command.
std::string recordingName(const std::vector<std::string>& argv);

// `name` made safe for a file name: runs of anything but ASCII letters, digits, '_', '.' and
// '-' become one '_', no leading '-' or '.', at most `maxChars` characters; "recording" when
// nothing is left.
std::string fileNameStem(std::string_view name, std::size_t maxChars = 40);

} // namespace memviz
