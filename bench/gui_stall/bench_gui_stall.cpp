// SPDX-License-Identifier: MIT
// GUI-thread stall benchmark (issue 12: "no GUI-thread stall over 50 ms"). Opens a file in the
// real main window, walks its tabs, switches the snapshot device and the moment, and records,
// per step, the longest gap between two ticks of a 5 ms QTimer on the GUI thread: a query that
// runs on the GUI thread shows as a gap as long as the query; "action ms" is the time of the
// step's own call (setDevice, setMoment, setCurrentIndex) before it returns to the event loop.
// A measurement, not a test.
//
//   bench_gui_stall FILE [--devices A,B] [--dwell-ms 600]
//
// Run it in a real window (xvfb-run) or with QT_QPA_PLATFORM=offscreen; see
// bench/gui_stall/run_gui_stall.sh. The import runs in a child process, as in the window: the
// memviz binary (MEMVIZ_IMPORT_WORKER, by default ../app/memviz beside this one). A step ends when no BackgroundQuery of the
// window is pending any more and at least --dwell-ms passed; its time to settle is printed too.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <functional>
#include <vector>

#include "MainWindow.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/SnapshotPanel.h"
#include "widgets/snapshot/SnapshotSession.h"

using namespace memviz;

namespace {

struct Step {
    QString name;
    std::function<void()> action;
};

struct Result {
    QString name;
    double maxGapMs = 0;
    int gapsOver50 = 0;
    double settleMs = 0;
    double actionMs = 0; // the step's own call (e.g. setDevice) on the GUI thread
};

class StallMeter : public QObject {
public:
    explicit StallMeter(MainWindow* window, std::vector<Step> steps, int dwellMs, const bool* opening)
        : window_(window), steps_(std::move(steps)), dwellMs_(dwellMs), opening_(opening) {
        tick_.setTimerType(Qt::PreciseTimer);
        tick_.setInterval(5);
        connect(&tick_, &QTimer::timeout, this, [this] { onTick(); });
        poll_.setInterval(20);
        connect(&poll_, &QTimer::timeout, this, [this] { maybeNext(); });
    }

    void start() {
        clock_.start();
        last_ = clock_.nsecsElapsed();
        tick_.start();
        poll_.start();
        next();
    }

    const std::vector<Result>& results() const { return results_; }

private:
    bool busy() const {
        for (const BackgroundQuery* q : window_->findChildren<BackgroundQuery*>())
            if (q->isPending()) return true;
        return *opening_ || !window_->session()->isOpen();
    }

    void onTick() {
        const qint64 now = clock_.nsecsElapsed();
        const double gapMs = static_cast<double>(now - last_) / 1e6;
        last_ = now;
        if (results_.empty()) return;
        Result& r = results_.back();
        r.maxGapMs = std::max(r.maxGapMs, gapMs);
        if (gapMs > 50) ++r.gapsOver50;
    }

    void next() {
        if (!results_.empty()) {
            Result& r = results_.back();
            std::printf("%-34s %9.1f %10.1f %8d %12.0f\n", qPrintable(r.name), r.actionMs, r.maxGapMs, r.gapsOver50, r.settleMs);
            std::fflush(stdout);
        }
        if (index_ >= steps_.size()) {
            tick_.stop();
            poll_.stop();
            QApplication::quit();
            return;
        }
        const Step& step = steps_[index_++];
        results_.push_back({step.name});
        stepStart_ = clock_.nsecsElapsed();
        settled_ = false;
        last_ = clock_.nsecsElapsed(); // the gap before the step is not its own
        step.action();                 // runs inside this tick of the event loop: its own time counts
        results_.back().actionMs = static_cast<double>(clock_.nsecsElapsed() - stepStart_) / 1e6;
        onTick();
    }

