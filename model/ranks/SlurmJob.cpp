// SPDX-License-Identifier: MIT
// The job folder and the Slurm text of `memviz ranks --slurm` (see SlurmJob.h).
#include "ranks/SlurmJob.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

namespace memviz {

namespace {

namespace fs = std::filesystem;

constexpr const char* kConf = "job.conf";
constexpr const char* kFiles = "files.list";
constexpr const char* kJobs = "jobs";
constexpr std::size_t kMaxTasks = 4'000'001; // the largest MaxArraySize Slurm accepts

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

void noNewline(const std::string& what, const std::string& value) {
    if (value.find('\n') != std::string::npos || value.find('\r') != std::string::npos)
        throw SlurmJobError(what + " holds a line break, which a job folder cannot keep: " + value);
}

void writeFile(const std::string& path, const std::string& text, bool executable = false) {
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) throw SlurmJobError(path + ": cannot write");
    }
    if (executable) {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add, ec);
    }
}

std::vector<std::string> readLines(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SlurmJobError(path + ": cannot read");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string absolute(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

} // namespace

std::string rankStorePath(const std::string& file, const std::string& storeDir) {
    if (storeDir.empty()) return file + ".memviz";
    return (fs::path(storeDir) / (fs::path(file).filename().string() + ".memviz")).string();
}

std::string taskScriptPath(const std::string& jobDir) { return (fs::path(jobDir) / "task.sh").string(); }
std::string gatherScriptPath(const std::string& jobDir) { return (fs::path(jobDir) / "gather.sh").string(); }
std::string taskErrorLogPath(const std::string& jobDir, int index) {
    return (fs::path(jobDir) / "logs" / ("task-" + std::to_string(index) + ".err")).string();
}

void writeRankJob(const RankJob& job) {
    std::error_code ec;
    fs::create_directories(fs::path(job.jobDir) / "logs", ec);
    if (ec) throw SlurmJobError(job.jobDir + ": cannot create the job folder (" + ec.message() + ")");
    std::string conf = "# memviz ranks --slurm: this job's settings (memviz ranks --collect / --resume read them)\n";
    const std::vector<std::pair<std::string, std::string>> values = {
        {"memviz", job.memviz}, {"out", job.out}, {"store_dir", job.storeDir}, {"device", job.device},
        {"partition", job.slurm.partition}, {"account", job.slurm.account}, {"time", job.slurm.timeLimit},
        {"concurrency", std::to_string(job.slurm.concurrency)}};
    for (const auto& [k, v] : values) {
        noNewline(k, v);
        conf += k + "=" + v + "\n";
    }
    for (const std::string& a : job.slurm.sbatchArgs) {
        noNewline("an sbatch argument", a);
        conf += "sbatch_arg=" + a + "\n";
    }
    writeFile((fs::path(job.jobDir) / kConf).string(), conf);
    std::string files;
    for (const std::string& f : job.files) {
        noNewline("a rank file's name", f);
        files += f + "\n";
    }
    writeFile((fs::path(job.jobDir) / kFiles).string(), files);
    const std::string dir = absolute(job.jobDir);
    writeFile(taskScriptPath(job.jobDir),
              "#!/bin/sh\n"
              "# memviz ranks --slurm: array task i imports line i+1 of files.list into that rank's own store.\n"
              "i=\"${SLURM_ARRAY_TASK_ID:?run as a task of sbatch --array}\"\n"
              "file=$(sed -n \"$((i + 1))p\" " + shellQuote(dir + "/" + kFiles) + ")\n"
              "[ -n \"$file\" ] || { echo \"memviz: task $i: no such line in files.list\" >&2; exit 2; }\n"
              "exec " + shellQuote(job.memviz) + " ranks --local \"$file\"" +
                  (job.storeDir.empty() ? std::string() : " --store-dir " + shellQuote(job.storeDir)) + "\n",
              true);
    writeFile(gatherScriptPath(job.jobDir),
              "#!/bin/sh\n"
              "# memviz ranks --slurm: gathers every rank's store into one small ranks store.\n"
              "exec " + shellQuote(job.memviz) + " ranks --gather " + shellQuote(dir) + "\n",
              true);
}

RankJob readRankJob(const std::string& jobDir) {
    RankJob job;
    job.jobDir = jobDir;
    const std::string confPath = (fs::path(jobDir) / kConf).string();
    const std::vector<std::string> lines = readLines(confPath);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.empty() || line[0] == '#') continue;
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos) throw SlurmJobError(confPath + ":" + std::to_string(i + 1) + ": expected key=value, got \"" + line + "\"");
        const std::string k = line.substr(0, eq), v = line.substr(eq + 1);
        if (k == "memviz") job.memviz = v;
        else if (k == "out") job.out = v;
        else if (k == "store_dir") job.storeDir = v;
        else if (k == "device") job.device = v;
        else if (k == "partition") job.slurm.partition = v;
        else if (k == "account") job.slurm.account = v;
        else if (k == "time") job.slurm.timeLimit = v;
        else if (k == "sbatch_arg") job.slurm.sbatchArgs.push_back(v);
        else if (k == "concurrency") {
            try {
                job.slurm.concurrency = std::stoi(v);
            } catch (const std::exception&) {
                throw SlurmJobError(confPath + ":" + std::to_string(i + 1) + ": concurrency is not a number: \"" + v + "\"");
            }
        }
        // other keys: a newer memviz's; ignored
    }
    if (job.out.empty()) throw SlurmJobError(confPath + ": no out= line (the gathered store)");
    for (const std::string& f : readLines((fs::path(jobDir) / kFiles).string()))
        if (!f.empty()) job.files.push_back(f);
    if (job.files.empty()) throw SlurmJobError(jobDir + "/" + kFiles + ": no rank files");
    return job;
}

