// SPDX-License-Identifier: MIT
#include "widgets/live/LiveView.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <cstring>

#include "words/Units.h"
#include "formats/FormatIds.h"
#include "widgets/OpsView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/live/LiveSession.h"
#include "widgets/live/LiveTracePanel.h"
#include "widgets/live/NativeSitesView.h"
#include "widgets/live/ProcessSeriesLabels.h"
#include "formats/live/NativeRecorder.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

QString exitText(const ExitStatus& e) {
    if (e.code) return LiveView::tr("exited with status %1").arg(*e.code);
    if (e.signal)
        return LiveView::tr("killed by signal %1 (%2)").arg(*e.signal).arg(QString::fromLocal8Bit(::strsignal(*e.signal)));
    return LiveView::tr("ended");
}

// Follow choices: the window width in ns (0 = the whole recording).
const std::pair<const char*, qint64> kFollow[] = {
    {QT_TRANSLATE_NOOP("LiveView", "Whole recording"), 0},
    {QT_TRANSLATE_NOOP("LiveView", "Last 10 s"), 10'000'000'000},
    {QT_TRANSLATE_NOOP("LiveView", "Last 60 s"), 60'000'000'000},
    {QT_TRANSLATE_NOOP("LiveView", "Last 5 min"), 300'000'000'000},
};

} // namespace

LiveView::LiveView(LiveSession* session, QWidget* parent)
    : QWidget(parent), session_(session), timeline_(new TimelinePlot(session->trace(), this)),
      panel_(new LiveTracePanel(session->trace(), timeline_, this)), ops_(new OpsView(session->trace(), this)),
      splitter_(new QSplitter(Qt::Vertical, this)), status_(new QLabel(this)), message_(new QLabel(this)),
      stderrTitle_(new QLabel(tr("The program's last lines on stderr:"), this)), stderr_(new QPlainTextEdit(this)),
      markerLabel_(new QLineEdit(this)), marker_(new QPushButton(tr("Add &Marker"), this)),
      pause_(new QPushButton(tr("&Pause View"), this)), follow_(new QComboBox(this)), stop_(new QPushButton(tr("&Stop"), this)),
      terminate_(new QPushButton(tr("&Terminate Program"), this)), kill_(new QPushButton(tr("&Kill Program"), this)),
      open_(new QPushButton(tr("&Open in Main Window"), this)), opsTimer_(new QTimer(this)) {
    status_->setTextFormat(Qt::PlainText);
    QFont bold = status_->font();
    bold.setBold(true);
    status_->setFont(bold);
    message_->setWordWrap(true);
    message_->setVisible(false);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stderr_->setReadOnly(true);
    stderr_->setLineWrapMode(QPlainTextEdit::NoWrap);
    stderr_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    stderrTitle_->setVisible(false);
    stderr_->setVisible(false);
    markerLabel_->setPlaceholderText(tr("marker label"));
    markerLabel_->setMaximumWidth(220);
    marker_->setToolTip(tr("Saves a labelled point at this moment (M)"));
    pause_->setCheckable(true);
    pause_->setToolTip(tr("Stop following the newest samples; recording goes on (Space)"));
    for (const auto& [text, ns] : kFollow) follow_->addItem(tr(text), ns);
    follow_->setCurrentIndex(0);
    follow_->setToolTip(tr("What the view shows while it follows the recording"));
    stop_->setToolTip(tr("Stops recording and saves it (Ctrl+.)"));
    terminate_->setToolTip(tr("Asks the launched program to end (SIGTERM)"));
    kill_->setToolTip(tr("Ends the launched program at once (SIGKILL): for a program that ignores Terminate"));
    open_->setVisible(false);

    auto* bar = new QHBoxLayout;
    bar->addWidget(markerLabel_);
    bar->addWidget(marker_);
    bar->addSpacing(12);
    bar->addWidget(pause_);
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(follow_);
    bar->addStretch(1);
    bar->addWidget(terminate_);
    bar->addWidget(kill_);
    bar->addWidget(stop_);
    bar->addWidget(open_);

    splitter_->addWidget(timeline_);
    splitter_->addWidget(ops_);
    // A native recording (heaptrack) shows its top allocation sites below the plot.
    const bool native = dynamic_cast<NativeRecorder*>(session_->recorder()) != nullptr;
    sites_ = new NativeSitesView(session_->trace(), this);
    sites_->setVisible(native);
    splitter_->addWidget(sites_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    ops_->setVisible(session_->kind() == LiveSession::Kind::Probe);
    ops_->setActive(session_->kind() == LiveSession::Kind::Probe);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addLayout(bar);
    layout->addWidget(message_);
    layout->addWidget(stderrTitle_);
    layout->addWidget(stderr_);
    layout->addWidget(splitter_, 1);

    connect(marker_, &QPushButton::clicked, this, &LiveView::addMarker);
    connect(markerLabel_, &QLineEdit::returnPressed, this, &LiveView::addMarker);
    connect(pause_, &QPushButton::toggled, this, [this](bool paused) { setFollowing(!paused); });
    connect(follow_, &QComboBox::currentIndexChanged, this, [this] { setFollowing(true); });
    connect(stop_, &QPushButton::clicked, session_, &LiveSession::stop);
    connect(terminate_, &QPushButton::clicked, session_, &LiveSession::terminateProgram);
    connect(kill_, &QPushButton::clicked, session_, &LiveSession::killProgram);
    connect(session_, &LiveSession::programEnded, this, &LiveView::onProgramEnded);
    connect(open_, &QPushButton::clicked, this,
            [this] { emit openRequested(session_->storePath(), session_->status().traceId); });
    new QShortcut(QKeySequence(Qt::Key_M), this, [this] {
        if (!markerLabel_->hasFocus()) addMarker();
    });
    new QShortcut(QKeySequence(Qt::Key_Space), this, [this] { pause_->toggle(); });
    new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period), this, [this] { session_->stop(); });

    // Zooming or dragging the plot means looking at the past: following pauses.
    connect(timeline_->plot(), &QCustomPlot::mousePress, this, [this] { setFollowing(false); });
    connect(timeline_->plot(), &QCustomPlot::mouseWheel, this, [this] { setFollowing(false); });
    connect(session_, &LiveSession::statusChanged, this, &LiveView::onStatus);
    connect(session_, &LiveSession::finished, this, &LiveView::onFinished);
    connect(session_->trace(), &TraceSession::liveAdvanced, this, [this] {
        if (following_) followNow();
    });
    connect(session_->trace(), &TraceSession::traceChanged, this, [this] {
        if (following_ && session_->trace()->isLive()) followNow();
    });
    // The operator table is a query over everything recorded: once a second is enough.
    opsTimer_->setInterval(1000);
    connect(opsTimer_, &QTimer::timeout, ops_, &OpsView::refresh);
    if (native) connect(opsTimer_, &QTimer::timeout, sites_, &NativeSitesView::refresh);
    if (session_->kind() == LiveSession::Kind::Probe || native) opsTimer_->start();
    onStatus();
}

void LiveView::setFollowing(bool following) {
    following_ = following;
    {
        const QSignalBlocker block(pause_);
        pause_->setChecked(!following);
    }
    pause_->setText(following ? tr("&Pause View") : tr("&Resume View"));
    if (following) followNow();
}

void LiveView::followNow() {
    TraceSession* trace = session_->trace();
    if (!trace->isOpen()) return;
    const qint64 end = std::max<qint64>(trace->fullRange().end, 1);
    const qint64 window = follow_->currentData().toLongLong();
    double lower = 0, upper = static_cast<double>(end) * 1.02;
    if (window > 0 && end > window) {
        lower = static_cast<double>(end - window);
        upper = static_cast<double>(end) + static_cast<double>(window) * 0.02;
    }
    timeline_->plot()->xAxis->setRange(lower, upper);
    timeline_->refreshNow();
}

void LiveView::addMarker() {
    if (session_->isFinished()) return;
    QString label = markerLabel_->text().trimmed();
    if (label.isEmpty()) label = tr("marker %1").arg(markers_ + 1);
    ++markers_;
    session_->addMarker(label);
    markerLabel_->clear();
}

void LiveView::onStatus() {
    const RecorderStatus& s = session_->status();
    QString who = QString::fromStdString(s.targetName);
    if (s.targetPid > 0) who += tr(" (pid %1)").arg(s.targetPid);
    QString state;
    switch (s.state) {
    case RecorderStatus::State::Starting: state = tr("Starting"); break;
    case RecorderStatus::State::Waiting: state = QString::fromStdString(s.message); break;
    case RecorderStatus::State::Recording: state = tr("● Recording %1").arg(who.trimmed()); break;
    case RecorderStatus::State::Finished: state = tr("Recorded %1").arg(who.trimmed()); break;
    case RecorderStatus::State::Failed: state = tr("Recording failed"); break;
    }
    QStringList parts{state};
    if (s.state == RecorderStatus::State::Recording || s.state == RecorderStatus::State::Finished) {
        parts << words::duration(s.lastT, 1)
              << (s.committedSamples == 1 ? tr("1 sample saved") : tr("%L1 samples saved").arg(s.committedSamples));
        for (const auto& [name, value] : s.latest)
            if (const bool proc = name == proc_series::kRss || name == proc_series::kPss || name == "heap_consumed";
                proc || name.ends_with(std::string(" ") + series_name::kAllocated))
                parts << QStringLiteral("%1 %2").arg(proc ? processSeriesLabel(name) : QString::fromStdString(name),
                                                     words::bytes(value));
    }
    status_->setText(parts.join(QStringLiteral("  ·  ")));
    const bool done = s.done();
    marker_->setEnabled(!done && s.state == RecorderStatus::State::Recording);
    markerLabel_->setEnabled(marker_->isEnabled());
    stop_->setEnabled(!done);
    updateProgramButtons();
}

void LiveView::updateProgramButtons() {
    // A launched program can be ended from here for as long as it runs, recording or not.
    const bool running = session_->programRunning();
    for (QPushButton* b : {terminate_, kill_}) {
        b->setVisible(running);
        b->setEnabled(running);
    }
}

void LiveView::onFinished() {
    const RecorderStatus& s = session_->status();
    opsTimer_->stop();
    ops_->refresh();
    if (sites_->isVisible()) sites_->refresh();
    stop_->setVisible(false);
    open_->setVisible(s.traceId != 0);
    // A program that exits non-zero or by a signal failed too, even though its recording did not.
    const bool failed = s.state == RecorderStatus::State::Failed || (s.exitCode && *s.exitCode != 0) || s.exitSignal;
    QString text = QString::fromStdString(s.message);
    if (s.traceId) text += tr(" — saved in %1 (trace %2).").arg(session_->storePath()).arg(s.traceId);
    message_->setText(text);
    message_->setStyleSheet(failed ? "QLabel { background: #fde2e2; color: #7a1010; padding: 6px; }"
                                   : "QLabel { background: #e6f2e6; color: #1d4d1d; padding: 6px; }");
    message_->setVisible(true);
    showStderrIfFailed(s.exitCode, s.exitSignal);
    onStatus();
    if (s.traceId) timeline_->resetZoom();
}

void LiveView::onProgramEnded() {
    const RecorderStatus& s = session_->status();
    const ExitStatus e = session_->exitAfterRecording().value_or(ExitStatus{});
    QString who = QString::fromStdString(s.targetName);
    if (s.targetPid > 0) who += tr(" (pid %1)").arg(s.targetPid);
    message_->setText(message_->text() + QLatin1Char('\n') + tr("%1 then ended: %2.").arg(who.trimmed(), exitText(e)));
    showStderrIfFailed(e.code, e.signal);
    updateProgramButtons();
}

void LiveView::showStderrIfFailed(std::optional<int> code, std::optional<int> signal) {
    const bool failed = (code && *code != 0) || signal;
    const QString tail = failed ? session_->programStderr() : QString();
    stderr_->setPlainText(tail);
    // As tall as its lines (up to ten), with room for the horizontal scroll bar.
    const int lines = std::clamp(int(tail.count(QLatin1Char('\n'))) + 1, 2, 10);
    stderr_->setFixedHeight(stderr_->fontMetrics().lineSpacing() * lines + 2 * stderr_->frameWidth() + 8 +
                            stderr_->horizontalScrollBar()->sizeHint().height());
    stderr_->verticalScrollBar()->setValue(stderr_->verticalScrollBar()->maximum());
    stderrTitle_->setVisible(!tail.isEmpty());
    stderr_->setVisible(!tail.isEmpty());
}

} // namespace memviz
