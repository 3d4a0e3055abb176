// SPDX-License-Identifier: MIT
// GUI-thread stall benchmark (issue 12: "no GUI-thread stall over 50 ms"). Opens a file in the
// real main window, walks every tab it shows (and the tabs nested in them), and for a CUDA
// snapshot also switches the device and the moment; it records, per step, the longest gap
// between two ticks of a 5 ms QTimer on the GUI thread: work on the GUI thread shows as a gap
// as long as the work; "action ms" is the time of the step's own call (setDevice, setMoment,
// setCurrentIndex) before it returns to the event loop. A measurement, not a test.
//
//   bench_gui_stall FILE [--devices A,B] [--dwell-ms 600] [--no-reopen] [--shots DIR]
//
// Works for every kind of trace memviz opens (snapshots, profiler traces, memory timelines,
// heaptrack, massif, allocation logs, stores). Run it in a real window (xvfb-run) or with
// QT_QPA_PLATFORM=offscreen; see bench/gui_stall/run_gui_stall.sh and run_fixtures.sh. The
// import runs in a child process, as in the window: the memviz binary (MEMVIZ_IMPORT_WORKER,
// by default ../app/memviz beside this one). A step ends when no BackgroundQuery of the
// window is pending any more and at least --dwell-ms passed; its time to settle is printed too.
// MEMVIZ_BENCH_LOG_EVENTS_MS=N also prints every event longer than N ms as it happens, with
// its type and its receiver's object names or classes up to two parents (which view held
// the thread). The meter's own 5 ms tick looks for pending queries in the whole window
// (perf: about 0.2 s of GUI-thread time over a whole walk of the 157 MB snapshot, spread
// over thousands of ticks); it never runs inside another event.
#include <QApplication>
#include <QEvent>
#include <QMetaEnum>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <deque>
#include <functional>
#include <vector>

#include "MainWindow.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/SnapshotPanel.h"
#include "widgets/snapshot/SnapshotSession.h"

using namespace memviz;

namespace {

// Times every event the GUI thread's event loop delivers (outermost only) and keeps the
// longest since the last take(): which object and which event held the thread.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        if (depth_++ > 0) {
            const bool r = QApplication::notify(receiver, event);
            --depth_;
            return r;
        }
        QElapsedTimer t;
        t.start();
        // Neither the event nor the receiver may outlive notify() (DeferredDelete).
        const int type = event->type();
        const QMetaObject* meta = receiver ? receiver->metaObject() : nullptr;
        const QString where = logOverMs_ > 0 && receiver ? whereIs(receiver) : QString();
        const bool r = QApplication::notify(receiver, event);
        --depth_;
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        if (ms > longestMs_) {
            longestMs_ = ms;
            longestWhat_ = describe(meta, type);
        }
        if (logOverMs_ > 0 && ms > logOverMs_)
            std::fprintf(stderr, "  event %.1f ms: %s (%s)\n", ms, qPrintable(describe(meta, type)), qPrintable(where));
        return r;
    }
    // The longest event since the last call, and what it was; resets.
    std::pair<double, QString> take() {
        auto r = std::make_pair(longestMs_, longestWhat_);
        longestMs_ = 0;
        longestWhat_.clear();
        return r;
    }

private:
    static QString describe(const QMetaObject* meta, int type) {
        const char* name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
        return QString::fromLatin1(meta ? meta->className() : "?") + " " + (name ? QString::fromLatin1(name) : QString::number(type));
    }
    // The receiver's object name and its parents' classes, e.g. "timeline < TimelinePlot".
    static QString whereIs(const QObject* o) {
        QStringList parts;
        for (int i = 0; o && i < 3; o = o->parent(), ++i)
            parts << (o->objectName().isEmpty() ? QString::fromLatin1(o->metaObject()->className()) : o->objectName());
        return parts.join(QStringLiteral(" < "));
    }
    int depth_ = 0;
    // MEMVIZ_BENCH_LOG_EVENTS_MS=N: every outermost event longer than N ms goes to stderr.
    const double logOverMs_ = qEnvironmentVariableIntValue("MEMVIZ_BENCH_LOG_EVENTS_MS");
    double longestMs_ = 0;
    QString longestWhat_;
};

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
    double longestEventMs = 0;
    QString longestEvent; // the receiver's class and the event's type
};

