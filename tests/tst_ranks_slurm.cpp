// SPDX-License-Identifier: MIT
// `memviz ranks --slurm` against a real Slurm (issue 55): a one-node slurmctld and slurmd on
// this machine with a munge key and a config made in a scratch folder (tests/slurm/
// one_node_slurm.sh), stopped at the end whatever happens. 64 generated rank files (allocation
// logs whose peaks are worked out below) go through the array job and the gather; one file is
// broken so its task fails: the failure is reported by rank with the importer's error, and
// --resume, once the file is mended, completes the job. The gathered store must then say what
// `memviz ranks` computes on the same files in this process, rank for rank.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <unistd.h>

#include "TestSupport.h"

using namespace memviz::test;

namespace {

constexpr int kRanks = 64;
constexpr int kBroken = 7;

// Rank r: weights 1000 + r B at 0 ns, activations 500 + 100 r at 10 + r, freed at 40, tail 50
// at 50. Live bytes: peak 1500 + 101 r at 10 + r, final 1050 + r; at the peak weights hold
// 1000 + r and activations 500 + 100 r, more than the weights from r = 6 (99 r > 500).
QByteArray rankLog(int r) {
    return QStringLiteral("time_ns,action,address,size,op\n"
                          "0,alloc,0x10,%1,weights\n"
                          "%2,alloc,0x20,%3,activations\n"
                          "40,free,0x20,,\n"
                          "50,alloc,0x30,50,tail\n")
        .arg(1000 + r)
        .arg(10 + r)
        .arg(500 + 100 * r)
        .toUtf8();
}

QJsonObject json(const ProcessResult& r) { return QJsonDocument::fromJson(r.out).object(); }

} // namespace

class TestRanksSlurm : public QObject {
    Q_OBJECT
    QTemporaryDir scratch_;
    QString slurmDir_;
    bool started_ = false;

