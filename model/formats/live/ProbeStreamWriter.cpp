// SPDX-License-Identifier: MIT
#include "formats/live/ProbeStreamWriter.h"

#include <algorithm>

#include "formats/FormatIds.h"
#include "formats/live/Launcher.h"

namespace memviz {

ProbeStreamWriter::ProbeStreamWriter(LiveWriter& writer) : writer_(writer) {}

void ProbeStreamWriter::applyLine(std::string_view line, std::int64_t receivedAtNs) {
    ++lineNumber_;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return;
    ProbeRecord r;
    try {
        r = parser_.parse(line);
    } catch (const ProbeProtocolError& e) {
        if (malformed_++ == 0) firstMalformed_ = "line " + std::to_string(lineNumber_) + ": " + e.what();
        return;
    }
    apply(r, receivedAtNs);
}

int ProbeStreamWriter::seriesFor(const std::string& device, const std::string& name, bool primary) {
    const auto key = std::make_pair(device, name);
    if (const auto it = series_.find(key); it != series_.end()) return it->second;
    const int s = writer_.addSeries({device, name, "bytes", primary});
    series_.emplace(key, s);
    return s;
}

void ProbeStreamWriter::sample(const std::string& device, const std::string& name, bool primary, std::int64_t t, std::int64_t v) {
    writer_.addSample(seriesFor(device, name, primary), t, v);
    latest_[device + " " + name] = v;
}

void ProbeStreamWriter::noteTime(std::int64_t t) {
    if (t > lastT_) lastT_ = t;
}

std::int64_t ProbeStreamWriter::probeTimeAt(std::int64_t monotonicNs) const {
    if (!clockOffset_) return lastT_;
    return std::max(lastT_, monotonicNs - *clockOffset_);
}

std::vector<std::pair<std::string, std::int64_t>> ProbeStreamWriter::latest() const { return {latest_.begin(), latest_.end()}; }

void ProbeStreamWriter::writeGaps(const ProbeRecord& r) {
    // Memory that changed between two operators (Python dropping the last reference to a
    // tensor frees it there) is a record of its own, so that the operators' net bytes add
    // up to what the series shows.
    std::optional<std::int64_t> seq;
    for (const ProbeDeviceMemory& m : r.memory) {
        const auto last = lastAfter_.find(m.device);
        if (!m.before || last == lastAfter_.end() || last->second.second == *m.before) continue;
        if (!seq) seq = seq_++;
        LiveOpRecord gap;
        gap.seq = *seq;
        gap.device = m.device;
        gap.t = last->second.first;
        gap.tEnd = std::max(r.t, gap.t);
        gap.kind = "gap";
        gap.name = kBetweenOperators;
        gap.phase = r.phase.empty() ? "forward" : r.phase;
        gap.step = r.step;
        gap.bytesBefore = last->second.second;
        gap.bytesAfter = *m.before;
        writer_.addOp(gap);
    }
}

void ProbeStreamWriter::apply(const ProbeRecord& r, std::int64_t receivedAtNs) {
    using T = ProbeRecord::Type;
    ++records_;
    if (r.type != T::Hello && r.type != T::Unknown) {
        if (!clockOffset_) clockOffset_ = receivedAtNs - r.t;
        noteTime(r.t + r.dur);
    }
    switch (r.type) {
    case T::Hello: {
        if (r.version > kProbeProtocolVersion)
            throw ProbeProtocolError("the probe speaks protocol version " + std::to_string(r.version) +
                                     "; this memviz reads version " + std::to_string(kProbeProtocolVersion) + " (update memviz)");
        hello_ = true;
        const std::string command = joinCommandLine(r.argv);
        title_ = (command.empty() ? std::string("python") : command) + " (probe, pid " + std::to_string(r.pid) + ")";
        // A distributed job's process is named by its rank first (memviz ranks reads it back).
        if (r.rank) {
            title_ = "rank " + std::to_string(*r.rank) +
                     (r.worldSize ? " of " + std::to_string(*r.worldSize) : std::string()) + ": " + title_;
            writer_.setMetadata(probe_metadata::kRank, std::to_string(*r.rank));
        }
        if (r.localRank) writer_.setMetadata(probe_metadata::kLocalRank, std::to_string(*r.localRank));
        if (r.worldSize) writer_.setMetadata(probe_metadata::kWorldSize, std::to_string(*r.worldSize));
        rank_ = r.rank;
        pid_ = r.pid;
        writer_.setTarget(r.pid, command, title_);
        writer_.setMetadata(metadata_key::kProbeProtocolVersion, std::to_string(r.version));
        if (!r.mode.empty()) writer_.setMetadata(metadata_key::kProbeMode, r.mode);
        if (!r.torch.empty()) writer_.setMetadata(metadata_key::kTorchVersion, r.torch);
        if (!r.python.empty()) writer_.setMetadata(metadata_key::kPythonVersion, r.python);
        if (r.t0WallNs) writer_.setEpochNs(*r.t0WallNs);
        break;
    }
    case T::Op: {
        const std::int64_t tEnd = r.t + r.dur;
        if (r.kind.empty() || r.kind == "op") writeGaps(r);
        const std::int64_t seq = seq_++;
        for (const ProbeDeviceMemory& m : r.memory) {
            if (m.before) sample(m.device, series_name::kAllocated, true, r.t, *m.before);
            if (m.after) sample(m.device, series_name::kAllocated, true, tEnd, *m.after);
            if (m.reserved) sample(m.device, series_name::kReserved, false, tEnd, *m.reserved);
            if (!m.before || !m.after) continue;
            LiveOpRecord op;
            op.seq = seq;
            op.device = m.device;
            op.t = r.t;
            op.tEnd = tEnd;
            op.kind = r.kind.empty() ? "op" : r.kind;
            op.name = r.name;
            op.phase = r.phase.empty() ? "forward" : r.phase;
            op.step = r.step;
            op.bytesBefore = *m.before;
            op.bytesAfter = *m.after;
            writer_.addOp(op);
            if (op.kind == "op") lastAfter_[m.device] = {tEnd, *m.after};
        }
        // Op mode: the storages the call made, paired with their release below.
        for (const ProbeStorage& out : r.outs)
            writer_.addStorage(out.id, out.device, out.bytes, r.name, r.phase.empty() ? "forward" : r.phase, tEnd);
        break;
    }
    case T::Mem:
        for (const ProbeDeviceMemory& m : r.memory) {
            if (m.allocated) sample(m.device, series_name::kAllocated, true, r.t, *m.allocated);
            if (m.reserved) sample(m.device, series_name::kReserved, false, r.t, *m.reserved);
        }
        break;
    case T::Phase: writer_.addMarker(r.t, "phase", r.phase); break;
    case T::Step: writer_.addMarker(r.t, "step", "step " + std::to_string(r.step)); break;
    case T::Mark: writer_.addMarker(r.t, "user", r.label); break;
    case T::Dropped:
        dropped_ += r.count;
        writer_.setMetadata(metadata_key::kProbeDroppedRecords, std::to_string(dropped_));
        break;
    case T::Bye:
        bye_ = true;
        exitCode_ = r.exitCode;
        error_ = r.error;
        break;
    case T::Free: writer_.freeStorage(r.storageId, r.t); break;
    case T::Unknown: break; // a newer probe's record type: skipped
    }
}

} // namespace memviz
