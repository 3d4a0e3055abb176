// SPDX-License-Identifier: MIT
// Issue 11: the window survives any file. Raw traces are imported by a child process
// (memviz --import-worker); a child that crashes, aborts, runs out of memory, hangs or is
// killed costs a message naming the file and what happened, never the window, its open trace
// or the store. Bad files (random bytes, empty, truncated gzip, a folder) give a message.
// Offscreen, on the real window.
#include <QApplication>
#include <QCryptographicHash>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>
#include <csignal>
#include <random>
#include <sqlite3.h>
#include <sys/types.h>
#include <zlib.h>

#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowTestSetup.h"
#include "formats/live/ProcRecorder.h"
#include "store/Database.h"
#include "store/TraceQueries.h"
#include "widgets/EmptyPage.h"
#include "widgets/ImportPreview.h"
#include "widgets/ImportTask.h"
#include "formats/ImportWorkerProtocol.h"
#include "widgets/TraceSession.h"
#include "widgets/live/LiveSession.h"

using namespace memviz;

namespace {

QByteArray sha1(const QString& path) { return QCryptographicHash::hash(test::readFile(path), QCryptographicHash::Sha1).toHex(); }

// `pairs` allocations on cpu, two of every three freed again (so the reader reports
// progress many times: about 40 bytes a line).
QByteArray allocationLog(int pairs, int sizeSeed) {
    QByteArray s = "time_ns,action,address,size,op\n";
    for (int i = 0; i < pairs; ++i) {
        const QByteArray a = QByteArray::number(0x10000 + i * 64, 16);
        s += QByteArray::number(i * 10) + ",alloc,0x" + a + "," + QByteArray::number(64 + (i * sizeSeed) % 4096) + ",op" +
             QByteArray::number(i % 5) + "\n";
        if (i % 3 != 0) s += QByteArray::number(i * 10 + 5) + ",free,0x" + a + ",,\n";
    }
    return s;
}

// Closes message boxes as they come up and keeps their texts.
struct DialogCloser {
    QTimer timer;
    QStringList seen;
    DialogCloser() {
        timer.setInterval(50);
        QObject::connect(&timer, &QTimer::timeout, [this] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                seen << box->text();
                box->done(QMessageBox::Ok);
            }
        });
        timer.start();
    }
};

bool processExists(qint64 pid) { return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0; }

QString noticeText(MainWindow& w) {
    QStringList texts;
    for (QLabel* l : w.emptyPage()->findChildren<QLabel*>()) texts << l->text();
    return texts.join('\n');
}

} // namespace

class TestImportWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void workerProgramIsMemviz();
    void crashingReaderCostsOnlyAMessage_data();
    void crashingReaderCostsOnlyAMessage();
    void cancelEndsAHangingReader();
    void recordingCarriesOnThroughACrash();
    void badFilesGiveAMessage_data();
    void badFilesGiveAMessage();
    void memoryCeilingSettings();
    void previewShowsWhileImportingAndClearsOnCancel();
    void previewOfARealSnapshotImport();

private:
    QTemporaryDir dir_;
    QByteArray worker_;
};

void TestImportWindow::initTestCase() {
    startIsolatedWindowSuite("memviz-tests-import-window");
    QVERIFY(dir_.isValid());
    worker_ = qgetenv("MEMVIZ_IMPORT_WORKER");
}

void TestImportWindow::cleanup() {
    qunsetenv(importworker::kCrashVariable);
    qunsetenv("MEMVIZ_IMPORT_MEMORY_LIMIT");
    qputenv("MEMVIZ_IMPORT_WORKER", worker_); // the real one (CTest's environment), after a fake one
}

// The tests run the real worker: the memviz binary, not this test binary.
void TestImportWindow::workerProgramIsMemviz() {
    QCOMPARE(QFileInfo(ImportTask::workerProgram()).canonicalFilePath(),
             QFileInfo(QStringLiteral(MEMVIZ_BINARY)).canonicalFilePath());
}