std::string arraySpec(const std::vector<int>& indices, int concurrency) {
    std::vector<int> v = indices;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    std::string out;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
        out += (out.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : std::string());
        i = j + 1;
    }
    if (concurrency > 0) out += "%" + std::to_string(concurrency);
    return out;
}

namespace {
std::vector<std::string> commonArgs(const RankJob& job, const std::string& name) {
    std::vector<std::string> a{"--parsable", "--job-name=" + name};
    if (!job.slurm.partition.empty()) a.push_back("--partition=" + job.slurm.partition);
    if (!job.slurm.account.empty()) a.push_back("--account=" + job.slurm.account);
    if (!job.slurm.timeLimit.empty()) a.push_back("--time=" + job.slurm.timeLimit);
    return a;
}
} // namespace

std::vector<std::string> arraySbatchArgs(const RankJob& job, const std::vector<int>& indices) {
    std::vector<std::string> a = commonArgs(job, "memviz-ranks");
    const std::string logs = absolute(job.jobDir) + "/logs/";
    a.push_back("--array=" + arraySpec(indices, job.slurm.concurrency));
    a.push_back("--output=" + logs + "task-%a.out");
    a.push_back("--error=" + logs + "task-%a.err");
    a.insert(a.end(), job.slurm.sbatchArgs.begin(), job.slurm.sbatchArgs.end());
    return a;
}

std::vector<std::string> gatherSbatchArgs(const RankJob& job, const std::string& arrayJobId) {
    std::vector<std::string> a = commonArgs(job, "memviz-ranks-gather");
    const std::string logs = absolute(job.jobDir) + "/logs/";
    if (!arrayJobId.empty()) {
        a.push_back("--dependency=afterok:" + arrayJobId);
        a.push_back("--kill-on-invalid-dep=yes"); // a failed task ends the gather instead of leaving it pending
    }
    a.push_back("--output=" + logs + "gather.out");
    a.push_back("--error=" + logs + "gather.err");
    a.insert(a.end(), job.slurm.sbatchArgs.begin(), job.slurm.sbatchArgs.end());
    return a;
}

std::string parseSbatchJobId(const std::string& output) {
    std::string s = output;
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    const std::size_t nl = s.find_last_of('\n');
    if (nl != std::string::npos) s = s.substr(nl + 1); // warnings come first
    const std::size_t semi = s.find(';');
    if (semi != std::string::npos) s.resize(semi);
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); }))
        throw SlurmJobError("sbatch did not print a job id: \"" + output + "\"");
    return s;
}

