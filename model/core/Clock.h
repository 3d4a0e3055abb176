// SPDX-License-Identifier: MIT
#pragma once
// Wall-clock time as the store writes it.
#include <string>

namespace memviz {

// Now, in UTC, as "2026-11-29T23:22:03Z" (traces.imported_at).
std::string isoNowUtc();

} // namespace memviz