void TestImportWindow::crashingReaderCostsOnlyAMessage_data() {
    QTest::addColumn<QString>("crash");
    QTest::addColumn<QStringList>("expected"); // words the message must hold, besides the file
    QTest::newRow("segv") << "segv" << QStringList{"stopped unexpectedly", "signal 11", "SIGSEGV", "while reading byte"};
    QTest::newRow("abort") << "abort" << QStringList{"stopped unexpectedly", "signal 6", "SIGABRT", "while reading byte"};
    QTest::newRow("oom") << "oom" << QStringList{"ran out of memory", "while reading byte", "256"};
    QTest::newRow("killed") << "hang" << QStringList{"was killed", "signal 9", "SIGKILL", "while reading byte"};
}

// Item 1+2: a trace is open (imported earlier from the same file, so the file's store exists);
// the file changes and its re-import crashes. The window says what happened to which file and
// how far the reader got, still shows the trace, the store's bytes are unchanged, and an import
// without the crash then works.
void TestImportWindow::crashingReaderCostsOnlyAMessage() {
    QFETCH(QString, crash);
    QFETCH(QStringList, expected);
    DialogCloser closer;
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    const QString file = test::writeFile(dir_, crash + ".csv", allocationLog(3000, 7));
    QSignalSpy changed(w.session(), &TraceSession::traceChanged);
    w.openFile(file);
    QVERIFY(changed.wait(60000));
    QVERIFY(w.session()->isOpen());
    const QString store = w.session()->storePath();
    const qint64 traceId = w.session()->traceId();
    QCOMPARE(store, MainWindow::importStoreFor(file));
    QCOMPARE(w.session()->summary().devices.at(0).allocs, 3000);
    const QByteArray before = sha1(store);
    QVERIFY(!QFileInfo::exists(store + "-wal") || QFileInfo(store + "-wal").size() == 0);

    // Bigger than the first, so the reader reports progress before the end of the file.
    test::writeFile(dir_, crash + ".csv", allocationLog(200000, 13));
    qputenv(importworker::kCrashVariable, crash.toUtf8());
    if (crash == "oom") qputenv("MEMVIZ_IMPORT_MEMORY_LIMIT", "256M");
    auto* task = w.findChild<ImportTask*>();
    QVERIFY(task);
    changed.clear();
    w.openFile(file);
    QTRY_VERIFY_WITH_TIMEOUT(task->workerPid() > 0, 10000);
    const qint64 pid = task->workerPid();
    if (crash == "hang") {
        QTest::qWait(500); // it has reported its first byte and waits
        QVERIFY(processExists(pid));
        // The child is inside its write transaction on the store the window shows: another
        // writer is refused. The window's own connection is read-only and holds no write
        // transaction, and it still reads.
        {
            sqlite3* other = nullptr;
            QCOMPARE(sqlite3_open_v2(store.toUtf8().constData(), &other, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
            QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_BUSY);
            sqlite3_close(other);
        }
        sqlite3* window = w.session()->database().handle();
        QCOMPARE(sqlite3_db_readonly(window, "main"), 1);
        QVERIFY(sqlite3_txn_state(window, "main") != SQLITE_TXN_WRITE);
        QCOMPARE(loadSummary(w.session()->database(), traceId).devices.at(0).allocs, 3000);
        ::kill(static_cast<pid_t>(pid), SIGKILL); // as the kernel's OOM killer or a user would
    }
    QTRY_VERIFY_WITH_TIMEOUT(!closer.seen.isEmpty(), 60000);
    const QString message = closer.seen.first();
    QVERIFY2(message.contains(file), qPrintable(message));
    for (const QString& word : expected) QVERIFY2(message.contains(word), qPrintable(word + " not in: " + message));
    // "byte N of FILE" with 0 < N < the file's size: the reader had begun and not finished.
    const QRegularExpressionMatch byte = QRegularExpression(QStringLiteral("byte (\\d+) of")).match(message);
    QVERIFY(byte.hasMatch());
    QVERIFY(byte.captured(1).toLongLong() > 0);
    QVERIFY(byte.captured(1).toLongLong() < QFileInfo(file).size());
    QVERIFY(!task->isRunning());
    QTRY_VERIFY(!processExists(pid));

    // The window carries on with what it showed; the store is byte for byte what it was.
    QCOMPARE(changed.count(), 0);
    QVERIFY(w.session()->isOpen());
    QCOMPARE(w.session()->storePath(), store);
    QCOMPARE(w.session()->traceId(), traceId);
    QCOMPARE(w.session()->summary().devices.at(0).allocs, 3000);
    QVERIFY(w.isVisible());
    QCOMPARE(sha1(store), before);
    {
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        QCOMPARE(listTraces(db).size(), std::size_t{1});
    }

    // Without the crash, the same file imports.
    cleanup();
    closer.seen.clear();
    w.openFile(file);
    QVERIFY(changed.wait(60000));
    QVERIFY(closer.seen.isEmpty());
    QVERIFY(w.session()->traceId() != traceId);
    QCOMPARE(w.session()->summary().devices.at(0).allocs, 200000);
}

// Cancel ends a reader that ignores SIGTERM: SIGKILL after the grace period; "cancelled",
// not an error, and nothing stored.
void TestImportWindow::cancelEndsAHangingReader() {
    DialogCloser closer;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QString file = test::writeFile(dir_, "cancelled.csv", allocationLog(100000, 3));
    qputenv(importworker::kCrashVariable, "hang");
    auto* task = w.findChild<ImportTask*>();
    task->setCancelGraceMs(300);
    QSignalSpy cancelled(task, &ImportTask::cancelled);
    QSignalSpy progress(task, &ImportTask::progress);
    w.openFile(file);
    QVERIFY(progress.wait(10000));
    const qint64 pid = task->workerPid();
    QVERIFY(processExists(pid));
    task->cancel();
    QVERIFY(cancelled.wait(10000));
    QTRY_VERIFY(!processExists(pid));
    QVERIFY(closer.seen.isEmpty());
    QVERIFY(noticeText(w).contains(QStringLiteral("cancelled")));
    QVERIFY2(!QFileInfo::exists(MainWindow::importStoreFor(file)),
             qPrintable(QDir(QFileInfo(MainWindow::importStoreFor(file)).path()).entryList().join(' ')));
}

// A live recording in the window's process keeps sampling and committing while an import
// crashes beside it.
void TestImportWindow::recordingCarriesOnThroughACrash() {
    DialogCloser closer;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ProcRecordingOptions o;
    o.command = {"sleep", "30"};
    o.intervalNs = 20'000'000;
    const QString recording = dir_.filePath("recording.memviz");
    LiveSession session(std::make_unique<ProcRecorder>(recording.toStdString(), o), LiveSession::Kind::Launch);
    session.setPollIntervalMs(50);
    session.start();
    QTRY_VERIFY_WITH_TIMEOUT(session.status().committedSamples >= 2, 20000);

    qputenv(importworker::kCrashVariable, "segv");
    w.openFile(test::writeFile(dir_, "during-recording.csv", allocationLog(200000, 17)));
    QTRY_VERIFY_WITH_TIMEOUT(!closer.seen.isEmpty(), 60000);
    QVERIFY2(closer.seen.first().contains("SIGSEGV"), qPrintable(closer.seen.first()));
    const std::int64_t atCrash = session.status().committedSamples;
    QTRY_VERIFY_WITH_TIMEOUT(session.status().committedSamples > atCrash + 2, 20000);
    QVERIFY(!session.isFinished());
    session.stop();
    QTRY_VERIFY_WITH_TIMEOUT(session.isFinished(), 20000);
    session.killProgram(); // Stop leaves the program running
    QTRY_VERIFY_WITH_TIMEOUT(!session.programRunning(), 20000);
}

void TestImportWindow::badFilesGiveAMessage_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("named"); // what the message must name
    std::mt19937 random(11);
    QByteArray noise(64 * 1024, '\0');
    for (char& c : noise) c = static_cast<char>(random() & 0xff);
    const QString binary = test::writeFile(dir_, "noise.bin", noise);
    QTest::newRow("random bytes") << binary << binary;
    const QString empty = test::writeFile(dir_, "empty.csv", QByteArray());
    QTest::newRow("empty") << empty << empty;
    // A gzip of a good log, cut in half: the stream ends early.
    const QByteArray log = allocationLog(20000, 5);
    QByteArray gz(static_cast<qsizetype>(compressBound(static_cast<uLong>(log.size()))) + 64, '\0');
    z_stream z{};
    QVERIFY(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(log.data()));
    z.avail_in = static_cast<uInt>(log.size());
    z.next_out = reinterpret_cast<Bytef*>(gz.data());
    z.avail_out = static_cast<uInt>(gz.size());
    QCOMPARE(deflate(&z, Z_FINISH), Z_STREAM_END);
    gz.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    const QString truncated = test::writeFile(dir_, "truncated.csv.gz", gz.left(gz.size() / 2));
    QTest::newRow("truncated gzip") << truncated << truncated;
    QDir(dir_.path()).mkdir("folder.csv");
    QTest::newRow("folder") << dir_.filePath("folder.csv") << dir_.filePath("folder.csv");
}