void appendSubmittedArray(const std::string& jobDir, const SubmittedArray& array) {
    std::ofstream out((fs::path(jobDir) / kJobs).string(), std::ios::app);
    out << "array " << array.jobId << " " << arraySpec(array.indices, 0) << "\n";
    if (!out) throw SlurmJobError(jobDir + "/" + kJobs + ": cannot write");
}

void appendSubmittedGather(const std::string& jobDir, const std::string& jobId) {
    std::ofstream out((fs::path(jobDir) / kJobs).string(), std::ios::app);
    out << "gather " << jobId << "\n";
    if (!out) throw SlurmJobError(jobDir + "/" + kJobs + ": cannot write");
}

SubmittedJobs readSubmittedJobs(const std::string& jobDir) {
    SubmittedJobs jobs;
    const std::string path = (fs::path(jobDir) / kJobs).string();
    std::error_code ec;
    if (!fs::exists(path, ec)) return jobs;
    const std::vector<std::string> lines = readLines(path);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::istringstream in(lines[i]);
        std::string kind, id, spec;
        in >> kind >> id >> spec;
        if (kind == "array") {
            const auto indices = parseArrayTaskIds(spec);
            if (!indices) throw SlurmJobError(path + ":" + std::to_string(i + 1) + ": bad task list \"" + spec + "\"");
            jobs.arrays.push_back({id, *indices});
        } else if (kind == "gather") {
            jobs.gathers.push_back(id);
        } else if (!kind.empty()) {
            throw SlurmJobError(path + ":" + std::to_string(i + 1) + ": unknown line \"" + lines[i] + "\"");
        }
    }
    return jobs;
}

std::optional<std::vector<int>> parseArrayTaskIds(const std::string& text) {
    std::string s = text.substr(0, text.find('%'));
    if (s.empty()) return std::nullopt;
    std::vector<int> out;
    std::stringstream parts(s);
    for (std::string part; std::getline(parts, part, ',');) {
        const std::size_t dash = part.find('-');
        try {
            std::size_t used = 0;
            const int a = std::stoi(part.substr(0, dash), &used);
            if (used != (dash == std::string::npos ? part.size() : dash) || a < 0) return std::nullopt;
            int b = a;
            if (dash != std::string::npos) {
                const std::string tail = part.substr(dash + 1);
                b = std::stoi(tail, &used);
                if (used != tail.size() || b < a) return std::nullopt;
            }
            if (static_cast<std::size_t>(b - a) > kMaxTasks || out.size() + static_cast<std::size_t>(b - a) > kMaxTasks) return std::nullopt; // Slurm's own MaxArraySize limit
            for (int i = a; i <= b; ++i) out.push_back(i);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return out;
}

std::vector<SlurmJobState> parseScontrolJobs(const std::string& output) {
    std::vector<SlurmJobState> out;
    std::stringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
        std::map<std::string, std::string> f;
        std::stringstream words(line);
        for (std::string w; words >> w;) {
            const std::size_t eq = w.find('=');
            if (eq != std::string::npos && !f.count(w.substr(0, eq))) f[w.substr(0, eq)] = w.substr(eq + 1);
        }
        if (!f.count("JobId") || !f.count("JobState")) continue;
        SlurmJobState s;
        s.jobId = f["JobId"];
        s.state = f["JobState"];
        s.reason = f.count("Reason") ? f["Reason"] : "";
        s.exitCode = f.count("ExitCode") ? f["ExitCode"] : "";
        if (f.count("ArrayJobId")) {
            s.arrayJobId = f["ArrayJobId"];
            if (f.count("ArrayTaskId"))
                if (auto ids = parseArrayTaskIds(f["ArrayTaskId"])) s.arrayTaskIds = std::move(*ids);
        }
        out.push_back(std::move(s));
    }
    return out;
}

bool isFailedState(const std::string& state) {
    static const std::set<std::string> failed{"FAILED",      "CANCELLED", "TIMEOUT",   "NODE_FAIL", "OUT_OF_MEMORY",
                                              "BOOT_FAIL",   "DEADLINE",  "PREEMPTED", "REVOKED",   "SPECIAL_EXIT"};
    return failed.count(state) > 0;
}

bool isFinishedState(const std::string& state) { return state == "COMPLETED" || isFailedState(state); }

} // namespace memviz