    void maybeNext() {
        const qint64 now = clock_.nsecsElapsed();
        if (!settled_ && !busy()) {
            settled_ = true;
            results_.back().settleMs = static_cast<double>(now - stepStart_) / 1e6;
        }
        if (settled_ && now - stepStart_ >= static_cast<qint64>(dwellMs_) * 1'000'000) next();
        else if (settled_ && busy()) settled_ = false; // a view started another query
    }

    MainWindow* window_;
    std::vector<Step> steps_;
    int dwellMs_;
    const bool* opening_; // an import runs in the child process
    QTimer tick_, poll_;
    QElapsedTimer clock_;
    qint64 last_ = 0, stepStart_ = 0;
    bool settled_ = false;
    std::size_t index_ = 0;
    std::vector<Result> results_;
};

void showTab(MainWindow& w, const QString& title) {
    QTabWidget* tabs = w.detailTabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove('&').startsWith(title)) tabs->setCurrentIndex(i);
}

} // namespace

int main(int argc, char** argv) {
    Q_INIT_RESOURCE(memviz);
    QCoreApplication::setOrganizationName("memviz-bench");
    QCoreApplication::setApplicationName("bench_gui_stall");
    QApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("MEMVIZ_IMPORT_WORKER"))
        qputenv("MEMVIZ_IMPORT_WORKER", (QCoreApplication::applicationDirPath() + "/../app/memviz").toLocal8Bit());
    QCommandLineParser p;
    p.addPositionalArgument("file", "the trace to open (a snapshot pickle, a .memviz store, ...)");
    p.addOption({"devices", "snapshot devices to switch between", "A,B", "0,1"});
    p.addOption({"dwell-ms", "the least time one step lasts", "ms", "600"});
    p.addHelpOption();
    p.process(app);
    if (p.positionalArguments().size() != 1) p.showHelp(2);
    const QString file = p.positionalArguments().first();
    const QStringList devices = p.value("devices").split(',');

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    const QStringList tabs{"Active Memory", "Allocations", "Allocator State", "Snapshot"};
    std::vector<Step> steps;
    bool opening = false;
    QObject::connect(window.session(), &TraceSession::traceChanged, &window, [&] { opening = false; });
    const auto open = [&] {
        opening = true;
        window.openFile(file);
    };
    steps.push_back({"open (import or cache) + first view", open});
    for (const QString& t : tabs) steps.push_back({"tab " + t, [&, t] { showTab(window, t); }});
    for (int round = 0; round < 2; ++round)
        for (const QString& d : devices) {
            const int device = d.toInt();
            steps.push_back({QStringLiteral("device %1 (Allocations tab)").arg(device), [&, device] {
                                 showTab(window, "Allocations");
                                 window.snapshotPanel()->session()->setDevice(device);
                             }});
            steps.push_back(
                {QStringLiteral("device %1, tab Active Memory").arg(device), [&] { showTab(window, "Active Memory"); }});
            steps.push_back(
                {QStringLiteral("device %1, tab Allocator State").arg(device), [&] { showTab(window, "Allocator State"); }});
        }
    steps.push_back({"moment: end (Allocations tab)", [&] {
                         showTab(window, "Allocations");
                         SnapshotSession* s = window.snapshotPanel()->session();
                         s->setMoment(s->lastMoment());
                     }});
    steps.push_back({"moment: start", [&] { window.snapshotPanel()->session()->setMoment(-1); }});
    steps.push_back({"reopen the same file", open});

    std::printf("%-34s %9s %10s %8s %12s\n", "step", "action ms", "max gap ms", ">50 ms", "settled ms");
    StallMeter meter(&window, std::move(steps), p.value("dwell-ms").toInt(), &opening);
    QTimer::singleShot(500, &meter, [&] { meter.start(); });
    app.exec();
    double worst = 0;
    for (const Result& r : meter.results()) worst = std::max(worst, r.maxGapMs);
    std::printf("longest GUI-thread gap over all steps: %.1f ms\n", worst);
    return 0;
}