// Item 3: each gives a message naming the file, on the start page and in a message box, and
// the window lives on.
void TestImportWindow::badFilesGiveAMessage() {
    QFETCH(QString, path);
    QFETCH(QString, named);
    DialogCloser closer;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openFile(path);
    QTRY_VERIFY_WITH_TIMEOUT(!closer.seen.isEmpty(), 60000);
    const QString message = closer.seen.first();
    QVERIFY2(message.contains(named) || message.contains(QFileInfo(named).fileName()), qPrintable(message));
    QVERIFY2(!message.contains("stopped unexpectedly"), qPrintable(message)); // an error, not a crash
    QVERIFY(!w.session()->isOpen());
    QVERIFY2(noticeText(w).contains(QFileInfo(named).fileName()), qPrintable(noticeText(w)));
    QVERIFY(!w.findChild<ImportTask*>()->isRunning());
    // The window still opens a good file afterwards.
    QSignalSpy changed(w.session(), &TraceSession::traceChanged);
    w.openFile(test::writeFile(dir_, "good.csv", allocationLog(10, 3)));
    QVERIFY(changed.wait(60000));
}

// The ceiling: sizes with units; the environment wins over the setting; half the memory else.
void TestImportWindow::memoryCeilingSettings() {
    QCOMPARE(ImportTask::parseSize("4G"), std::optional<qint64>(qint64{4} << 30));
    QCOMPARE(ImportTask::parseSize("512 m"), std::optional<qint64>(qint64{512} << 20));
    QCOMPARE(ImportTask::parseSize("1000"), std::optional<qint64>(1000));
    QCOMPARE(ImportTask::parseSize("lots"), std::optional<qint64>());
    QCOMPARE(ImportTask::parseSize("-1G"), std::optional<qint64>());
    QSettings().setValue("import/memoryLimit", "3G");
    QCOMPARE(ImportTask::memoryCeiling(), qint64{3} << 30);
    qputenv("MEMVIZ_IMPORT_MEMORY_LIMIT", "100M");
    QCOMPARE(ImportTask::memoryCeiling(), qint64{100} << 20);
    qunsetenv("MEMVIZ_IMPORT_MEMORY_LIMIT");
    QSettings().remove("import/memoryLimit");
    // Half of MemTotal, read here from /proc/meminfo independently of the code under test.
    QFile meminfo("/proc/meminfo");
    QVERIFY(meminfo.open(QIODevice::ReadOnly));
    const QRegularExpressionMatch m = QRegularExpression("MemTotal:\\s+(\\d+) kB").match(QString::fromLatin1(meminfo.readAll()));
    QVERIFY(m.hasMatch());
    QCOMPARE(ImportTask::memoryCeiling(), m.captured(1).toLongLong() * 1024 / 2);
}

