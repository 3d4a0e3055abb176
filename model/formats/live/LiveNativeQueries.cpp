// SPDX-License-Identifier: MIT
// The top allocation sites of a native recording (see LiveNativeQueries.h).
#include "formats/live/LiveNativeQueries.h"

#include "store/Database.h"

namespace memviz {

std::vector<LiveNativeSite> listLiveNativeSites(Database& db, std::int64_t traceId) {
    Statement s(db, "SELECT rank, t, function, location, bytes, peak_bytes, calls FROM live_native_sites "
                    "WHERE trace_id = ? ORDER BY rank");
    s.bind(1, traceId);
    std::vector<LiveNativeSite> out;
    while (s.step())
        out.push_back({static_cast<int>(s.int64(0)), s.int64(1), s.text(2), s.text(3), s.int64(4), s.int64(5), s.int64(6)});
    return out;
}

} // namespace memviz
