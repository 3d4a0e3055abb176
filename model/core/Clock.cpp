// SPDX-License-Identifier: MIT
#include "core/Clock.h"

#include <ctime>

namespace memviz {

std::string isoNowUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace memviz
