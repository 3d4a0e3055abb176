// SPDX-License-Identifier: MIT
// memviz record --pid PID --probe: the PyTorch probe attached through gdb to a real Debian
// PyTorch training loop that is already running. Operator rows arrive and are stored, the
// recording stops after --duration, the probe then removes every hook (the loop itself
// checks its dispatch-mode stack and that backward/step are its own again), a second attach
// to the same process works, and the loop finishes all its steps with status 0. Then the
// ways attaching fails, each with a clear message, nothing stored and the target unharmed:
// not Python, no such process, PyTorch not imported (seen by memviz in /proc, or by the probe
// itself, also mid-import), gdb missing, ptrace refused (the
// target already has a tracer), and the target exiting before the probe could start.
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <csignal>
#include <set>

#include <sys/wait.h>
#include <unistd.h>

#include "TestSupport.h"
#include "formats/live/LiveQueries.h"
#include "formats/live/ProbeInjector.h"
#include "store/Database.h"

using namespace memviz;
using namespace memviz::test;

namespace {

const QString kPython = memviz::test::torchPython();

// A training loop that knows what it did: it prints "ready" once it is running, then per step
// whether a dispatch mode was installed on its thread at that step's start (the probe's), and
// at the end the steps it finished, the mode stack's depth and whether autograd.backward and
// the optimizer's step are still its own functions (the probe wraps them while attached).
const QByteArray kLoop = R"PY(
import sys, time, torch
from torch.utils._python_dispatch import _len_torch_dispatch_stack
torch.manual_seed(0)
steps, pause = int(sys.argv[1]), float(sys.argv[2])
net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
own_backward, own_step = torch.autograd.backward, type(opt).step
x, y = torch.randn(16, 32), torch.randint(0, 4, (16,))
print("ready", flush=True)
done = hooked = 0
for i in range(steps):
    hooked += _len_torch_dispatch_stack() > 0
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    done += 1
    print("step", done, flush=True)
    time.sleep(pause)
print("hooked", hooked)
print("stack", _len_torch_dispatch_stack())
print("own", torch.autograd.backward is own_backward and type(opt).step is own_step)
print("steps", done, flush=True)
)PY";

bool torchAvailable() {
    static const bool ok = QFileInfo(kPython).isExecutable() && runProcess(kPython, {"-c", "import torch"}, 120000).exitCode == 0;
    return ok;
}

bool gdbAvailable() {
    static const bool ok = !QStandardPaths::findExecutable("gdb").isEmpty();
    return ok;
}

#define REQUIRE_TORCH_AND_GDB()                                                                                                  \
    if (!torchAvailable()) MEMVIZ_SKIP_OR_FAIL(qPrintable(memviz::test::torchMissingMessage()));    \
    if (!gdbAvailable()) MEMVIZ_SKIP_OR_FAIL("gdb is not installed (apt install gdb; packaging/install-deps.sh lists it)")

// A Python started with `code`; returns once it printed "ready" (so torch is imported).
void startPython(QProcess& p, const QTemporaryDir& dir, const QByteArray& code, const QStringList& args = {}) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMP_NUM_THREADS", "1");
    p.setProcessEnvironment(env);
    p.start(kPython, QStringList{writeFile(dir, "target.py", code)} + args);
    QVERIFY(p.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine() || p.state() != QProcess::Running, 120000);
    QCOMPARE(p.readLine().trimmed(), QByteArray("ready"));
}

std::int64_t printed(const QByteArray& out, const QByteArray& key) {
    for (const QByteArray& line : out.split('\n'))
        if (line.startsWith(key + " ")) return line.mid(key.size() + 1).toLongLong();
    return -1;
}

// memviz record --pid PID --probe ... ; the recording's JSON.
QJsonObject attach(const QString& store, qint64 pid, const QStringList& more) {
    const ProcessResult r = runMemviz(QStringList{"record", "--pid", QString::number(pid), "--probe", "--out", store, "--json"} + more);
    if (r.exitCode != 0) qWarning("memviz record failed (%d): %s", r.exitCode, r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

// memviz record --pid PID --probe that must fail (status 1, no store made unless
// `storeMayExist`: the probe was reached and declined): its stderr.
QByteArray attachFails(const QTemporaryDir& dir, qint64 pid, const QStringList& env = {}, bool storeMayExist = false) {
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(MEMVIZ_BINARY), {"record", "--pid", QString::number(pid), "--probe", "--out", dir.filePath("e.memviz")});
    p.waitForFinished(180000);
    const QByteArray err = p.readAllStandardError();
    if (p.exitCode() != 1) qWarning("memviz record exited %d: %s", p.exitCode(), err.constData());
    return p.exitCode() == 1 && (storeMayExist || !QFileInfo::exists(dir.filePath("e.memviz")))
               ? err
               : QByteArray("(exit status not 1, or a store was made)");
}

} // namespace

