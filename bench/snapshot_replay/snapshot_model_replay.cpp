// SPDX-License-Identifier: MIT
// snapshot_model_replay SPEC.json...: the cost model's prediction for each replay spec of
// bench/snapshot_replay/specs/ (docs/costmodel.md, "Model replay"), one TSV row per spec:
// the snapshot's file name, then the allocated bytes per phase and the reserved peak (the
// caching allocator's, over the steps before the recorded one too; no CUDA context).
// model_table.py sets these beside the recorded numbers of recorded.tsv.
#include <cstdio>
#include <exception>

#include "costmodel/SnapshotReplay.h"

int main(int argc, char** argv) {
    using namespace memviz::costmodel;
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
