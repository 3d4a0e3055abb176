// SPDX-License-Identifier: MIT
#pragma once
// The live view of one recording: a status line, a timeline that follows the end (or a
// window of it) while the user may zoom into the past, a marker button, pause/resume of the
// view, Stop, and — for the probe — the per-operator table filling as the stream runs.
#include <QWidget>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSplitter;
class QTimer;

namespace memviz {

class LiveSession;
class LiveTracePanel;
class OpsView;
class TimelinePlot;

class LiveView : public QWidget {
    Q_OBJECT
public:
    explicit LiveView(LiveSession* session, QWidget* parent = nullptr);

    LiveSession* session() const { return session_; }
    TimelinePlot* timeline() const { return timeline_; }
    OpsView* opsView() const { return ops_; }
    QPushButton* markerButton() const { return marker_; }
    QLineEdit* markerLabel() const { return markerLabel_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* stopButton() const { return stop_; }
    // A launched program: SIGTERM / SIGKILL, offered until it has exited (also after Stop).
    QPushButton* terminateButton() const { return terminate_; }
    QPushButton* killButton() const { return kill_; }
    // The last lines a launched program wrote to stderr, shown when it failed.
    QPlainTextEdit* stderrView() const { return stderr_; }
    QComboBox* followBox() const { return follow_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* messageLabel() const { return message_; }

    // The view keeps up with the newest samples (not paused).
    bool isFollowing() const { return following_; }
    void setFollowing(bool following);
    // Adds a marker now, labelled with the text field (or "marker N").
    void addMarker();
    // Moves the visible range to the end, per the follow choice (whole recording, last N s).
    void followNow();

signals:
    // The user wants the finished recording in the main window.
    void openRequested(const QString& storePath, qint64 traceId);

private:
    void onStatus();
    void onFinished();
    void onProgramEnded();
    void showStderrIfFailed(std::optional<int> code, std::optional<int> signal);
    void updateProgramButtons();

    LiveSession* session_;
    TimelinePlot* timeline_;
    LiveTracePanel* panel_;
    OpsView* ops_;
    class NativeSitesView* sites_ = nullptr; // native recordings: the top allocation sites
    QSplitter* splitter_;
    QLabel* status_;
    QLabel* message_;
    QLabel* stderrTitle_;
    QPlainTextEdit* stderr_;
    QLineEdit* markerLabel_;
    QPushButton* marker_;
    QPushButton* pause_;
    QComboBox* follow_;
    QPushButton* stop_;
    QPushButton* terminate_;
    QPushButton* kill_;
    QPushButton* open_;
    QTimer* opsTimer_;
    bool following_ = true;
    int markers_ = 0;
};

} // namespace memviz