class TestLiveAttach : public QObject {
    Q_OBJECT
private slots:
    void snippetCallsAttachWithItsArguments();
    void attachToARunningTrainingLoop();
    void notPython();
    void noSuchProcess();
    void torchNotImported();
    void findsTheProbePackage();
    void probeDeclines_data();
    void probeDeclines();
    void gdbMissing();
    void ptraceRefused();
    void targetExitsBeforeTheProbeStarts();
};

// The snippet gdb hands to PyRun_SimpleString, run by Python itself against a stand-in
// memviz_probe package that prints what attach() got: the directory (with a quote and a
// backslash) lands on sys.path and the address and mode arrive unchanged.
void TestLiveAttach::snippetCallsAttachWithItsArguments() {
    QTemporaryDir dir;
    const QString odd = dir.filePath("it's a \\dir");
    QVERIFY(QDir().mkpath(odd + "/memviz_probe"));
    QFile f(odd + "/memviz_probe/__init__.py");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("import sys\ndef attach(address, mode):\n    print(address)\n    print(mode)\n    print(sys.path[0])\n");
    f.close();
    const std::string snippet = probeAttachSnippet(odd.toStdString(), "unix:/run/x y.sock", "module");
    QVERIFY(snippet.find('"') == std::string::npos); // it goes inside a C string in gdb's command
    const ProcessResult r = runProcess(kPython, {"-c", QString::fromStdString(snippet)});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(QString::fromUtf8(r.out), "unix:/run/x y.sock\nmodule\n" + odd + "\n");
}

// memviz finds the probe as a package: the installed ../share/memviz/python/memviz_probe/
// beside the binary first, else the source tree's python/memviz_probe; a folder with only
// the old single file memviz_probe.py (or nothing) is not the probe.
void TestLiveAttach::findsTheProbePackage() {
    QTemporaryDir dir;
    const QString app = dir.filePath("usr/bin"), installed = dir.filePath("usr/share/memviz/python");
    const QString source = dir.filePath("src/python/memviz_probe"), oldLayout = dir.filePath("old");
    for (const QString& d : {app, installed, source + "/memviz_probe", oldLayout}) QVERIFY(QDir().mkpath(d));
    auto touch = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write("# probe\n") > 0;
    };
    QVERIFY(touch(oldLayout + "/memviz_probe.py"));
    QVERIFY(!holdsProbePackage(oldLayout.toStdString()));
    QVERIFY(touch(source + "/memviz_probe/__init__.py"));
    // Nothing installed beside the app: the source tree's folder.
    QCOMPARE(QString::fromStdString(findProbeDirectory(app.toStdString(), source.toStdString())),
             QFileInfo(source).canonicalFilePath());
    QVERIFY(findProbeDirectory(app.toStdString(), oldLayout.toStdString()).empty());
    QVERIFY(findProbeDirectory(app.toStdString(), "").empty());
    // Installed: found first.
    QVERIFY(QDir().mkpath(installed + "/memviz_probe"));
    QVERIFY(touch(installed + "/memviz_probe/__init__.py"));
    QCOMPARE(QString::fromStdString(findProbeDirectory(app.toStdString(), source.toStdString())),
             QFileInfo(installed).canonicalFilePath());
    // The real source tree holds the package the snippet imports.
    QVERIFY(holdsProbePackage(MEMVIZ_PROBE_DIR));
}

