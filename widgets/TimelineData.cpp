// SPDX-License-Identifier: MIT
#include "widgets/TimelineData.h"

#include <algorithm>

#include "core/Progress.h"
#include "formats/live/LiveQueries.h"
#include "widgets/StackedSeries.h"

namespace memviz {

TimelineData readTimelineData(Database& db, const TimelineRequest& request, const Progress& cancel) {
    const std::size_t n = request.series.size();
    TimelineData data;
    data.keys.resize(n);
    data.values.resize(n);
    data.levels.assign(n, 0);
    std::vector<std::vector<SeriesPoint>> drawn(n); // stacked series, as drawn
    for (std::size_t i = 0; i < n; ++i) {
        cancel.checkCancelled();
        const TimelineRequest::Series& s = request.series[i];
        SeriesWindow w = request.live
                             ? queryLiveSeries(db, request.traceId, static_cast<int>(s.id), request.range, request.columns)
                             : querySeries(db, s.id, request.range, request.columns);
        data.levels[i] = w.level;
        data.pointCount += static_cast<int>(w.points.size());
        std::vector<SeriesPoint> points = std::move(w.points);
        // The last value holds until the end of the trace.
        if (!points.empty() && points.back().t >= s.tLast && s.tLast < request.traceEnd)
            points.push_back({request.traceEnd, s.vFinal});
        if (s.stackedOn >= 0) points = stackOnto(drawn[static_cast<std::size_t>(s.stackedOn)], points);
        QVector<double>& keys = data.keys[i];
        QVector<double>& values = data.values[i];
        keys.reserve(static_cast<qsizetype>(points.size()));
        values.reserve(static_cast<qsizetype>(points.size()));
        double ignored = 0;
        double& axisMax = s.hidden ? ignored : s.secondAxis ? data.y2Max : data.yMax;
        for (const SeriesPoint& p : points) {
            keys.push_back(static_cast<double>(p.t));
            values.push_back(static_cast<double>(p.v));
            axisMax = std::max(axisMax, static_cast<double>(p.v));
        }
        if (s.stackedOn > -2) drawn[i] = std::move(points);
    }
    return data;
}

} // namespace memviz
