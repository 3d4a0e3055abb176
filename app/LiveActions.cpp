// SPDX-License-Identifier: MIT
#include "LiveActions.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

#include "formats/live/AttachedProbeRecorder.h"
#include "formats/live/NativeRecorder.h"
#include "formats/live/ProbeRecorder.h"
#include "formats/live/ProcRecorder.h"
#include "widgets/live/LaunchDialog.h"
#include "widgets/live/LiveSession.h"
#include "widgets/live/LiveView.h"
#include "widgets/live/LiveWindow.h"
#include "widgets/live/ProbeDialog.h"
#include "widgets/live/ProcessPickerDialog.h"
#include "widgets/live/RecordingOptionsWidget.h"

namespace memviz {

namespace {

bool prepareStore(QWidget* parent, const QString& store) {
    if (store.isEmpty()) {
        QMessageBox::warning(parent, QObject::tr("Cannot record"), QObject::tr("Choose a file to save the recording in."));
        return false;
    }
    QDir().mkpath(QFileInfo(store).absolutePath());
    return true;
}

} // namespace

LiveActions::LiveActions(QWidget* window, QMenu* menu) : QObject(window), window_(window) {
    attach_ = menu->addAction(tr("&Attach to Process…"), this, [this] {
        ProcessPickerDialog dialog(window_);
        if (dialog.exec() != QDialog::Accepted || !dialog.selectedPid()) return;
        dialog.options()->remember();
        if (dialog.probeChosen()) {
            attachProbe(dialog.selectedPid(), dialog.options()->storePath());
            return;
        }
        if (dialog.nativeChosen()) {
            recordNative(dialog.selectedPid(), {}, {}, dialog.options()->storePath(), dialog.options()->intervalMs());
            return;
        }
        attachTo(dialog.selectedPid(), dialog.options()->storePath(), dialog.options()->intervalMs(),
                 dialog.options()->children());
    });
    attach_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    launch_ = menu->addAction(tr("&Launch and Record…"), this, [this] {
        LaunchDialog dialog(window_);
        if (dialog.exec() != QDialog::Accepted) return;
        dialog.options()->remember();
        if (dialog.nativeChosen()) {
            recordNative(0, dialog.command(), dialog.workingDirectory(), dialog.options()->storePath(),
                         dialog.options()->intervalMs());
            return;
        }
        launch(dialog.command(), dialog.workingDirectory(), dialog.options()->storePath(), dialog.options()->intervalMs(),
               dialog.options()->children());
    });
    launch_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    probe_ = menu->addAction(tr("Wait for &Probe…"), this, [this] {
        ProbeDialog dialog(window_);
        if (dialog.exec() != QDialog::Accepted) return;
        waitForProbe(dialog.address(), dialog.options()->storePath());
    });
    probe_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
}

LiveWindow* LiveActions::show(LiveWindow* window) {
    connect(window->view(), &LiveView::openRequested, this, &LiveActions::openRecording);
    window->show();
    return window;
}

LiveWindow* LiveActions::attachTo(int pid, const QString& store, int intervalMs, bool children) {
    if (!prepareStore(window_, store)) return nullptr;
    ProcRecordingOptions o;
    o.pid = pid;
    o.intervalNs = static_cast<std::int64_t>(intervalMs) * 1'000'000;
    o.children = children;
    auto* session = new LiveSession(std::make_unique<ProcRecorder>(store.toStdString(), o), LiveSession::Kind::Attach);
    return show(new LiveWindow(session, tr("Recording pid %1 – memviz").arg(pid), window_));
}

LiveWindow* LiveActions::launch(const QStringList& command, const QString& directory, const QString& store, int intervalMs,
                                bool children) {
    if (command.isEmpty() || !prepareStore(window_, store)) return nullptr;
    const QString absoluteStore = QFileInfo(store).absoluteFilePath();
    ProcRecordingOptions o;
    for (const QString& c : command) o.command.push_back(c.toStdString());
    o.workingDirectory = directory.toStdString();
    o.captureStderr = true; // its last lines are shown when it fails; all of it still reaches our stderr
    o.intervalNs = static_cast<std::int64_t>(intervalMs) * 1'000'000;
    o.children = children;
    auto* session = new LiveSession(std::make_unique<ProcRecorder>(absoluteStore.toStdString(), o), LiveSession::Kind::Launch);
    return show(new LiveWindow(session, tr("Recording %1 – memviz").arg(command.join(' ').left(80)), window_));
}

LiveWindow* LiveActions::recordNative(int pid, const QStringList& command, const QString& directory, const QString& store,
                                      int intervalMs) {
    if (!prepareStore(window_, store)) return nullptr;
    NativeRecordingOptions o;
    o.pid = pid;
    for (const QString& c : command) o.command.push_back(c.toStdString());
    o.workingDirectory = directory.toStdString();
    o.intervalNs = static_cast<std::int64_t>(intervalMs) * 1'000'000;
    try {
        NativeRecorder::check(o); // heaptrack missing, no such program or process
    } catch (const std::exception& e) {
        QMessageBox::warning(window_, tr("Cannot record"), QString::fromUtf8(e.what()));
        return nullptr;
    }
    const QString absoluteStore = QFileInfo(store).absoluteFilePath();
    auto* session = new LiveSession(std::make_unique<NativeRecorder>(absoluteStore.toStdString(), o),
                                    pid ? LiveSession::Kind::Attach : LiveSession::Kind::Launch);
    const QString what = pid ? tr("pid %1").arg(pid) : command.join(' ').left(80);
    return show(new LiveWindow(session, tr("Native allocations of %1 – memviz").arg(what), window_));
}

LiveWindow* LiveActions::waitForProbe(const QString& address, const QString& store) {
    if (!prepareStore(window_, store)) return nullptr;
    std::unique_ptr<ProbeRecorder> recorder;
    try {
        recorder = std::make_unique<ProbeRecorder>(store.toStdString(), parseProbeAddress(address.toStdString()));
    } catch (const std::exception& e) {
        QMessageBox::warning(window_, tr("Cannot listen"), QString::fromUtf8(e.what()));
        return nullptr;
    }
    const QString where = QString::fromStdString(recorder->address().text());
    auto* session = new LiveSession(std::move(recorder), LiveSession::Kind::Probe);
    return show(new LiveWindow(session, tr("Waiting for the probe on %1 – memviz").arg(where), window_));
}

LiveWindow* LiveActions::attachProbe(int pid, const QString& store) {
    if (!prepareStore(window_, store)) return nullptr;
    std::unique_ptr<AttachedProbeRecorder> recorder;
    try {
        recorder = std::make_unique<AttachedProbeRecorder>(store.toStdString(), pid, ProbeDialog::probeDirectory().toStdString());
    } catch (const std::exception& e) {
        QMessageBox::warning(window_, tr("Cannot listen"), QString::fromUtf8(e.what()));
        return nullptr;
    }
    recorder->setAcceptTimeoutNs(30'000'000'000); // the target's main thread runs no Python: give up
    auto* session = new LiveSession(std::move(recorder), LiveSession::Kind::Probe);
    return show(new LiveWindow(session, tr("PyTorch probe in pid %1 – memviz").arg(pid), window_));
}

} // namespace memviz
