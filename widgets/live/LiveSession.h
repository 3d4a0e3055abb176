// SPDX-License-Identifier: MIT
#pragma once
// One live recording seen from the GUI thread: it owns the recorder (which samples and
// writes on its own thread) and a TraceSession that follows what the recorder committed,
// polled a few times a second. When the recording ends, the session shows the finalised
// trace.
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

#include "formats/live/Launcher.h"
#include "formats/live/Recorder.h"

namespace memviz {

class ProcRecorder;
class TraceSession;

class LiveSession : public QObject {
    Q_OBJECT
public:
    enum class Kind { Attach, Launch, Probe };

    // Takes the recorder before it is started; start() starts it.
    LiveSession(std::unique_ptr<Recorder> recorder, Kind kind, QObject* parent = nullptr);
    // Stops the recording (it is finalised) and waits for the recorder.
    ~LiveSession() override;

    void start();
    void stop();
    void addMarker(const QString& label);
    // SIGTERM / SIGKILL to a launched program, during the recording (which then ends when
    // the program exits) or after it (Stop leaves the program running).
    void terminateProgram();
    void killProgram();
    // A launched program that has not ended yet; the session keeps watching it after the
    // recording ended, until it exits.
    bool programRunning() const { return programRunning_; }
    // How a launched program ended after its recording had stopped (nullopt until then).
    const std::optional<ExitStatus>& exitAfterRecording() const { return exitAfterRecording_; }
    // The launched program's last stderr lines (empty unless captured).
    QString programStderr() const;

    Kind kind() const { return kind_; }
    TraceSession* trace() const { return trace_; }
    Recorder* recorder() const { return recorder_.get(); }
    const RecorderStatus& status() const { return status_; }
    bool isFinished() const { return finished_; }
    QString storePath() const;
    // How often the recorder's progress is read (default 250 ms).
    void setPollIntervalMs(int ms) { timer_.setInterval(ms); }
    // Reads the recorder's progress now (tests; the timer does it on its own).
    void poll();

signals:
    void statusChanged();
    // The recording ended; trace() shows the finalised trace (when anything was recorded).
    void finished();
    // A launched program that outlived its recording ended (exitAfterRecording()).
    void programEnded();

private:
    ProcRecorder* procRecorder() const;
    void watchProgram();

    std::unique_ptr<Recorder> recorder_;
    Kind kind_;
    TraceSession* trace_;
    QTimer timer_;
    RecorderStatus status_;
    bool finished_ = false;
    bool programRunning_ = false;
    std::optional<ExitStatus> exitAfterRecording_;
};

} // namespace memviz
