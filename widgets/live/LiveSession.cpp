// SPDX-License-Identifier: MIT
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

ProcRecorder* LiveSession::procRecorder() const {
    return kind_ == Kind::Launch ? dynamic_cast<ProcRecorder*>(recorder_.get()) : nullptr;
}

void LiveSession::terminateProgram() {
    if (auto* proc = procRecorder()) proc->signalProgram(SIGTERM);
    poll();
}

void LiveSession::killProgram() {
    if (auto* proc = procRecorder()) proc->signalProgram(SIGKILL);
    poll();
}

QString LiveSession::programStderr() const {
    if (!status_.stderrTail.empty()) return QString::fromStdString(status_.stderrTail);
    auto* proc = procRecorder();
    return proc ? QString::fromStdString(proc->programStderr()) : QString();
}

void LiveSession::watchProgram() {
    ProcRecorder* proc = procRecorder();
    const bool was = programRunning_;
    programRunning_ = proc && proc->programRunning();
    if (!finished_ || programRunning_) return;
    timer_.stop();
    if (was) {
        exitAfterRecording_ = proc->programExit();
        emit programEnded();
        emit statusChanged();
    }
}

QString LiveSession::storePath() const { return QString::fromStdString(recorder_->storePath()); }

void LiveSession::poll() {
    if (finished_) {
        watchProgram(); // a launched program that outlived the recording
        return;
    }
    status_ = recorder_->status();
    programRunning_ = procRecorder() && procRecorder()->programRunning();
    try {
        if (status_.done()) {
            finished_ = true;
            watchProgram(); // stops the timer unless the program still runs
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
