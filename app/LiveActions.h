// SPDX-License-Identifier: MIT
#pragma once
// The Record menu of the main window: Attach to Process…, Launch and Record…, Wait for
// Probe…. Wiring only: each asks its dialog, builds the recorder, and opens a LiveWindow;
// a finished recording can be opened in the main window.
#include <QObject>
#include <QStringList>

class QAction;
class QMenu;
class QWidget;

namespace memviz {

class LiveWindow;

class LiveActions : public QObject {
    Q_OBJECT
public:
    LiveActions(QWidget* window, QMenu* menu);

    QAction* attachAction() const { return attach_; }
    QAction* launchAction() const { return launch_; }
    QAction* probeAction() const { return probe_; }

    // Starting a recording without a dialog (the dialogs call these; so do tests). They
    // return the live window, or nullptr after telling the user why not.
    LiveWindow* attachTo(int pid, const QString& store, int intervalMs, bool children);
    LiveWindow* launch(const QStringList& command, const QString& directory, const QString& store, int intervalMs, bool children);
    LiveWindow* waitForProbe(const QString& address, const QString& store);
    // The PyTorch probe injected into running Python `pid` (AttachedProbeRecorder).
    LiveWindow* attachProbe(int pid, const QString& store);
    // Native allocations through heaptrack (NativeRecorder): attached to `pid`, or `command`
    // launched under it when pid is 0.
    LiveWindow* recordNative(int pid, const QStringList& command, const QString& directory, const QString& store,
                             int intervalMs);

signals:
    void openRecording(const QString& storePath, qint64 traceId);

private:
    LiveWindow* show(LiveWindow* window);

    QWidget* window_;
    QAction* attach_;
    QAction* launch_;
    QAction* probe_;
};

} // namespace memviz
