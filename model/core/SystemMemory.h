// SPDX-License-Identifier: MIT
#pragma once
// This machine's physical memory, from /proc/meminfo (Linux).
#include <cstdint>
#include <optional>
#include <string>

namespace memviz {

// "MemTotal:  16318480 kB" -> bytes; nullopt when the file or the line is missing.
std::optional<std::int64_t> totalPhysicalMemory(const std::string& meminfoPath = "/proc/meminfo");

} // namespace memviz