class StallMeter : public QObject {
public:
    explicit StallMeter(MainWindow* window, std::deque<Step> steps, int dwellMs, const bool* opening, QString shots)
        : window_(window), steps_(std::move(steps)), dwellMs_(dwellMs), opening_(opening), shots_(std::move(shots)) {
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
    // Steps added while the run goes on (e.g. the tabs of the trace once it is open) run next.
    void insertNext(std::vector<Step> steps) { steps_.insert(steps_.begin(), steps.begin(), steps.end()); }

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
        auto* app = static_cast<TimedApplication*>(QCoreApplication::instance());
        const auto [eventMs, event] = app->take();
        if (!results_.empty()) {
            Result& r = results_.back();
            if (!shots_.isEmpty()) // what the step left on screen (after the gaps were measured)
                window_->grab().save(QStringLiteral("%1/step%2.png").arg(shots_).arg(results_.size(), 2, 10, QChar('0')));
            r.longestEventMs = eventMs;
            r.longestEvent = event;
            std::printf("%-48s %9.1f %10.1f %8d %12.0f %9.1f  %s\n", qPrintable(r.name), r.actionMs, r.maxGapMs, r.gapsOver50,
                        r.settleMs, r.longestEventMs, qPrintable(r.longestEvent));
            std::fflush(stdout);
        }
        if (steps_.empty()) {
            tick_.stop();
            poll_.stop();
            QApplication::quit();
            return;
        }
        const Step step = std::move(steps_.front());
        steps_.pop_front();
        Result r;
        r.name = step.name;
        results_.push_back(r);
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
    std::deque<Step> steps_;
    int dwellMs_;
    const bool* opening_; // an import runs in the child process
    QString shots_;       // a folder for a screenshot after each step, or empty
    QTimer tick_, poll_;
    QElapsedTimer clock_;
    qint64 last_ = 0, stepStart_ = 0;
    bool settled_ = false;
    std::vector<Result> results_;
};

void showTab(MainWindow& w, const QString& title) {
    QTabWidget* tabs = w.detailTabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i).remove('&').startsWith(title)) tabs->setCurrentIndex(i);
}

QString tabName(const QTabWidget* tabs, int i) { return tabs->tabText(i).remove('&'); }

// The tab widget a widget sits in, nearest first.
const QTabWidget* enclosingTabs(const QWidget* w) {
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (const auto* t = qobject_cast<const QTabWidget*>(p)) return t;
    return nullptr;
}

// One step per tab of `tabs` that is enabled, and after each, the tabs nested in its page.
void addTabSteps(std::vector<Step>& steps, QTabWidget* tabs, const QString& prefix, StallMeter* meter) {
    for (int i = 0; i < tabs->count(); ++i) {
        if (!tabs->isTabEnabled(i) || !tabs->isTabVisible(i)) continue;
        const QString name = prefix + tabName(tabs, i);
        steps.push_back({"tab " + name, [tabs, i, name, meter] {
                             tabs->setCurrentIndex(i);
                             // Nested tab widgets of this page: walked right after it.
                             std::vector<Step> nested;
                             for (QTabWidget* inner : tabs->widget(i)->findChildren<QTabWidget*>())
                                 if (enclosingTabs(inner) == tabs && inner->isVisible()) addTabSteps(nested, inner, name + " / ", meter);
                             meter->insertNext(std::move(nested));
                         }});
    }
}

} // namespace