// Issue 12: a worker (a script here, so that it stops where the test needs it) sends preview
// lines: with no trace open the window's middle page becomes the preview chart with them; a
// cancel clears it and the start page says the import was cancelled. With a trace open, the
// trace stays on screen.
void TestImportWindow::previewShowsWhileImportingAndClearsOnCancel() {
    DialogCloser closer;
    const QString worker = test::writeFile(dir_, "preview_worker.sh",
                                           "#!/bin/sh\n"
                                           "printf 'phase reading\\npreview cuda:0 time_us 0 0 100 0 0 200 1048576 2097152\\n'\n"
                                           "exec sleep 60\n");
    QFile::setPermissions(worker, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    qputenv("MEMVIZ_IMPORT_WORKER", worker.toUtf8());
    const QString file = test::writeFile(dir_, "previewed.pickle", "not read by the script");
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* preview = w.findChild<ImportPreview*>();
    auto* task = w.findChild<ImportTask*>();
    QVERIFY(preview && task);
    task->setCancelGraceMs(300);
    QVERIFY(!preview->isVisible());
    w.openFile(file);
    QTRY_VERIFY_WITH_TIMEOUT(preview->isVisible(), 10000);
    preview->redrawNow();
    QCOMPARE(preview->drawnPoints("cuda:0"), 2);
    QVERIFY2(preview->peakText().contains("peak so far: 1.00 MiB"), qPrintable(preview->peakText()));
    QSignalSpy cancelled(task, &ImportTask::cancelled);
    task->cancel();
    QVERIFY(cancelled.wait(10000));
    QVERIFY(!preview->isVisible());
    QVERIFY(!preview->hasPoints());
    QVERIFY(w.emptyPage()->isVisible());
    QVERIFY(noticeText(w).contains(QStringLiteral("cancelled")));

    // A trace open: the preview does not take its place.
    qputenv("MEMVIZ_IMPORT_WORKER", worker_);
    const QString csv = test::writeFile(dir_, "open_meanwhile.csv", allocationLog(300, 5));
    QSignalSpy changed(w.session(), &TraceSession::traceChanged);
    w.openFile(csv);
    QVERIFY(changed.wait(60000));
    QVERIFY(w.session()->isOpen());
    qputenv("MEMVIZ_IMPORT_WORKER", worker.toUtf8());
    QSignalSpy previewed(task, &ImportTask::preview);
    w.openFile(file);
    QVERIFY(previewed.wait(10000));
    QTest::qWait(50);
    QVERIFY(!preview->isVisible());
    QVERIFY(w.session()->isOpen());
    task->cancel();
    QVERIFY(cancelled.wait(10000));
    QVERIFY(closer.seen.isEmpty());
}

// The real worker on a generated snapshot (30,000 entries): preview lines reach the window;
// the last line carries the importer's exact bases, and with them the preview's last point
// is the imported trace's final allocated bytes. After the import the trace is shown.
void TestImportWindow::previewOfARealSnapshotImport() {
    if (test::python().isEmpty()) MEMVIZ_SKIP_OR_FAIL("no Python interpreter for the generator");
    const QString file = dir_.filePath("previewed_real.pickle");
    const auto r = test::runProcess(
        test::python(),
        {QStringLiteral(MEMVIZ_SOURCE_DIR) + "/tools/bench-snapshot/make_big_snapshot.py", file, "--entries", "30000"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    DialogCloser closer;
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* task = w.findChild<ImportTask*>();
    QSignalSpy previewed(task, &ImportTask::preview);
    QSignalSpy changed(w.session(), &TraceSession::traceChanged);
    w.openFile(file);
    QVERIFY(changed.wait(60000));
    QVERIFY(w.session()->isOpen());
    QVERIFY(!w.findChild<ImportPreview*>()->isVisible());
    QVERIFY(previewed.size() >= 2);
    std::int64_t lastAllocated = 0;
    PreviewBatch last;
    for (const QList<QVariant>& args : previewed) {
        last = args.at(0).value<PreviewBatch>();
        if (!last.points.empty()) lastAllocated = last.points.back().allocated;
    }
    // The builder's exact bases go out at once, with any points still held back (rate limit).
    QCOMPARE(last.device, std::string("cuda:0"));
    QCOMPARE(last.allocatedBase + lastAllocated, w.session()->summary().devices.at(0).finalBytes);
    QVERIFY(closer.seen.isEmpty());
}

QTEST_MAIN(TestImportWindow)
#include "tst_import_window.moc"
