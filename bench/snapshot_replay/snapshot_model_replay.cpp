// SPDX-License-Identifier: MIT
// snapshot_model_replay SPEC.json...: the cost model's prediction for each replay spec of
// bench/snapshot_replay/specs/ (docs/costmodel.md, "Model replay"), one TSV row per spec:
// the snapshot's file name, then the allocated bytes per phase and the reserved peak (the
// caching allocator's, over the steps before the recorded one too; no CUDA context).
// model_table.py sets these beside the recorded numbers of recorded.tsv. With --timeline SPEC.json,
// the recorded step's samples (op, phase, allocated, reserved) of one spec, to compare orders.
#include <cstdio>
#include <exception>
#include <string>

#include "costmodel/SnapshotReplay.h"

int main(int argc, char** argv) {
    using namespace memviz::costmodel;
    // --timeline SPEC.json: the recorded step's samples instead (op, phase, allocated, reserved)
    if (argc == 3 && std::string(argv[1]) == "--timeline") {
        try {
            const ReplaySpec r = readReplaySpec(argv[2]);
            const Estimate e = estimate(r.model, r.options);
            std::printf("op\tphase\tallocated\treserved\n");
            for (const TimelineSample& s : e.timeline) {
                std::int64_t a = 0;
                for (std::size_t c = 0; c < s.byCategory.size(); ++c)
                    if (c != static_cast<std::size_t>(Category::Overhead)) a += s.byCategory[c];
                std::printf("%s\t%d\t%lld\t%lld\n", s.op, static_cast<int>(s.phase), static_cast<long long>(a),
                            static_cast<long long>(s.bytes - r.options.cudaContextBytes));
            }
        } catch (const std::exception& x) {
            std::fprintf(stderr, "%s\n", x.what());
            return 1;
        }
        return 0;
    }
    std::printf("file\tforward_end\tforward_peak\tbackward_peak\tstep_peak\tpeak\treserved_peak\n");
    for (int i = 1; i < argc; ++i) {
        try {
            const ReplaySpec r = readReplaySpec(argv[i]);
            const Estimate e = estimate(r.model, r.options);
            const PhaseAllocated p = phaseAllocated(e);
            std::printf("%s\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", r.snapshot.c_str(), static_cast<long long>(p.forwardEnd),
                        static_cast<long long>(p.forwardPeak), static_cast<long long>(p.backwardPeak),
                        static_cast<long long>(p.stepPeak), static_cast<long long>(p.peak),
                        static_cast<long long>(e.peakBytes - r.options.cudaContextBytes));
        } catch (const std::exception& x) {
            std::fprintf(stderr, "%s\n", x.what());
            return 1;
        }
    }
    return 0;
}