void TestLiveAttach::attachToARunningTrainingLoop() {
    REQUIRE_TORCH_AND_GDB();
    QTemporaryDir dir;
    QProcess loop;
    // 40 steps of at least 0.5 s: two attaches of 1.5 s each (plus gdb's few seconds on a busy
    // machine) land well inside the run.
    startPython(loop, dir, kLoop, {"40", "0.5"});
    const QString store = dir.filePath("a.memviz");
    std::set<std::string> opNames;
    std::int64_t stepMarkers = 0;
    QByteArray err;
    for (int round = 0; round < 2; ++round) { // the second attach checks that detaching left the probe restartable
        if (round > 0) {
            // The probe sees memviz's end of stream at its next flush and detaches at the next
            // operator boundary: wait for its message, then one more step of the loop.
            QElapsedTimer waited;
            waited.start();
            while (!err.contains("lost the connection to memviz") && waited.elapsed() < 30000) {
                loop.waitForReadyRead(200);
                err += loop.readAllStandardError();
            }
            QTest::qWait(1000);
        }
        const QJsonObject o = attach(store, loop.processId(), {"--duration", "1.5"});
        QVERIFY2(!o.isEmpty(), "memviz record --probe failed");
        const QJsonObject rec = o["recording"].toObject();
        QCOMPARE(rec["source"].toString(), QStringLiteral("probe"));
        QCOMPARE(rec["end_reason"].toString(), QStringLiteral("duration")); // it stopped by itself
        QCOMPARE(rec["state"].toString(), QStringLiteral("finalized"));
        QCOMPARE(rec["pid"].toInteger(loop.processId()), loop.processId());
        QVERIFY(loop.state() == QProcess::Running); // not finished before the attach ended
        Database db(store.toStdString(), Database::Mode::ReadOnly);
        const std::int64_t traceId = round + 1;
        Statement q(db, "SELECT name, count(*) FROM live_ops WHERE trace_id = ? GROUP BY name");
        q.bind(1, traceId);
        std::int64_t rows = 0;
        while (q.step()) {
            opNames.insert(q.text(0));
            rows += q.int64(1);
        }
        // 1.5 s of a loop stepping every 0.5 s: a few steps of ~25 operators each.
        QVERIFY2(rows >= 25, qPrintable(QString::number(rows)));
        for (const LiveMarker& m : listLiveMarkers(db, traceId))
            if (m.kind == "step") ++stepMarkers;
    }
    // nn.Linear on a 2-D input is aten::addmm forward and aten::mm backward; ReLU's backward is
    // threshold_backward; SGD's update is add_ (PyTorch 1.13's kernels for these modules).
    for (const char* op : {"aten::addmm", "aten::mm", "aten::relu", "aten::threshold_backward", "aten::add_"})
        QVERIFY2(opNames.count(op), op);
    QVERIFY(loop.waitForFinished(120000));
    const QByteArray out = loop.readAllStandardOutput();
    err += loop.readAllStandardError();
    QCOMPARE(loop.exitStatus(), QProcess::NormalExit);
    QVERIFY2(loop.exitCode() == 0, err.constData());
    QCOMPARE(printed(out, "steps"), 40);                    // all of them, after two attaches
    QCOMPARE(printed(out, "stack"), 0);                     // the dispatch mode was popped
    QVERIFY(out.contains("own True"));                      // backward and step restored
    const std::int64_t hooked = printed(out, "hooked");
    QVERIFY2(hooked > 0 && hooked < 40, qPrintable(QString::number(hooked))); // attached mid-run, then detached
    // A step marker per optimizer step seen while attached; a step may straddle an attach or a
    // detach at either end of each of the two recordings.
    QVERIFY2(stepMarkers > 0 && stepMarkers <= hooked + 2 && stepMarkers >= hooked - 4,
             qPrintable(QStringLiteral("%1 step markers, %2 steps hooked").arg(stepMarkers).arg(hooked)));
    QCOMPARE(err.count("memviz_probe:"), 2); // one "lost the connection" per detach, nothing else
    QCOMPARE(err.count("lost the connection to memviz"), 2);
}

void TestLiveAttach::notPython() {
    QTemporaryDir dir;
    QProcess sleeper;
    sleeper.start("sleep", {"100"});
    QVERIFY(sleeper.waitForStarted());
    const QByteArray err = attachFails(dir, sleeper.processId());
    QVERIFY2(err.contains("(sleep) is not running Python"), err.constData());
    QVERIFY(sleeper.state() == QProcess::Running);
    sleeper.kill();
    sleeper.waitForFinished();
}

void TestLiveAttach::noSuchProcess() {
    QTemporaryDir dir;
    // A process that has come and gone: its id is free now.
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ::waitpid(child, nullptr, 0);
    const QByteArray err = attachFails(dir, child);
    QVERIFY2(err.contains("no process with id " + QByteArray::number(child)), err.constData());
}

void TestLiveAttach::torchNotImported() {
    if (!QFileInfo(kPython).isExecutable()) MEMVIZ_SKIP_OR_FAIL(qPrintable(kPython + " is missing"));
    QTemporaryDir dir;
    QProcess py;
    startPython(py, dir, "import sys, time\nprint('ready', flush=True)\ntime.sleep(3)\nprint('done')\n");
    const QByteArray err = attachFails(dir, py.processId());
    QVERIFY2(err.contains("PyTorch is not imported in process " + QByteArray::number(py.processId())), err.constData());
    QVERIFY(py.waitForFinished(30000));
    QCOMPARE(py.exitCode(), 0);
    QVERIFY(py.readAllStandardOutput().contains("done"));
}

