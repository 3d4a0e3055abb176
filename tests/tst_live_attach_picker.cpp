// SPDX-License-Identifier: MIT
// The process picker's "Attach the PyTorch Probe": enabled for a real Python that has imported
// PyTorch, disabled with the reason shown for a program that is not Python (this test itself)
// and for a Python without PyTorch. The attach itself is tst_live_attach's.
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QtTest>

#include <unistd.h>

#include "TestSupport.h"
#include "widgets/live/ProcessPickerDialog.h"

using namespace memviz;

namespace {

const QString kPython = memviz::test::torchPython();

// A Python that printed "ready" after running `code`'s imports; stays for 60 s.
bool startPython(QProcess& p, const QString& imports) {
    p.start(kPython, {"-c", imports + "\nprint('ready', flush=True)\nimport time\ntime.sleep(60)\n"});
    if (!p.waitForStarted(10000)) return false;
    QElapsedTimer t;
    t.start();
    while (!p.canReadLine() && t.elapsed() < 120000) p.waitForReadyRead(1000);
    return p.readLine().trimmed() == "ready";
}

void select(ProcessPickerDialog& dialog, qint64 pid) {
    dialog.refresh();
    dialog.waitForListing();
    dialog.filterEdit()->setText(QString::number(pid));
    dialog.selectPid(static_cast<int>(pid));
}

} // namespace

class TestLiveAttachPicker : public QObject {
    Q_OBJECT
private slots:
    void probeOnlyForPythonWithTorch();
};

void TestLiveAttachPicker::probeOnlyForPythonWithTorch() {
    if (!QFileInfo(kPython).isExecutable() || memviz::test::runProcess(kPython, {"-c", "import torch"}, 120000).exitCode != 0)
        MEMVIZ_SKIP_OR_FAIL(qPrintable(memviz::test::torchMissingMessage()));
    ProcessPickerDialog dialog;
    QVERIFY(!dialog.probeButton()->isEnabled()); // nothing selected
    QVERIFY(dialog.probeReason()->text().contains("Select a process"));

    select(dialog, ::getpid()); // this test is a C++ program
    QCOMPARE(dialog.selectedPid(), static_cast<int>(::getpid()));
    QVERIFY(!dialog.probeButton()->isEnabled());
    QVERIFY2(dialog.probeReason()->text().contains("is not running Python"), qPrintable(dialog.probeReason()->text()));

    QProcess plain;
    QVERIFY(startPython(plain, "import sys"));
    select(dialog, plain.processId());
    QCOMPARE(dialog.selectedPid(), static_cast<int>(plain.processId()));
    QVERIFY(!dialog.probeButton()->isEnabled());
    QVERIFY2(dialog.probeReason()->text().contains("PyTorch is not imported"), qPrintable(dialog.probeReason()->text()));

    QProcess torch;
    QVERIFY(startPython(torch, "import torch"));
    select(dialog, torch.processId());
    QCOMPARE(dialog.selectedPid(), static_cast<int>(torch.processId()));
    QVERIFY(dialog.probeButton()->isEnabled());
    QVERIFY2(dialog.probeReason()->text().contains("runs Python with PyTorch loaded"), qPrintable(dialog.probeReason()->text()));
    QVERIFY(!dialog.probeChosen());
    dialog.probeButton()->click();
    QVERIFY(dialog.probeChosen());
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    plain.kill();
    torch.kill();
    plain.waitForFinished();
    torch.waitForFinished();
}

QTEST_MAIN(TestLiveAttachPicker)
#include "tst_live_attach_picker.moc"
