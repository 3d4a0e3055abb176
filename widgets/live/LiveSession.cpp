#include "widgets/live/LiveSession.h"

#include <csignal>

#include "formats/live/ProcRecorder.h"
#include "widgets/TraceSession.h"

namespace memviz {

LiveSession::LiveSession(std::unique_ptr<Recorder> recorder, Kind kind, QObject* parent)
    : QObject(parent), recorder_(std::move(recorder)), kind_(kind), trace_(new TraceSession(this)) {
    timer_.setInterval(250);
    connect(&timer_, &QTimer::timeout, this, &LiveSession::poll);
}

LiveSession::~LiveSession() {
    timer_.stop();
    recorder_->stop();
    recorder_->wait();
}

void LiveSession::start() {
    recorder_->start();
    timer_.start();
    poll();
}

void LiveSession::stop() { recorder_->stop(); }

void LiveSession::addMarker(const QString& label) { recorder_->addMarker(label.toStdString()); }

void LiveSession::terminateProgram() {
    if (auto* proc = dynamic_cast<ProcRecorder*>(recorder_.get())) proc->signalProgram(SIGTERM);
}

QString LiveSession::storePath() const { return QString::fromStdString(recorder_->storePath()); }

void LiveSession::poll() {
    if (finished_) return;
    status_ = recorder_->status();
    try {
        if (status_.done()) {
            timer_.stop();
            finished_ = true;
            if (status_.traceId) trace_->open(storePath(), status_.traceId);
            else trace_->close();
            emit statusChanged();
            emit finished();
            return;
        }
        if (status_.traceId && !trace_->isOpen()) trace_->openLive(storePath(), status_.traceId);
        else if (trace_->isLive()) trace_->refreshLive();
    } catch (const std::exception& e) {
        // The store is busy or was damaged under us: show it, keep polling.
        status_.message = e.what();
    }
    emit statusChanged();
}

} // namespace memviz
