#pragma once
// One live recording seen from the GUI thread: it owns the recorder (which samples and
// writes on its own thread) and a TraceSession that follows what the recorder committed,
// polled a few times a second. When the recording ends, the session shows the finalised
// trace.
#include <QObject>
#include <QTimer>
#include <memory>

#include "formats/live/Recorder.h"

namespace memviz {

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
    // SIGTERM to a launched program (the recording then ends when it exits).
    void terminateProgram();

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

private:
    std::unique_ptr<Recorder> recorder_;
    Kind kind_;
    TraceSession* trace_;
    QTimer timer_;
    RecorderStatus status_;
    bool finished_ = false;
};

} // namespace memviz
