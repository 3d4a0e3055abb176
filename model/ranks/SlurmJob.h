// SPDX-License-Identifier: MIT
#pragma once
// The Slurm side of `memviz ranks --slurm` (issue 55), as plain text in and out: the job
// folder (the rank files one per line, the settings, the array task's and the gather's batch
// scripts), the sbatch arguments, and what `sbatch --parsable` and `scontrol show job -o`
// print, read back into per-task states. Running the commands is the command line's business
// (app/cli/RanksSlurm.cpp); nothing here starts a process.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace memviz {

// A job folder that cannot be read or written, or Slurm output that does not say what it must.
class SlurmJobError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct SlurmOptions {
    std::string partition, account, timeLimit; // "" = the cluster's default
    int concurrency = 0;                       // tasks at once (the array's %N); 0 = no limit
    std::vector<std::string> sbatchArgs;       // passed to sbatch as they are
};

// What a job folder holds (job.conf, files.list).
struct RankJob {
    std::string jobDir;
    std::string memviz;   // the executable the tasks run (the same path on every node)
    std::string out;      // the gathered store
    std::string storeDir; // where each rank's store goes; "" = beside its file
    std::string device;   // as `--device` ("" = the default choice)
    SlurmOptions slurm;
    std::vector<std::string> files; // task i imports files[i]
};

// Where the rank file `file`'s own store goes: `<file>.memviz`, or that name in `storeDir`.
std::string rankStorePath(const std::string& file, const std::string& storeDir);

// Writes job.conf, files.list, task.sh and gather.sh (and the logs/ folder) into job.jobDir.
void writeRankJob(const RankJob& job);
// Reads a job folder written by writeRankJob. Throws SlurmJobError naming the file and line.
RankJob readRankJob(const std::string& jobDir);
std::string taskScriptPath(const std::string& jobDir);
std::string gatherScriptPath(const std::string& jobDir);
// The task's stderr (the error a failed import printed).
std::string taskErrorLogPath(const std::string& jobDir, int index);

// "0-3,7,9-12" for {0,1,2,3,7,9,10,11,12}; the array's %N added when concurrency > 0.
std::string arraySpec(const std::vector<int>& indices, int concurrency);
// sbatch's arguments (before the script) for the array of `indices`.
std::vector<std::string> arraySbatchArgs(const RankJob& job, const std::vector<int>& indices);
// sbatch's arguments for the gather, after the array job `arrayJobId` succeeded ("": at once).
std::vector<std::string> gatherSbatchArgs(const RankJob& job, const std::string& arrayJobId);
// The job id `sbatch --parsable` printed ("1234" or "1234;cluster"). Throws SlurmJobError.
std::string parseSbatchJobId(const std::string& output);

// The jobs submitted for a job folder (its `jobs` file): each array with the tasks it holds,
// and the gathers, in the order submitted.
struct SubmittedArray {
    std::string jobId;
    std::vector<int> indices;
};
struct SubmittedJobs {
    std::vector<SubmittedArray> arrays;
    std::vector<std::string> gathers;
};
void appendSubmittedArray(const std::string& jobDir, const SubmittedArray& array);
void appendSubmittedGather(const std::string& jobDir, const std::string& jobId);
SubmittedJobs readSubmittedJobs(const std::string& jobDir);

// One job or array task as `scontrol show job -o` describes it.
struct SlurmJobState {
    std::string jobId;                // the job's own id
    std::string arrayJobId;           // "" for a job that is not part of an array
    std::vector<int> arrayTaskIds;    // the tasks this record stands for (a pending remainder holds many)
    std::string state;                // JobState: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
    std::string reason;               // Reason (None when none)
    std::string exitCode;             // ExitCode ("1:0")
};
// Every record of `scontrol show job -o` output, one per line. Lines it cannot read are skipped.
std::vector<SlurmJobState> parseScontrolJobs(const std::string& output);
// "5-63%8", "1,3,7-9" → the indices (the %N throttle dropped). nullopt for anything else.
std::optional<std::vector<int>> parseArrayTaskIds(const std::string& text);
// A state from which a job does not come back by itself (FAILED, CANCELLED, TIMEOUT, ...).
bool isFailedState(const std::string& state);
bool isFinishedState(const std::string& state); // COMPLETED or failed

} // namespace memviz
