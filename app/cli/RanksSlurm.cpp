// SPDX-License-Identifier: MIT
// memviz ranks --slurm / --local / --gather / --collect / --resume (see RanksSlurm.h).
#include "cli/RanksSlurm.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "core/Progress.h"
#include "ranks/GatheredRanks.h"
#include "ranks/RankSet.h"
#include "ranks/RankSources.h"
#include "ranks/SlurmJob.h"
#include "store/Database.h"
#include "store/StoreFiles.h"
#include "store/TraceQueries.h"

namespace memviz::cli {

namespace {

namespace fs = std::filesystem;

// A command's standard output; a failure to start or a non-zero status is an error naming it.
QString runTool(const QString& program, const QStringList& args, bool* failed = nullptr) {
    QProcess proc;
    proc.start(program, args);
    if (!proc.waitForStarted(30000))
        throw std::runtime_error((program + ": cannot start (" + proc.errorString() + "); is Slurm installed here?").toStdString());
    proc.waitForFinished(120000);
    const QString out = QString::fromUtf8(proc.readAllStandardOutput());
    const QString err = QString::fromUtf8(proc.readAllStandardError()).trimmed();
    const bool bad = proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0;
    if (failed) *failed = bad;
    else if (bad)
        throw std::runtime_error((program + " " + args.join(' ') + " failed (status " + QString::number(proc.exitCode()) + "): " + err).toStdString());
    return out;
}

QStringList toQt(const std::vector<std::string>& v) {
    QStringList out;
    for (const std::string& s : v) out << QString::fromStdString(s);
    return out;
}

bool exists(const std::string& path) {
    std::error_code ec;
    return fs::exists(path, ec);
}

// A rank's name in messages: "rank 12 (path/rank12.csv)".
QString rankLabel(const RankJob& job, int index) {
    const std::string& file = job.files[static_cast<std::size_t>(index)];
    const auto rank = rankInFileName(fs::path(file).filename().string());
    return (rank ? QStringLiteral("rank %1").arg(*rank) : QStringLiteral("task %1").arg(index)) + " (" +
           QString::fromStdString(file) + ")";
}

// The last lines a failed task wrote to its stderr.
QString taskError(const RankJob& job, int index) {
    QFile f(QString::fromStdString(taskErrorLogPath(job.jobDir, index)));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    while (lines.size() > 3) lines.removeFirst();
    return lines.join(QStringLiteral(" / ")).trimmed();
}

// --local FILE: the rank's file into its own store, atomically (imported beside, then renamed).
int localTask(const QString& file, const QString& storeDir) {
    const std::string target = rankStorePath(file.toStdString(), storeDir.toStdString());
    if (!storeDir.isEmpty()) QDir().mkpath(storeDir);
    if (exists(target)) {
        try { // an earlier task's: whole, since it was renamed into place
            Database db(target, Database::Mode::ReadOnly);
            if (!listTraces(db).empty()) {
                printOut(QString::fromStdString(target) + "\n");
                return 0;
            }
        } catch (const std::exception&) {
        }
        std::error_code ec;
        fs::remove(target, ec);
    }
    const std::string part = target + ".part-" + std::to_string(QCoreApplication::applicationPid());
    std::error_code ec;
    try {
        openTrace(file.toStdString(), part, Progress{}, 0, ImportStore::Keep);
        for (const char* tail : {"-wal", "-shm"}) fs::remove(part + tail, ec);
        fs::rename(part, target, ec);
        if (ec) throw std::runtime_error(target + ": cannot put the store in place (" + ec.message() + ")");
    } catch (...) {
        for (const char* tail : {"", "-wal", "-shm", "-journal"}) fs::remove(part + tail, ec);
        throw;
    }
    printOut(QString::fromStdString(target) + "\n");
    return 0;
}

// --gather JOBDIR: every rank's store into the job's one small ranks store.
int gather(const QString& jobDir) {
    const RankJob job = readRankJob(jobDir.toStdString());
    std::vector<GatherInput> inputs;
    std::vector<int> missing;
    for (std::size_t i = 0; i < job.files.size(); ++i) {
        inputs.push_back({rankStorePath(job.files[i], job.storeDir), job.files[i]});
        if (!exists(inputs.back().storePath)) missing.push_back(static_cast<int>(i));
    }
    if (!missing.empty()) {
        QString text = QStringLiteral("%1 of %2 ranks have no store yet:").arg(missing.size()).arg(job.files.size());
        for (std::size_t k = 0; k < missing.size() && k < 20; ++k) text += "\n  " + rankLabel(job, missing[k]);
        if (missing.size() > 20) text += QStringLiteral("\n  … and %1 more").arg(missing.size() - 20);
        throw std::runtime_error(text.toStdString());
    }
    const RankSet set = gatherRankSet(inputs, job.device, Progress{});
    writeGatheredRanksFile(job.out, set);
    printOut(QStringLiteral("gathered %1 ranks into %2\n").arg(set.rows.size()).arg(QString::fromStdString(job.out)));
    return 0;
}

std::vector<int> allIndices(const RankJob& job) {
    std::vector<int> v;
    for (std::size_t i = 0; i < job.files.size(); ++i) v.push_back(static_cast<int>(i));
    return v;
}

// Submits the array of `indices` and a gather after it; records both in the job folder.
void submit(const RankJob& job, const std::vector<int>& indices) {
    const QString arrayId = QString::fromStdString(parseSbatchJobId(
        runTool("sbatch", toQt(arraySbatchArgs(job, indices)) << QString::fromStdString(taskScriptPath(job.jobDir))).toStdString()));
    appendSubmittedArray(job.jobDir, {arrayId.toStdString(), indices});
    const QString gatherId = QString::fromStdString(parseSbatchJobId(
        runTool("sbatch", toQt(gatherSbatchArgs(job, arrayId.toStdString())) << QString::fromStdString(gatherScriptPath(job.jobDir)))
            .toStdString()));
    appendSubmittedGather(job.jobDir, gatherId.toStdString());
    printErr(QStringLiteral("submitted %1 rank tasks as job %2 and the gather as job %3\n").arg(indices.size()).arg(arrayId, gatherId));
}

// Where the job stands: each task's state (the store there = done), the gather's.
struct JobProgress {
    std::vector<int> done, failed, running, pending;
    std::map<int, QString> why; // a failed task's state when its log says nothing
    QString gatherState;        // "" when Slurm no longer knows it
};

JobProgress poll(const RankJob& job, const SubmittedJobs& jobs) {
    std::map<int, SlurmJobState> latest; // each task's record in its latest array
    for (const SubmittedArray& a : jobs.arrays) {
        bool failed = false;
        const QString out = runTool("scontrol", {"show", "job", "-o", QString::fromStdString(a.jobId)}, &failed);
        if (failed) continue; // Slurm forgot it (MinJobAge): the stores and logs tell
        for (const SlurmJobState& s : parseScontrolJobs(out.toStdString()))
            if (s.arrayJobId == a.jobId)
                for (int i : s.arrayTaskIds) latest[i] = s;
    }
    JobProgress p;
    if (!jobs.gathers.empty()) {
        bool failed = false;
        const QString out = runTool("scontrol", {"show", "job", "-o", QString::fromStdString(jobs.gathers.back())}, &failed);
        const auto states = failed ? std::vector<SlurmJobState>{} : parseScontrolJobs(out.toStdString());
        if (!states.empty()) p.gatherState = QString::fromStdString(states.front().state);
    }
    std::set<int> submitted;
    for (const SubmittedArray& a : jobs.arrays) submitted.insert(a.indices.begin(), a.indices.end());
    for (int i : allIndices(job)) {
        const bool stored = exists(rankStorePath(job.files[static_cast<std::size_t>(i)], job.storeDir));
        const auto it = latest.find(i);
        if (it == latest.end()) {
            if (stored) p.done.push_back(i);
            else {
                p.failed.push_back(i);
                p.why[i] = submitted.count(i) ? QStringLiteral("no store, and Slurm no longer knows the task")
                                              : QStringLiteral("never submitted");
            }
            continue;
        }
        const std::string& st = it->second.state;
        if (st == "COMPLETED" && stored) p.done.push_back(i);
        else if (isFailedState(st) || st == "COMPLETED") {
            p.failed.push_back(i);
            p.why[i] = QString::fromStdString(st + (it->second.exitCode.empty() ? "" : ", exit " + it->second.exitCode));
        } else if (st == "PENDING") p.pending.push_back(i);
        else p.running.push_back(i);
    }
    return p;
}

// --collect JOBDIR (and after --slurm / --resume without --no-wait): waits, reports.
int collect(const QString& jobDir) {
    const RankJob job = readRankJob(jobDir.toStdString());
    const SubmittedJobs jobs = readSubmittedJobs(job.jobDir);
    if (jobs.arrays.empty()) throw std::runtime_error((jobDir + ": nothing was submitted for this job folder").toStdString());
    QString last;
    JobProgress p;
    for (int round = 0;; ++round) {
        p = poll(job, jobs);
        const bool gatherLive = p.gatherState == "PENDING" || p.gatherState == "RUNNING" || p.gatherState == "CONFIGURING" ||
                                p.gatherState == "COMPLETING";
        const QString line = QStringLiteral("ranks: %1 done, %2 failed, %3 running, %4 pending of %5; gather %6")
                                 .arg(p.done.size()).arg(p.failed.size()).arg(p.running.size()).arg(p.pending.size())
                                 .arg(job.files.size()).arg(p.gatherState.isEmpty() ? QStringLiteral("ended") : p.gatherState.toLower());
        if (line != last) printErr(line + "\n");
        last = line;
        if (p.running.empty() && p.pending.empty() && !gatherLive) break;
        QThread::msleep(round < 60 ? 1000 : 10000);
    }
    if (!p.failed.empty()) {
        QString text = QStringLiteral("%1 of %2 ranks failed:\n").arg(p.failed.size()).arg(job.files.size());
        for (int i : p.failed) {
            QString error = taskError(job, i);
            if (error.isEmpty()) error = p.why[i];
            text += "  " + rankLabel(job, i) + ": " + error + "\n";
        }
        text += QStringLiteral("resubmit them alone with: memviz ranks --resume %1\n").arg(QString::fromStdString(job.jobDir));
        printErr(text);
        return 1;
    }
    if (!exists(job.out) || p.gatherState == "FAILED" || p.gatherState == "CANCELLED" || p.gatherState == "TIMEOUT") {
        QFile log(QString::fromStdString(job.jobDir + "/logs/gather.err"));
        const QString err = log.open(QIODevice::ReadOnly) ? QString::fromUtf8(log.readAll()).trimmed() : QString();
        printErr(QStringLiteral("every rank is imported, but the gather did not write %1%2\nrun it again: memviz ranks --resume %3\n")
                     .arg(QString::fromStdString(job.out), err.isEmpty() ? QString() : " (" + err + ")", QString::fromStdString(job.jobDir)));
        return 1;
    }
    printOut(QStringLiteral("%1 ranks gathered into %2\nopen it: memviz ranks %2 (or File > Open Ranks… in the window)\n")
                 .arg(job.files.size()).arg(QString::fromStdString(job.out)));
    return 0;
}

// --resume JOBDIR: the tasks without a store again, and a new gather.
int resume(const QString& jobDir, bool noWait) {
    const RankJob job = readRankJob(jobDir.toStdString());
    const SubmittedJobs jobs = readSubmittedJobs(job.jobDir);
    JobProgress p = jobs.arrays.empty() ? JobProgress{} : poll(job, jobs);
    if (!p.running.empty() || !p.pending.empty())
        throw std::runtime_error(QStringLiteral("%1 ranks of this job are still running or pending; wait for them (memviz ranks --collect %2)")
                                     .arg(p.running.size() + p.pending.size()).arg(jobDir).toStdString());
    std::vector<int> todo;
    for (int i : allIndices(job))
        if (!exists(rankStorePath(job.files[static_cast<std::size_t>(i)], job.storeDir))) todo.push_back(i);
    if (todo.empty()) {
        // Every rank is there: only the gather is left.
        const QString id = QString::fromStdString(
            parseSbatchJobId(runTool("sbatch", toQt(gatherSbatchArgs(job, "")) << QString::fromStdString(gatherScriptPath(job.jobDir)))
                                 .toStdString()));
        appendSubmittedGather(job.jobDir, id.toStdString());
        printErr(QStringLiteral("every rank has its store; submitted the gather as job %1\n").arg(id));
    } else {
        for (int i : todo) { // the failed attempt's log goes, so a new error is the one reported
            std::error_code ec;
            fs::remove(taskErrorLogPath(job.jobDir, i), ec);
        }
        submit(job, todo);
    }
    if (noWait) {
        printOut(QStringLiteral("collect it later: memviz ranks --collect %1\n").arg(jobDir));
        return 0;
    }
    return collect(jobDir);
}

QString defaultOut(const QStringList& paths) {
    if (paths.size() == 1 && QFileInfo(paths[0]).isDir()) return QDir(paths[0]).filePath(QStringLiteral("ranks.memviz"));
    return QStringLiteral("ranks.memviz");
}

// --slurm PATH...: the job folder, then (unless --no-submit) the array and the gather.
int slurm(const QCommandLineParser& p, const QStringList& paths) {
    if (paths.isEmpty()) throw UsageError{QStringLiteral("--slurm needs the rank files: a folder of them, or the files")};
    std::vector<std::string> given;
    for (const QString& s : paths) given.push_back(s.toStdString());
    RankJob job;
    for (const RankPathEntry& e : planRankPaths(given)) {
        if (!e.raw) throw UsageError{QString::fromStdString(e.name) + ": --slurm imports rank files; this is a store already"};
        job.files.push_back(QFileInfo(QString::fromStdString(e.path)).absoluteFilePath().toStdString());
    }
    if (job.files.size() < 2) throw UsageError{QStringLiteral("--slurm needs at least two rank files")};
    const QString out = QFileInfo(p.isSet("out") ? p.value("out") : defaultOut(paths)).absoluteFilePath();
    job.out = out.toStdString();
    QString jobDir = p.value("job-dir");
    if (jobDir.isEmpty()) jobDir = (out.endsWith(".memviz") ? out.chopped(7) : out) + "-job";
    job.jobDir = QFileInfo(jobDir).absoluteFilePath().toStdString();
    if (p.isSet("store-dir")) job.storeDir = QFileInfo(p.value("store-dir")).absoluteFilePath().toStdString();
    job.memviz = QCoreApplication::applicationFilePath().toStdString();
    job.device = p.value("device").toStdString();
    job.slurm.partition = p.value("partition").toStdString();
    job.slurm.account = p.value("account").toStdString();
    job.slurm.timeLimit = p.value("time").toStdString();
    if (p.isSet("concurrency")) {
        bool ok = false;
        job.slurm.concurrency = p.value("concurrency").toInt(&ok);
        if (!ok || job.slurm.concurrency <= 0) throw UsageError{"--concurrency needs a positive number, got \"" + p.value("concurrency") + "\""};
    }
    for (const QString& a : p.values("sbatch-arg")) job.slurm.sbatchArgs.push_back(a.toStdString());
    if (!readSubmittedJobs(job.jobDir).arrays.empty())
        throw UsageError{QString::fromStdString(job.jobDir) + ": this job folder has a submitted job; collect it (--collect) or resume it "
                         "(--resume), or give another --job-dir"};
    writeRankJob(job);
    if (p.isSet("no-submit")) {
        printOut(QStringLiteral("wrote the job folder %1 (%2 ranks): task.sh (sbatch --array), gather.sh\n")
                     .arg(QString::fromStdString(job.jobDir)).arg(job.files.size()));
        return 0;
    }
    submit(job, allIndices(job));
    if (p.isSet("no-wait")) {
        printOut(QStringLiteral("collect it later: memviz ranks --collect %1\n").arg(QString::fromStdString(job.jobDir)));
        return 0;
    }
    return collect(QString::fromStdString(job.jobDir));
}

} // namespace

int runRanksSlurmMode(const QCommandLineParser& p, const QStringList& paths) {
    int modes = 0;
    for (const char* m : {"slurm", "local", "gather", "collect", "resume"}) modes += p.isSet(m) ? 1 : 0;
    if (modes == 0) {
        for (const char* o : {"out", "store-dir", "job-dir", "partition", "account", "time", "concurrency", "sbatch-arg", "no-wait", "no-submit"})
            if (p.isSet(o)) throw UsageError{QStringLiteral("--%1 goes with --slurm (see memviz ranks --help)").arg(QString::fromLatin1(o))};
        return -1;
    }
    if (modes > 1) throw UsageError{QStringLiteral("give one of --slurm, --local, --gather, --collect, --resume")};
    if (p.isSet("slurm")) return slurm(p, paths);
    if (paths.size() != 1) throw UsageError{QStringLiteral("--local, --gather, --collect and --resume take exactly one path")};
    if (p.isSet("local")) return localTask(paths[0], p.value("store-dir"));
    if (p.isSet("gather")) return gather(paths[0]);
    if (p.isSet("collect")) return collect(paths[0]);
    return resume(paths[0], p.isSet("no-wait"));
}

} // namespace memviz::cli