// PyTorch's library is loaded (so memviz's /proc check passes) but the torch module is absent,
// or present but not yet complete as while `import torch` runs: the probe itself declines,
// tells memviz over the connection, and the target runs on to its end.
void TestLiveAttach::probeDeclines_data() {
    QTest::addColumn<QString>("module");
    QTest::addColumn<QByteArray>("message");
    QTest::newRow("absent") << "absent" << QByteArray("PyTorch is not imported in process");
    QTest::newRow("partial") << "partial" << QByteArray("PyTorch is still being imported in process");
}

void TestLiveAttach::probeDeclines() {
    REQUIRE_TORCH_AND_GDB();
    QFETCH(QString, module);
    QFETCH(QByteArray, message);
    QTemporaryDir dir;
    QProcess py;
    startPython(py, dir,
                "import ctypes, importlib.util, sys, time, types\n"
                "ctypes.CDLL(importlib.util.find_spec('torch').submodule_search_locations[0] + '/lib/libtorch_cpu.so')\n"
                "if sys.argv[1] == 'partial':\n    sys.modules['torch'] = types.ModuleType('torch')\n"
                "print('ready', flush=True)\n"
                "for i in range(100):\n    time.sleep(0.05)\n"
                "print('done', flush=True)\n",
                {module});
    const QByteArray err = attachFails(dir, py.processId(), {}, true);
    QVERIFY2(err.contains("the probe did not attach: " + message + " " + QByteArray::number(py.processId())), err.constData());
    QVERIFY(py.waitForFinished(60000));
    QCOMPARE(py.exitCode(), 0);
    QVERIFY(py.readAllStandardOutput().contains("done"));
}

void TestLiveAttach::gdbMissing() {
    REQUIRE_TORCH_AND_GDB();
    QTemporaryDir dir;
    QProcess py;
    startPython(py, dir, "import sys, time, torch\nprint('ready', flush=True)\ntime.sleep(60)\n");
    const QByteArray err = attachFails(dir, py.processId(), {"PATH=/nonexistent"});
    QVERIFY2(err.contains("gdb is not installed") && err.contains("apt install gdb"), err.constData());
    QVERIFY(py.state() == QProcess::Running);
    py.kill();
    py.waitForFinished();
}

// A process has one tracer at a time: one that asked to be traced by its parent (this test)
// cannot be attached by gdb, which then prints "ptrace: Operation not permitted" exactly as
// under kernel.yama.ptrace_scope or without CAP_SYS_PTRACE.
void TestLiveAttach::ptraceRefused() {
    REQUIRE_TORCH_AND_GDB();
    QTemporaryDir dir;
    QProcess py;
    startPython(py, dir,
                "import ctypes, time, torch\n"
                "assert ctypes.CDLL(None).ptrace(0, 0, None, None) == 0  # PTRACE_TRACEME\n"
                "print('ready', flush=True)\ntime.sleep(60)\n");
    const QByteArray err = attachFails(dir, py.processId());
    QVERIFY2(err.contains("ptrace: Operation not permitted"), err.constData());
    QVERIFY2(err.contains("already traced by process " + QByteArray::number(QCoreApplication::applicationPid())),
             err.constData());
    QVERIFY(py.state() == QProcess::Running);
    ::kill(static_cast<pid_t>(py.processId()), SIGKILL); // a tracee stops on other signals
    py.waitForFinished();
}

// The main thread never runs Python code again (it waits on an event, a C-level wait that runs
// no pending calls) and another thread ends the process: the queued probe never starts, and
// memviz says the process exited instead of waiting out --wait.
void TestLiveAttach::targetExitsBeforeTheProbeStarts() {
    REQUIRE_TORCH_AND_GDB();
    QTemporaryDir dir;
    QProcess py;
    startPython(py, dir,
                "import os, threading, time, torch\n"
                "def end():\n    time.sleep(6)\n    os._exit(3)\n"
                "threading.Thread(target=end).start()\n"
                "print('ready', flush=True)\nthreading.Event().wait()\n");
    QElapsedTimer timer;
    timer.start();
    const QByteArray err = attachFails(dir, py.processId());
    QVERIFY2(err.contains("exited before the probe connected"), err.constData());
    QVERIFY(timer.elapsed() < 25000); // well before the default 30 s wait
    QVERIFY(py.waitForFinished(10000));
    QCOMPARE(py.exitCode(), 3); // its own exit, not a crash
}

QTEST_GUILESS_MAIN(TestLiveAttach)
#include "tst_live_attach.moc"