int main(int argc, char** argv) {
    Q_INIT_RESOURCE(memviz);
    QCoreApplication::setOrganizationName("memviz-bench");
    QCoreApplication::setApplicationName("bench_gui_stall");
    TimedApplication app(argc, argv);
    if (qEnvironmentVariableIsEmpty("MEMVIZ_IMPORT_WORKER"))
        qputenv("MEMVIZ_IMPORT_WORKER", (QCoreApplication::applicationDirPath() + "/../app/memviz").toLocal8Bit());
    QCommandLineParser p;
    p.addPositionalArgument("file", "the trace to open (a snapshot pickle, a .memviz store, ...)");
    p.addOption({"devices", "snapshot devices to switch between", "A,B", "0,1"});
    p.addOption({"dwell-ms", "the least time one step lasts", "ms", "600"});
    p.addOption({"no-reopen", "do not open the file a second time at the end"});
    p.addOption({"shots", "save a screenshot of the window after each step into DIR (stepNN.png)", "DIR"});
    p.addHelpOption();
    p.process(app);
    if (p.positionalArguments().size() != 1) p.showHelp(2);
    const QString file = p.positionalArguments().first();
    const QStringList devices = p.value("devices").split(',');

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    std::deque<Step> steps;
    bool opening = false;
    QObject::connect(window.session(), &TraceSession::traceChanged, &window, [&] { opening = false; });
    const auto open = [&] {
        opening = true;
        window.openFile(file);
    };
    StallMeter* meter = nullptr;
    steps.push_back({"open (import or cache) + first view", open});
    // Once the trace is open: its tabs, then for a snapshot of several devices the device and
    // moment switches.
    steps.push_back({"(trace open: list its tabs)", [&] {
                         std::vector<Step> more;
                         addTabSteps(more, window.detailTabs(), QString(), meter);
                         SnapshotSession* s = window.snapshotPanel()->session();
                         const bool snapshot = s->isActive();
                         if (snapshot && s->overview().devices.size() > 1) {
                             for (int round = 0; round < 2; ++round)
                                 for (const QString& d : devices) {
                                     const int device = d.toInt();
                                     more.push_back({QStringLiteral("device %1 (Allocations tab)").arg(device), [&, device] {
                                                         showTab(window, "Allocations");
                                                         window.snapshotPanel()->session()->setDevice(device);
                                                     }});
                                     more.push_back({QStringLiteral("device %1, tab Active Memory").arg(device),
                                                     [&] { showTab(window, "Active Memory"); }});
                                     more.push_back({QStringLiteral("device %1, tab Allocator State").arg(device),
                                                     [&] { showTab(window, "Allocator State"); }});
                                 }
                         }
                         if (snapshot) {
                             more.push_back({"moment: end (Allocations tab)", [&] {
                                                 showTab(window, "Allocations");
                                                 SnapshotSession* session = window.snapshotPanel()->session();
                                                 session->setMoment(session->lastMoment());
                                             }});
                             more.push_back({"moment: start", [&] { window.snapshotPanel()->session()->setMoment(-1); }});
                         }
                         if (!p.isSet("no-reopen")) more.push_back({"reopen the same file", open});
                         meter->insertNext(std::move(more));
                     }});

    std::printf("%-48s %9s %10s %8s %12s %9s  %s\n", "step", "action ms", "max gap ms", ">50 ms", "settled ms", "event ms",
                "longest event");
    StallMeter stallMeter(&window, std::move(steps), p.value("dwell-ms").toInt(), &opening, p.value("shots"));
    meter = &stallMeter;
    QTimer::singleShot(500, &stallMeter, [&] { stallMeter.start(); });
    app.exec();
    const Result* gap = nullptr;
    const Result* event = nullptr;
    for (const Result& r : stallMeter.results()) {
        if (!gap || r.maxGapMs > gap->maxGapMs) gap = &r;
        if (!event || r.longestEventMs > event->longestEventMs) event = &r;
    }
    if (gap && event)
        std::printf("longest: gap %.1f ms in \"%s\"; event %.1f ms in \"%s\": %s\n", gap->maxGapMs, qPrintable(gap->name),
                    event->longestEventMs, qPrintable(event->name), qPrintable(event->longestEvent));
    return 0;
}
