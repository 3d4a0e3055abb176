// SPDX-License-Identifier: MIT
#include "core/SystemMemory.h"

#include <fstream>
#include <sstream>

namespace memviz {

std::optional<std::int64_t> totalPhysicalMemory(const std::string& meminfoPath) {
    std::ifstream in(meminfoPath);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MemTotal:", 0) != 0) continue;
        std::istringstream fields(line.substr(9));
        std::int64_t value = 0;
        std::string unit;
        if (!(fields >> value) || value < 0) return std::nullopt;
        fields >> unit;
        return unit == "kB" ? value * 1024 : value;
    }
    return std::nullopt;
}

} // namespace memviz