    void stopSlurm() {
        if (!started_) return;
        runProcess(QStringLiteral("bash"), {QStringLiteral(MEMVIZ_SLURM_SCRIPT), QStringLiteral("stop"), slurmDir_});
        started_ = false;
    }

private slots:
    void initTestCase() {
        if (::geteuid() != 0) MEMVIZ_SKIP_OR_FAIL("the one-node Slurm runs its daemons as root (as CI does)");
        for (const char* tool : {"slurmctld", "slurmd", "sbatch", "scontrol", "munged", "runuser"})
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty() &&
                QStandardPaths::findExecutable(QString::fromLatin1(tool), {"/usr/sbin", "/sbin"}).isEmpty())
                MEMVIZ_SKIP_OR_FAIL(qPrintable(QStringLiteral("%1 is not installed (packaging/install-deps.sh: slurm-wlm munge)").arg(QString::fromLatin1(tool))));
        QVERIFY(scratch_.isValid());
        // munged runs as its own user and must reach its socket below here.
        QFile(scratch_.path()).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                              QFileDevice::ExeOther);
        slurmDir_ = scratch_.filePath("slurm");
        started_ = true; // stop() is harmless when nothing started
        const ProcessResult r =
            runProcess(QStringLiteral("bash"), {QStringLiteral(MEMVIZ_SLURM_SCRIPT), QStringLiteral("start"), slurmDir_}, 60000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        qputenv("SLURM_CONF", r.out.trimmed());
    }

    void cleanupTestCase() { stopSlurm(); }

    void arrayGatherFailureAndResume() {
        const QString ranks = scratch_.filePath("ranks"), stores = scratch_.filePath("stores");
        QVERIFY(QDir().mkpath(ranks));
        for (int r = 0; r < kRanks; ++r) {
            QFile f(QStringLiteral("%1/rank%2.csv").arg(ranks).arg(r));
            QVERIFY(f.open(QIODevice::WriteOnly));
            // The broken rank: a size that is not a number on line 2.
            f.write(r == kBroken ? QByteArray("time_ns,action,address,size,op\n0,alloc,0x10,lots,weights\n") : rankLog(r));
        }
        const QString out = scratch_.filePath("gathered.memviz"), jobDir = scratch_.filePath("job");
        const QStringList submit{"ranks", "--slurm", ranks, "--store-dir", stores, "--out", out, "--job-dir", jobDir,
                                 "--concurrency", "16", "--time", "5", "--partition", "memviz"};
        ProcessResult r = runMemviz(submit);
        QCOMPARE(r.exitCode, 1);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(QStringLiteral("1 of %1 ranks failed").arg(kRanks)), qPrintable(err));
        // Reported by rank, with the importer's own error naming the file and its line.
        QVERIFY2(err.contains(QStringLiteral("rank %1 (%2/rank%1.csv): ").arg(kBroken).arg(ranks)), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("rank%1.csv").arg(kBroken)) && err.contains(QStringLiteral("line 2")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("memviz ranks --resume ") + jobDir), qPrintable(err));
        QVERIFY(!QFile::exists(out)); // the gather never ran: a failed task cancels it
        QVERIFY(!QFile::exists(stores + QStringLiteral("/rank%1.csv.memviz").arg(kBroken)));
        QCOMPARE(QDir(stores).entryList({"*.memviz"}, QDir::Files).size(), kRanks - 1);
        QVERIFY(QDir(stores).entryList({"*.part-*"}, QDir::Files).isEmpty()); // nothing half-written

        // Mended, resubmitted alone.
        {
            QFile f(QStringLiteral("%1/rank%2.csv").arg(ranks).arg(kBroken));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(rankLog(kBroken));
        }
        r = runMemviz({"ranks", "--resume", jobDir});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("submitted 1 rank tasks")), r.err.constData());
        QVERIFY(QFile::exists(out));

        // The gathered store against `memviz ranks` computed here on the same files.
        const ProcessResult gathered = runMemviz({"ranks", "--json", out});
        QVERIFY2(gathered.exitCode == 0, gathered.err.constData());
        const ProcessResult local = runMemviz({"ranks", "--json", ranks});
        QVERIFY2(local.exitCode == 0, local.err.constData());
        const QJsonObject g = json(gathered), l = json(local);
        const QJsonArray gr = g["ranks"].toArray(), lr = l["ranks"].toArray();
        QCOMPARE(gr.size(), kRanks);
        QCOMPARE(lr.size(), kRanks);
        for (int i = 0; i < kRanks; ++i) {
            QJsonObject a = gr[i].toObject(), b = lr[i].toObject();
            QCOMPARE(a, b);
            // And by hand (rankLog): peak 1500 + 101 r at 10 + r, final 1050 + r.
            QCOMPARE(a["rank"].toInt(-1), i);
            QCOMPARE(a["peak_bytes"].toInteger(), 1500 + 101 * i);
            QCOMPARE(a["peak_time_ns"].toInteger(), 10 + i);
            QCOMPARE(a["final_bytes"].toInteger(), 1050 + i);
            // At the peak weights hold 1000 + r, activations 500 + 100 r: activations from r = 6.
            QCOMPARE(a["top_op"].toString(), i >= 6 ? QStringLiteral("activations") : QStringLiteral("weights"));
        }
        QCOMPARE(g["imbalance"].toObject(), l["imbalance"].toObject());
        QCOMPARE(g["device"].toString(), l["device"].toString());
        QCOMPARE(g["imbalance"].toObject()["max_rank"].toString(), QStringLiteral("rank 63"));
        QCOMPARE(g["imbalance"].toObject()["min_rank"].toString(), QStringLiteral("rank 0"));

        // Each rank's full store is where the gathered store says.
        QCOMPARE(QDir(stores).entryList({"*.memviz"}, QDir::Files).size(), kRanks);
        // --collect on a finished job reports it done without waiting.
        r = runMemviz({"ranks", "--collect", jobDir});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(QString::fromUtf8(r.out).contains(QStringLiteral("%1 ranks gathered into %2").arg(kRanks).arg(out)));
    }
};

QTEST_GUILESS_MAIN(TestRanksSlurm)
#include "tst_ranks_slurm.moc"
