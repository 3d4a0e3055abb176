// SPDX-License-Identifier: MIT
#pragma once
// Small helpers shared by the test suites: temporary files, the memviz binary, Python
// oracles (independent computations with the standard library), and shared fixtures.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>
#include <QTest>

namespace memviz::test {

// Writes `content` to `dir/name` and returns the path.
inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

inline QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

struct ProcessResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

inline ProcessResult runProcess(const QString& program, const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForStarted(10000)) {
        r.err = "cannot start " + program.toUtf8();
        return r;
    }
    p.waitForFinished(timeoutMs);
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// `program`'s standard output; a failure is a warning, and the caller's checks then fail on
// the missing output.
inline QString runOutput(const QString& program, const QStringList& args) {
    const ProcessResult r = runProcess(program, args);
    if (r.exitCode != 0)
        qWarning("%s %s failed (%d): %s", qPrintable(program), qPrintable(args.join(' ')), r.exitCode, r.err.constData());
    return QString::fromUtf8(r.out);
}

// Records `program args` with the real heaptrack into `dir` as NAME.<compression>; the
// recording's path, or "" when heaptrack did not make exactly one.
inline QString recordWithHeaptrack(const QString& heaptrack, const QTemporaryDir& dir, const QString& name,
                                   const QString& program, const QStringList& args = {}) {
    runOutput(heaptrack, QStringList{"-o", dir.filePath(name), program} + args);
    const QStringList made = QDir(dir.path()).entryList({name + ".*"}, QDir::Files);
    return made.size() == 1 ? dir.filePath(made.first()) : QString();
}

// Records `program` with valgrind's massif (`options` added) into `dir`; the output's path.
inline QString recordWithMassif(const QString& valgrind, const QTemporaryDir& dir, const QString& program,
                                const QStringList& options) {
    const QString out = dir.filePath("massif.out.test");
    runOutput(valgrind, QStringList{"--tool=massif", "--massif-out-file=" + out} + options + QStringList{program});
    return out;
}

// The memviz executable built beside the tests.
inline ProcessResult runMemviz(const QStringList& args) { return runProcess(QStringLiteral(MEMVIZ_BINARY), args); }

// A Python interpreter with only the standard library is enough for the oracles.
inline QString python() {
    for (const char* candidate : {"/usr/bin/python3", "python3"}) {
        const QString p = QStandardPaths::findExecutable(QString::fromLatin1(candidate));
        if (!p.isEmpty()) return p;
        if (QFileInfo(QString::fromLatin1(candidate)).isExecutable()) return QString::fromLatin1(candidate);
    }
    return {};
}

// The Python whose PyTorch the live tests drive: MEMVIZ_TEST_PYTHON when set (ctest's
// `*_torch2` variants set it to the pinned PyTorch 2.x environment that
// packaging/install-py-deps.sh makes), else Debian's /usr/bin/python3 with its PyTorch 1.13.
inline QString torchPython() {
    const QString configured = qEnvironmentVariable("MEMVIZ_TEST_PYTHON");
    return configured.isEmpty() ? QStringLiteral("/usr/bin/python3") : configured;
}

// What to do when torchPython() has no PyTorch: the words of a skip or failure.
inline QString torchMissingMessage() {
    return qEnvironmentVariableIsSet("MEMVIZ_TEST_PYTHON")
               ? "PyTorch is not importable by " + torchPython() + " (packaging/install-py-deps.sh makes that environment)"
               : QStringLiteral("PyTorch is not installed for /usr/bin/python3 (apt install python3-torch)");
}

inline QString oracle(const QString& script) { return QStringLiteral(MEMVIZ_ORACLES) + "/" + script; }

// Path of a file under ../shared/fixtures, or empty when the folder is absent.
inline QString sharedFixture(const QString& relative) {
    const QString path = QStringLiteral(MEMVIZ_SHARED_FIXTURES) + "/" + relative;
    return QFileInfo::exists(path) ? path : QString();
}

// True where every oracle, peer tool and fixture must be present (MEMVIZ_REQUIRE_ORACLES=1,
// set by packaging/dev.sh test and so by CI): there a missing one fails the test instead of
// skipping it, so that a skip can never hide a broken importer.
inline bool oraclesRequired() { return qEnvironmentVariableIntValue("MEMVIZ_REQUIRE_ORACLES") == 1; }

} // namespace memviz::test

// Skips the current test because an oracle, a peer tool or a fixture is missing; fails it
// instead under MEMVIZ_REQUIRE_ORACLES=1. Use it, not a bare QSKIP, for anything CI installs.
#define MEMVIZ_SKIP_OR_FAIL(message)                                                                                             \
    do {                                                                                                                         \
        if (memviz::test::oraclesRequired()) QFAIL(qPrintable(QString(message) + " (MEMVIZ_REQUIRE_ORACLES=1: required here)")); \
        QSKIP(message);                                                                                                          \
    } while (false)

// Skips the current test when a shared fixture is missing (a user's fresh clone); fails it
// under MEMVIZ_REQUIRE_ORACLES=1.
#define MEMVIZ_REQUIRE_FIXTURE(var, relative)                                                                                    \
    const QString var = memviz::test::sharedFixture(relative);                                                                   \
    if (var.isEmpty()) MEMVIZ_SKIP_OR_FAIL(qPrintable("shared fixture " + QString(relative) + " is absent (../shared/fixtures)"))
