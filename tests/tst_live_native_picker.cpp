// SPDX-License-Identifier: MIT
// The Record menu's third way, native allocation sites through heaptrack: the process
// picker's "Record Native Allocations" is enabled for a selected process when heaptrack and
// gdb are installed, and disabled with the reason (the packages to install) when heaptrack's
// parts are not where memviz looks (MEMVIZ_HEAPTRACK_LIBDIR pointed at an empty folder); the
// Launch dialog's heaptrack box likewise. The recording itself is tst_live_native's.
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QtTest>
#include <unistd.h>

#include "NativeToolOutput.h"
#include "TestSupport.h"
#include "widgets/live/LaunchDialog.h"
#include "widgets/live/ProcessPickerDialog.h"

using namespace memviz;
using namespace memviz::test;

namespace {

void select(ProcessPickerDialog& dialog, qint64 pid) {
    dialog.refresh();
    dialog.waitForListing();
    dialog.filterEdit()->setText(QString::number(pid));
    dialog.selectPid(static_cast<int>(pid));
}

} // namespace

class TestLiveNativePicker : public QObject {
    Q_OBJECT
private slots:
    void enabledWithHeaptrack();
    void reasonWithoutHeaptrack();
};

void TestLiveNativePicker::enabledWithHeaptrack() {
    if (findTool("heaptrack").isEmpty()) MEMVIZ_SKIP_OR_FAIL("heaptrack is not installed (apt install heaptrack libheaptrack)");
    if (findTool("gdb").isEmpty()) MEMVIZ_SKIP_OR_FAIL("gdb is not installed (apt install gdb)");
    qunsetenv("MEMVIZ_HEAPTRACK_LIBDIR");
    ProcessPickerDialog dialog;
    QVERIFY(!dialog.nativeButton()->isEnabled()); // nothing selected
    QVERIFY2(dialog.nativeReason()->text().contains("select a process"), qPrintable(dialog.nativeReason()->text()));
    select(dialog, ::getpid());
    QCOMPARE(dialog.selectedPid(), static_cast<int>(::getpid()));
    QVERIFY(dialog.nativeButton()->isEnabled());
    QVERIFY2(dialog.nativeReason()->text().contains(QString("attached to pid %1").arg(::getpid())),
             qPrintable(dialog.nativeReason()->text()));
    LaunchDialog launch;
    QVERIFY(launch.nativeBox()->isEnabled());
    QVERIFY(!launch.nativeChosen()); // offered, not chosen
    launch.nativeBox()->setChecked(true);
    QVERIFY(launch.nativeChosen());
}

void TestLiveNativePicker::reasonWithoutHeaptrack() {
    QTemporaryDir dir;
    qputenv("MEMVIZ_HEAPTRACK_LIBDIR", dir.filePath("no-heaptrack").toLocal8Bit());
    ProcessPickerDialog dialog;
    select(dialog, ::getpid());
    QCOMPARE(dialog.selectedPid(), static_cast<int>(::getpid()));
    QVERIFY(!dialog.nativeButton()->isEnabled());
    const QString reason = dialog.nativeReason()->text();
    QVERIFY2(reason.contains("heaptrack is not installed") && reason.contains("apt install heaptrack"), qPrintable(reason));
    LaunchDialog launch;
    QVERIFY(!launch.nativeBox()->isEnabled());
    launch.nativeBox()->setChecked(true);
    QVERIFY(!launch.nativeChosen()); // never chosen while unavailable
    qunsetenv("MEMVIZ_HEAPTRACK_LIBDIR");
}

QTEST_MAIN(TestLiveNativePicker)
#include "tst_live_native_picker.moc"
