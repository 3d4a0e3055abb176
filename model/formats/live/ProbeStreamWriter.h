// SPDX-License-Identifier: MIT
#pragma once
// Puts the probe's records into a live recording: memory samples per device (allocated,
// reserved), operator records, phases, steps and marks. Separate from the socket so that
// tests can feed it lines.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/live/LiveWriter.h"
#include "formats/live/ProbeProtocol.h"

namespace memviz {

// The operator name of memory changes between two operators (live_ops.kind 'gap').
inline constexpr const char* kBetweenOperators = "(between operators)";

class ProbeStreamWriter {
public:
    explicit ProbeStreamWriter(LiveWriter& writer);

    // Parses one line and stores it. A malformed line is counted and skipped (its error is
    // kept for the report); a hello of a newer protocol version throws ProbeProtocolError,
    // which ends the recording. `receivedAtNs` (monotonic) maps the probe's clock to ours.
    void applyLine(std::string_view line, std::int64_t receivedAtNs);
    void apply(const ProbeRecord& record, std::int64_t receivedAtNs);

    // The script ended and said so (bye): how.
    bool saidBye() const { return bye_; }
    std::optional<int> exitCode() const { return exitCode_; }
    const std::string& error() const { return error_; }
    bool saidHello() const { return hello_; }
    const std::string& scriptTitle() const { return title_; }
    // The hello's RANK (a distributed job's process), when it sent one.
    std::optional<int> rank() const { return rank_; }
    int pid() const { return pid_; }

    // The probe's time (ns since it started) at our monotonic time.
    std::int64_t probeTimeAt(std::int64_t monotonicNs) const;
    std::int64_t lastT() const { return lastT_; }
    std::int64_t records() const { return records_; }
    std::int64_t malformed() const { return malformed_; }
    const std::string& firstMalformed() const { return firstMalformed_; }
    std::int64_t dropped() const { return dropped_; }
    // Latest value per series ("cpu allocated" -> bytes), for read-outs.
    std::vector<std::pair<std::string, std::int64_t>> latest() const;

private:
    int seriesFor(const std::string& device, const std::string& name, bool primary);
    void sample(const std::string& device, const std::string& name, bool primary, std::int64_t t, std::int64_t v);
    void noteTime(std::int64_t t);
    void writeGaps(const ProbeRecord& r);

    LiveWriter& writer_;
    ProbeParser parser_;
    std::map<std::pair<std::string, std::string>, int> series_;
    std::map<std::string, std::int64_t> latest_;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> lastAfter_; // per device: end time, bytes
    std::int64_t seq_ = 0;
    std::int64_t lastT_ = 0;
    std::optional<std::int64_t> clockOffset_; // our monotonic minus the probe's t
    std::int64_t records_ = 0;
    std::int64_t malformed_ = 0;
    std::string firstMalformed_;
    std::int64_t dropped_ = 0;
    bool hello_ = false;
    bool bye_ = false;
    std::optional<int> exitCode_;
    std::string error_;
    std::string title_;
    std::optional<int> rank_;
    int pid_ = 0;
    std::int64_t lineNumber_ = 0;
};

} // namespace memviz
