// SPDX-License-Identifier: MIT
// The text side of `memviz ranks --slurm` (model/ranks/SlurmJob.h, issue 55): array specs,
// sbatch's --parsable output, `scontrol show job -o` records (lines as Slurm 22.05 prints them
// for an array's pending remainder, its finished tasks and a gather cancelled by a failed
// dependency), and the job folder written and read back. Expectations written by hand.
#include <QFile>
#include <QTemporaryDir>
#include <algorithm>
#include <QtTest>

#include "ranks/SlurmJob.h"

using namespace memviz;

class TestSlurmJob : public QObject {
    Q_OBJECT
private slots:
    void arraySpecs() {
        QCOMPARE(QString::fromStdString(arraySpec({0, 1, 2, 3, 7, 9, 10, 11, 12}, 0)), QStringLiteral("0-3,7,9-12"));
        QCOMPARE(QString::fromStdString(arraySpec({5, 3, 4, 3}, 8)), QStringLiteral("3-5%8"));
        QCOMPARE(QString::fromStdString(arraySpec({42}, 0)), QStringLiteral("42"));
        const auto ids = parseArrayTaskIds("5-7,9%8");
        QVERIFY(ids);
        QCOMPARE(*ids, (std::vector<int>{5, 6, 7, 9}));
        QVERIFY(!parseArrayTaskIds(""));
        QVERIFY(!parseArrayTaskIds("3-1"));
        QVERIFY(!parseArrayTaskIds("a-b"));
        QVERIFY(!parseArrayTaskIds("1-2x"));
    }

    void sbatchOutput() {
        QCOMPARE(QString::fromStdString(parseSbatchJobId("1234\n")), QStringLiteral("1234"));
        QCOMPARE(QString::fromStdString(parseSbatchJobId("1234;cluster\n")), QStringLiteral("1234"));
        QCOMPARE(QString::fromStdString(parseSbatchJobId("sbatch: warning: something\n77\n")), QStringLiteral("77"));
        QVERIFY_THROWS_EXCEPTION(SlurmJobError, parseSbatchJobId("sbatch: error: Batch job submission failed\n"));
    }

    void scontrolRecords() {
        const std::string out =
            "JobId=1 ArrayJobId=1 ArrayTaskId=4-63%16 ArrayTaskThrottle=16 JobName=memviz-ranks JobState=PENDING Reason=JobArrayTaskLimit "
            "Dependency=(null) ExitCode=0:0\n"
            "JobId=3 ArrayJobId=1 ArrayTaskId=2 JobName=memviz-ranks JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0\n"
            "JobId=2 ArrayJobId=1 ArrayTaskId=1 JobName=memviz-ranks JobState=RUNNING Reason=None ExitCode=0:0\n"
            "not a record\n"
            "JobId=66 JobName=memviz-ranks-gather JobState=CANCELLED Reason=DependencyNeverSatisfied ExitCode=0:0\n";
        const std::vector<SlurmJobState> s = parseScontrolJobs(out);
        QCOMPARE(s.size(), std::size_t(4));
        QCOMPARE(s[0].arrayTaskIds.size(), std::size_t(60));
        QCOMPARE(s[0].arrayTaskIds.front(), 4);
        QCOMPARE(QString::fromStdString(s[0].state), QStringLiteral("PENDING"));
        QCOMPARE(s[1].arrayTaskIds, std::vector<int>{2});
        QCOMPARE(QString::fromStdString(s[1].exitCode), QStringLiteral("1:0"));
        QVERIFY(isFailedState(s[1].state));
        QVERIFY(!isFailedState(s[2].state) && !isFinishedState(s[2].state));
        QCOMPARE(QString::fromStdString(s[3].jobId), QStringLiteral("66"));
        QVERIFY(s[3].arrayJobId.empty());
        QVERIFY(isFailedState(s[3].state));
        QVERIFY(isFinishedState("COMPLETED") && !isFailedState("COMPLETED"));
    }

    void jobFolderRoundTrip() {
        QTemporaryDir dir;
        RankJob job;
        job.jobDir = dir.filePath("job").toStdString();
        job.memviz = "/opt/memviz it's/bin/memviz";
        job.out = "/shared/run/ranks.memviz";
        job.storeDir = "/shared/stores";
        job.device = "cuda";
        job.slurm = {"gpu", "proj1", "00:30:00", 64, {"--mem=4G", "--qos=low"}};
        job.files = {"/shared/run/rank0.pickle", "/shared/run/rank1.pickle"};
        writeRankJob(job);
        const RankJob back = readRankJob(job.jobDir);
        QCOMPARE(back.memviz, job.memviz);
        QCOMPARE(back.out, job.out);
        QCOMPARE(back.storeDir, job.storeDir);
        QCOMPARE(back.device, job.device);
        QCOMPARE(back.slurm.partition, std::string("gpu"));
        QCOMPARE(back.slurm.concurrency, 64);
        QCOMPARE(back.slurm.sbatchArgs, job.slurm.sbatchArgs);
        QCOMPARE(back.files, job.files);
        QCOMPARE(QString::fromStdString(rankStorePath(job.files[1], job.storeDir)), QStringLiteral("/shared/stores/rank1.pickle.memviz"));
        QCOMPARE(QString::fromStdString(rankStorePath(job.files[1], "")), QStringLiteral("/shared/run/rank1.pickle.memviz"));
        // The task script quotes the executable's path (a quote in it too).
        QFile task(QString::fromStdString(taskScriptPath(job.jobDir)));
        QVERIFY(task.open(QIODevice::ReadOnly));
        QVERIFY(task.readAll().contains("exec '/opt/memviz it'\\''s/bin/memviz' ranks --local \"$file\" --store-dir '/shared/stores'"));
        const std::vector<std::string> a = arraySbatchArgs(job, {0, 1});
        QVERIFY(std::find(a.begin(), a.end(), "--array=0-1%64") != a.end());
        QVERIFY(std::find(a.begin(), a.end(), "--partition=gpu") != a.end());
        QVERIFY(std::find(a.begin(), a.end(), "--mem=4G") != a.end());
        const std::vector<std::string> g = gatherSbatchArgs(job, "41");
        QVERIFY(std::find(g.begin(), g.end(), "--dependency=afterok:41") != g.end());
        // Submitted jobs are appended and read back.
        appendSubmittedArray(job.jobDir, {"41", {0, 1}});
        appendSubmittedGather(job.jobDir, "42");
        appendSubmittedArray(job.jobDir, {"43", {1}});
        const SubmittedJobs jobs = readSubmittedJobs(job.jobDir);
        QCOMPARE(jobs.arrays.size(), std::size_t(2));
        QCOMPARE(jobs.arrays[1].indices, std::vector<int>{1});
        QCOMPARE(jobs.gathers, std::vector<std::string>{"42"});
        // A line break cannot be kept in a job folder.
        job.files.push_back("/bad\nname");
        QVERIFY_THROWS_EXCEPTION(SlurmJobError, writeRankJob(job));
    }
};

QTEST_GUILESS_MAIN(TestSlurmJob)
#include "tst_slurm_job.moc"
