// SPDX-License-Identifier: MIT
#include "costmodel/EstimateTrace.h"

#include <array>
#include <stdexcept>

#include "costmodel/OptionNames.h"
#include "costmodel/Optimizer.h"
#include "costmodel/Types.h"
#include "formats/FormatIds.h"
#include "store/TraceWriter.h"

namespace memviz::costmodel {

std::string estimateDescription(const std::string& model, const EstimateOptions& o, const Estimate& e) {
    std::string out = "estimate: " + model + ", batch " + std::to_string(o.batch) + ", " + dtypeName(o.dtype) + (o.amp ? " + amp" : "");
    if (o.training) {
        out += ", " + std::string(optimizerName(o.optimizer));
        if (e.checkpointSegments) out += ", checkpoint K=" + std::to_string(e.checkpointSegments);
    } else {
        out += ", inference";
    }
    return out + ", " + deviceName(o.device);
}

std::int64_t saveEstimateTrace(Database& db, const std::string& description, const EstimateOptions& options, const Estimate& e) {
    if (e.timeline.empty()) throw std::invalid_argument("the estimate has no timeline to save (estimate it with a timeline)");
    TraceInfo info;
    info.sourcePath = description;
    info.format = format_id::kEstimate;
    info.timeKind = "index"; // one sample per simulated op
    TraceWriter out(db, info);
    const std::uint16_t device = out.device(options.device == DeviceKind::Cuda ? "cuda:0" : "cpu");
    const std::int64_t total = out.createSeries(device, series_name::kAllocated, "bytes", true);
    std::array<std::int64_t, kCategoryCount> category{};
    for (int c = 0; c < kCategoryCount; ++c)
        category[static_cast<std::size_t>(c)] =
            out.createSeries(device, categoryName(static_cast<Category>(c)), "bytes", false, kSeriesStacked);
    for (std::size_t i = 0; i < e.timeline.size(); ++i) {
        const TimelineSample& s = e.timeline[i];
        const auto t = static_cast<std::int64_t>(i);
        for (std::size_t c = 0; c < category.size(); ++c) out.addPoint(category[c], t, s.byCategory[c]);
        out.addPoint(total, t, s.bytes);
    }
    out.setMetadata(metadata_key::kStacked, "cost model categories");
    out.setMetadata("estimate_batch", std::to_string(options.batch));
    out.setMetadata("estimate_dtype", dtypeName(options.dtype));
    out.setMetadata("estimate_device", deviceName(options.device));
    out.setMetadata("estimate_mode", options.training ? "train" : "inference");
    if (options.training) out.setMetadata("estimate_optimizer", optimizerName(options.optimizer));
    out.setMetadata("estimate_peak_bytes", std::to_string(e.peakBytes));
    return out.commit();
}

} // namespace memviz::costmodel
