// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCryptographicHash>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

#include "Language.h"
#include "LiveActions.h"
#include "RecentFiles.h"
#include "core/Progress.h"
#include "words/Units.h"
#include "formats/FormatRegistry.h"
#include "formats/profiler/ProfilerQuery.h"
#include "store/StoreFiles.h"
#include "store/TraceQueries.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/compare/CompareWindow.h"
#include "widgets/compare/TraceChooser.h"
#include "widgets/ranks/RanksOpener.h"
#include "widgets/EmptyPage.h"
#include "widgets/Export.h"
#include "widgets/ImportPreview.h"
#include "widgets/ImportTask.h"
#include "widgets/MemoryEventsView.h"
#include "widgets/AllocationSitesView.h"
#include "widgets/MassifView.h"
#include "widgets/NativeTabs.h"
#include "widgets/flame/FlameTab.h"
#include "widgets/OpsView.h"
#include "widgets/ProfilerOpsView.h"
#include "widgets/ScreenFit.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/learn/LearnWindow.h"
#include "widgets/live/LiveTracePanel.h"
#include "widgets/snapshot/SnapshotPanel.h"
#include "widgets/whatif/WhatIfPanel.h"

namespace memviz {

namespace {

const char* const kSampleResource = ":/samples/sample_training_step.csv.gz";

QString fileDialogFilter() {
    QStringList all;
    QStringList filters;
    for (const auto& imp : allImporters()) {
        QStringList patterns;
        for (const auto& p : imp->filePatterns()) patterns << QString::fromStdString(p);
        all << patterns;
        filters << QStringLiteral("%1 (%2)").arg(QString::fromStdString(imp->displayName()), patterns.join(' '));
    }
    filters.prepend(QObject::tr("memviz store (*.memviz)"));
    filters.prepend(QObject::tr("All supported files (*.memviz %1)").arg(all.join(' ')));
    filters << QObject::tr("All files (*)");
    return filters.join(QStringLiteral(";;"));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), session_(new TraceSession(this)), timeline_(new TimelinePlot(session_, this)),
      opsView_(new OpsView(session_, this)), profilerOpsView_(new ProfilerOpsView(session_, this)),
      memoryEventsView_(new MemoryEventsView(session_, this)), whatIf_(new WhatIfPanel(this)),
      whatIfDock_(new QDockWidget(tr("What-if: memory of one training step"), this)),
      splitter_(new QSplitter(Qt::Vertical, this)), pages_(new QStackedWidget(this)), emptyPage_(new EmptyPage(this)),
      tabs_(new QTabWidget(this)), import_(new ImportTask(this)), preview_(new ImportPreview(this)), fileLabel_(new QLabel(this)),
      formatLabel_(new QLabel(this)), devicesLabel_(new QLabel(this)), peakLabel_(new QLabel(this)),
      progress_(new QProgressBar(this)), cancel_(new QPushButton(tr("Cancel"), this)) {
    setWindowTitle(tr("memviz"));
    setAcceptDrops(true);
    tabs_->setDocumentMode(true);
    nativeTabs_ = new NativeTabs(session_, tabs_, timeline_, this);
    snapshotPanel_ = new SnapshotPanel(session_, tabs_, timeline_, this);
    // After SnapshotPanel (which clears overlays first). It also follows a store that another
    // memviz is recording into.
    (new LiveTracePanel(session_, timeline_, this))->setWatching(true);
    splitter_->addWidget(timeline_);
    splitter_->addWidget(tabs_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    pages_->addWidget(emptyPage_);
    pages_->addWidget(splitter_);
    pages_->addWidget(preview_);
    setCentralWidget(pages_);
    connect(emptyPage_, &EmptyPage::openRequested, this,
            [this] { findChild<QAction*>(QStringLiteral("openAction"))->trigger(); });
    connect(emptyPage_, &EmptyPage::sampleRequested, this, &MainWindow::openSample);
    connect(emptyPage_, &EmptyPage::recentRequested, this, &MainWindow::openFile);
    connect(emptyPage_, &EmptyPage::learnRequested, this, [this] { openLearn(); });
    whatIf_->setSession(session_);
    whatIfDock_->setObjectName("whatIfDock");
    whatIfDock_->setWidget(whatIf_);
    addDockWidget(Qt::BottomDockWidgetArea, whatIfDock_);
    whatIfDock_->hide();

    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->setVisible(false);
    cancel_->setVisible(false);
    statusBar()->addWidget(fileLabel_, 1);
    statusBar()->addWidget(formatLabel_);
    statusBar()->addWidget(devicesLabel_);
    statusBar()->addWidget(peakLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    connect(cancel_, &QPushButton::clicked, import_, &ImportTask::cancel);
    connect(import_, &ImportTask::progress, this, [this](int permille, const QString& phase) {
        progress_->setFormat(tr("%1 %p%").arg(phase));
        progress_->setValue(permille);
    });
    connect(import_, &ImportTask::succeeded, this,
            [this](const QString& store, qint64 id, bool) { onImportSucceeded(store, id); });
    connect(import_, &ImportTask::failed, this, &MainWindow::onImportFailed);
    // The live preview takes the empty page's place; an open trace stays on screen (docs/gui.md).
    connect(import_, &ImportTask::preview, this, [this](const PreviewBatch& batch) {
        preview_->add(batch);
        if (!session_->isOpen() && preview_->hasPoints()) pages_->setCurrentWidget(preview_);
    });
    connect(import_, &ImportTask::previewRestarted, preview_, &ImportPreview::restart);
    connect(import_, &ImportTask::cancelled, this, [this] {
        setBusy(false);
        statusBar()->showMessage(tr("Import cancelled; nothing was stored."), 5000);
        if (!session_->isOpen()) emptyPage_->setNotice(tr("Import of %1 cancelled; nothing was stored.").arg(import_->path()));
    });
    connect(timeline_, &TimelinePlot::hoverTextChanged, this, [this](const QString& t) { statusBar()->showMessage(t, 3000); });
    connect(session_, &TraceSession::traceChanged, this, &MainWindow::updateStatus);
    connect(session_, &TraceSession::traceChanged, this, &MainWindow::updateTabs);
    connect(session_, &TraceSession::traceChanged, this, &MainWindow::updateCentralPage);
    // After updateTabs: a new trace opens at its first own tab (Operators, Active Memory,
    // Allocation Sites...), with Flame added after them.
    new FlameTab(session_, tabs_, timeline_, this);

    createActions();
    updateTabs();
    updateCentralPage();
    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(sizeFittedToScreen(this, {1280, 820}));
    restoreState(settings.value("window/state").toByteArray());
    if (!splitter_->restoreState(settings.value("window/splitter").toByteArray())) splitter_->setSizes({560, 300});
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open trace"), QSettings().value("lastDir").toString(),
                                                          fileDialogFilter());
        if (!path.isEmpty()) {
            QSettings().setValue("lastDir", QFileInfo(path).absolutePath());
            openFile(path);
        }
    });
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("openAction"));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open &Sample Trace"), this, &MainWindow::openSample);
    QAction* compare = file->addAction(tr("&Compare With…"), this, [this] {
        if (!session_->isOpen()) {
            QMessageBox::information(this, tr("Compare"), tr("Open a trace first; it becomes trace A of the comparison."));
            return;
        }
        const QString path = QFileDialog::getOpenFileName(this, tr("Compare with trace"), QSettings().value("lastDir").toString(),
                                                          fileDialogFilter());
        if (!path.isEmpty()) compareWith(path);
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compare->setObjectName(QStringLiteral("compareAction"));
    file->addAction(tr("Compare With a Trace of This Store…"), this, [this] {
            if (session_->isOpen()) compareWith(session_->storePath());
        })->setObjectName(QStringLiteral("compareInStoreAction"));
    // Every rank of a distributed job (issue 13): a folder of rank files, or this store's ranks;
    // a store holding a job's probe recordings opens the Ranks window by itself.
    auto* ranksOpener = new RanksOpener(this);
    ranksOpener->setObjectName(QStringLiteral("ranksOpener"));
    connect(session_, &TraceSession::traceChanged, ranksOpener, [this, ranksOpener] {
        if (session_->isOpen()) ranksOpener->storeOpened(session_->storePath());
    });
    // A rank chosen in the Ranks window (its full store, when reachable) opens here.
    connect(ranksOpener, &RanksOpener::traceRequested, this, [this](const QString& store, qint64 traceId) { openStoreNow(store, traceId); });
    const auto openRanks = [ranksOpener](const QStringList& paths) { ranksOpener->open(paths); };
    file->addAction(tr("Open Ran&ks…"), this, [this, openRanks] {
            const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder of rank files (rank0…, rank1…)"),
                                                                  QSettings().value("lastDir").toString());
            if (!dir.isEmpty()) openRanks({dir});
        })->setObjectName(QStringLiteral("openRanksAction"));
    file->addAction(tr("Ranks of This Store"), this, [this, openRanks] {
            if (session_->isOpen()) openRanks({session_->storePath()});
        })->setObjectName(QStringLiteral("storeRanksAction"));
    file->addSeparator();
    file->addAction(tr("Export &Timeline (PNG, SVG, PDF)…"), this, &MainWindow::exportTimeline);
    file->addAction(tr("Export Ta&ble as CSV…"), this, &MainWindow::exportTable);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* record = menuBar()->addMenu(tr("&Record"));
    liveActions_ = new LiveActions(this, record);
    recordMenu_ = record;
    emptyPage_->setRecordActions(record->actions());
    connect(liveActions_, &LiveActions::openRecording, this, [this](const QString& store, qint64 traceId) {
        try {
            openStoreNow(store, traceId); // the views read on their workers: the window stays responsive
            raise();
            activateWindow();
        } catch (const std::exception& e) {
            onImportFailed(QString::fromUtf8(e.what()));
        }
    });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* reset = view->addAction(tr("&Reset Zoom"), timeline_, &TimelinePlot::resetZoom);
    reset->setShortcut(Qt::Key_Home);
    QAction* clear = view->addAction(tr("&Clear Selection"), this, [this] { session_->setSelection(std::nullopt); });
    clear->setShortcut(Qt::Key_Escape);
    QAction* fullScreen = view->addAction(tr("&Full Screen"), this, &MainWindow::toggleFullScreen);
    fullScreen->setShortcut(QKeySequence(Qt::Key_F11));
    fullScreen->setCheckable(true);
    QAction* find = view->addAction(tr("&Filter Table"), this, [this] {
        if (auto* table = qobject_cast<AsyncTableView*>(tabs_->currentWidget())) {
            table->filterEdit()->setFocus();
            table->filterEdit()->selectAll();
        }
    });
    find->setShortcut(QKeySequence::Find);
    // The tabs under the timeline, wherever the focus is (the tab bar's own Ctrl+Tab works only
    // while the focus is inside the tabs).
    const auto cycleTab = [this](int step) {
        if (tabs_->isVisible() && tabs_->count() > 1)
            tabs_->setCurrentIndex((tabs_->currentIndex() + step + tabs_->count()) % tabs_->count());
    };
    QAction* nextTab = view->addAction(tr("Ne&xt Tab"), this, [cycleTab] { cycleTab(1); });
    nextTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    nextTab->setObjectName(QStringLiteral("nextTabAction"));
    QAction* previousTab = view->addAction(tr("&Previous Tab"), this, [cycleTab] { cycleTab(-1); });
    previousTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    previousTab->setObjectName(QStringLiteral("previousTabAction"));
    view->addSeparator();
    QAction* whatIf = whatIfDock_->toggleViewAction();
    whatIf->setText(tr("&What-If Panel"));
    whatIf->setShortcut(Qt::CTRL | Qt::Key_E);
    view->addAction(whatIf);
    view->addSeparator();
    createLanguageMenu(view);

    QMenu* learn = menuBar()->addMenu(tr("&Learn"));
    QAction* lessons = learn->addAction(tr("&Lessons…"), this, [this] { openLearn(); });
    lessons->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    QAction* decoder = learn->addAction(tr("&OOM Decoder…"), this, [this] { openLearn(QStringLiteral("oom-decoder")); });
    decoder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&How to Use the Timeline"), this, [this] {
        QMessageBox::information(this, tr("Timeline"),
                                 tr("Wheel: zoom the time axis. Drag: pan.\n"
                                    "Shift+drag or right-drag: select a time window; the operator table then shows "
                                    "only that window.\nDouble-click or Esc: clear the selection. Home: whole trace."));
    });
    help->addAction(tr("&About memviz"), this, [this] {
        QMessageBox::about(this, tr("About memviz"),
                           tr("memviz %1\nSee where memory went, and what to change.").arg(MEMVIZ_VERSION));
    });
    updateRecentMenu();
}

void MainWindow::createLanguageMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Language"));
    auto* group = new QActionGroup(menu);
    const QString chosen = language::saved();
    const auto add = [&](const QString& text, const QString& code) {
        QAction* a = menu->addAction(text);
        a->setCheckable(true);
        a->setChecked(code == chosen);
        a->setData(code);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            if (code == language::saved()) return;
            language::save(code);
            if (language::resolve(code) != language::current()) {
                language::apply(language::resolve(code));
                emit languageChangeRequested();
            }
        });
    };
    add(tr("Follow the &System"), QString());
    menu->addSeparator();
    for (const QString& code : language::available()) add(language::nativeName(code), code);
}

LearnWindow* MainWindow::learnWindow() {
    if (!learn_) {
        learn_ = new LearnWindow(this);
        connect(learn_, &LearnWindow::whatIfRequested, this, &MainWindow::showWhatIf);
    }
    return learn_;
}

void MainWindow::showWhatIf(const WhatIfScenario& scenario) {
    whatIf_->selectPreset(scenario.presetId);
    whatIf_->setOptions(scenario.options);
    whatIfDock_->show();
    whatIfDock_->raise();
    // Presenting in full screen, the Learn window would hide the main window: bring it up.
    if (learn_ && learn_->presenterMode()) learn_->setPresenterMode(false);
    raise();
    activateWindow();
}

void MainWindow::openLearn(const QString& lessonId) {
    LearnWindow* w = learnWindow();
    if (!lessonId.isEmpty()) w->showLesson(lessonId);
    w->show();
    w->raise();
    w->activateWindow();
}

void MainWindow::exportTimeline() {
    const QString path = exporting::exportPlotInteractively(timeline_->plot(), this, QStringLiteral("timeline"));
    if (!path.isEmpty()) statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

void MainWindow::exportTable() {
    auto* table = qobject_cast<AsyncTableView*>(tabs_->currentWidget());
    QTableView* view = table                    ? table->table()
                       : tabs_->currentWidget() ? tabs_->currentWidget()->findChild<QTableView*>()
                                                : nullptr;
    if (!view || !view->model()) {
        statusBar()->showMessage(tr("The current tab has no table."), 4000);
        return;
    }
    const QString name = tabs_->tabText(tabs_->currentIndex()).remove('&').toLower().replace(' ', '-');
    const QString path = exporting::exportTableInteractively(view->model(), this, name);
    if (!path.isEmpty()) statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList files = recent::files();
    for (const QString& f : files) recentMenu_->addAction(f, this, [this, f] { openFile(f); });
    if (!files.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("Clear List"), this, [this] {
            recent::clear();
            updateRecentMenu();
        });
    }
    recentMenu_->setEnabled(!files.isEmpty());
    emptyPage_->setRecentFiles(files);
}

void MainWindow::toggleFullScreen() {
    setWindowState(windowState() ^ Qt::WindowFullScreen);
    for (QAction* a : findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::Key_F11)) a->setChecked(windowState() & Qt::WindowFullScreen);
}

void MainWindow::updateCentralPage() {
    pages_->setCurrentWidget(session_->isOpen() ? static_cast<QWidget*>(splitter_) : emptyPage_);
    if (session_->isOpen()) emptyPage_->setNotice(QString());
}

QString MainWindow::importStoreFor(const QString& path) {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/imports";
    QDir().mkpath(dir);
    const QByteArray key = QCryptographicHash::hash(QFileInfo(path).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1);
    return dir + "/" + QString::fromLatin1(key.toHex().left(16)) + ".memviz";
}

void MainWindow::openFile(const QString& path) {
    if (import_->isRunning()) {
        statusBar()->showMessage(tr("An import is still running; cancel it first."), 5000);
        return;
    }
    setBusy(true);
    preview_->start(path);
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    import_->start(path, importStoreFor(path));
}

void MainWindow::openStoreNow(const QString& path, qint64 traceId) {
    const OpenedTrace t = openTrace(path.toStdString(), importStoreFor(path).toStdString(), Progress{}, traceId,
                                    ImportStore::Cache);
    showOpened(QString::fromStdString(t.storePath), t.traceId, path);
}

void MainWindow::openFileBlocking(const QString& path, qint64 traceId) {
    openStoreNow(path, traceId);
    // The views read off the GUI thread (BackgroundQuery); a blocking open shows their results,
    // and a result may start another read (the snapshot session's allocations start layouts).
    for (bool pending = true; pending;) {
        pending = false;
        for (BackgroundQuery* query : findChildren<BackgroundQuery*>())
            if (query->isPending()) {
                query->wait();
                pending = true;
            }
    }
}

namespace {

QString sampleFilePath() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/samples";
    QDir().mkpath(dir);
    const QString target = dir + "/sample_training_step.csv.gz";
    QFile resource(kSampleResource);
    if (QFileInfo(target).size() != resource.size()) {
        QFile::remove(target);
        resource.copy(target);
    }
    return target;
}

} // namespace

void MainWindow::openSample() { openFile(sampleFilePath()); }

void MainWindow::openInitial() {
    const QStringList files = recent::files();
    if (!files.isEmpty() && QFileInfo::exists(files.first())) openFile(files.first());
    else openSample();
}

void MainWindow::onImportSucceeded(const QString& storePath, qint64 traceId) {
    setBusy(false);
    try {
        showOpened(storePath, traceId, import_->path());
        statusBar()->showMessage(tr("Opened %1").arg(import_->path()), 4000);
    } catch (const std::exception& e) {
        onImportFailed(QString::fromUtf8(e.what()));
    }
}

void MainWindow::showOpened(const QString& storePath, qint64 traceId, const QString& sourcePath) {
    session_->open(storePath, traceId);
    openedSource_ = sourcePath;
    if (!sourcePath.startsWith(QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/samples")) {
        recent::add(QFileInfo(sourcePath).absoluteFilePath());
        updateRecentMenu();
    }
    setWindowTitle(tr("%1 – memviz").arg(QFileInfo(sourcePath).fileName()));
}

void MainWindow::compareWith(const QString& path) {
    // A store of several traces: which one (a raw file is imported by the window, as before).
    std::optional<ChosenTrace> chosen;
    if (isStoreFile(path.toStdString())) {
        try {
            chosen = chooseTraceOf(this, path, QFileInfo(path) == QFileInfo(session_->storePath()) ? session_->traceId() : 0);
            if (!chosen) return; // cancelled, or a store without traces (the window would say so)
        } catch (const std::exception& e) {
            QMessageBox::warning(this, tr("Cannot compare"), tr("Cannot read %1: %2").arg(path, QString::fromUtf8(e.what())));
            return;
        }
    }
    auto* window = new CompareWindow(this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    QString nameA = QFileInfo(openedSource_).fileName();
    if (QFileInfo(openedSource_) == QFileInfo(session_->storePath())) nameA += "#" + QString::number(session_->traceId());
    if (chosen) window->compare(session_->storePath(), session_->traceId(), nameA, path, chosen->id, chosen->label);
    else window->compareWithFile(session_->storePath(), session_->traceId(), nameA, path, importStoreFor(path));
    window->show();
}

void MainWindow::onImportFailed(const QString& message) {
    setBusy(false);
    statusBar()->clearMessage();
    // Importers' messages name the file already.
    if (!session_->isOpen())
        emptyPage_->setNotice(message.contains(import_->path()) ? message
                                                                : tr("Could not open %1: %2").arg(import_->path(), message));
    QMessageBox::warning(this, tr("Cannot open file"), message);
}

void MainWindow::setBusy(bool busy) {
    progress_->setFormat(QStringLiteral("%p%"));
    progress_->setValue(0);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    if (busy) return;
    preview_->clear(); // the import ended (done, failed or cancelled)
    if (pages_->currentWidget() == preview_) updateCentralPage();
}

void MainWindow::updateStatus() {
    if (!session_->isOpen()) {
        fileLabel_->setText(tr("No trace open – Ctrl+O to open one, or drop a file here"));
        formatLabel_->clear();
        devicesLabel_->clear();
        peakLabel_->clear();
        return;
    }
    const TraceSummary& s = session_->summary();
    fileLabel_->setText(QString::fromStdString(s.trace.sourcePath));
    formatLabel_->setText(QString::fromStdString(s.trace.format));
    QStringList devices, peaks;
    for (const DeviceSummary& d : s.devices) {
        devices << QString::fromStdString(d.name);
        peaks << tr("%1 peak %2")
                     .arg(QString::fromStdString(d.name), QString::fromStdString(formatBytes(static_cast<double>(d.peakBytes))));
    }
    devicesLabel_->setText(devices.isEmpty() ? tr("no memory recorded") : tr("devices: %1").arg(devices.join(", ")));
    peakLabel_->setText(peaks.join("  "));
}

void MainWindow::updateTabs() {
    bool profiler = false, allocations = false, ops = false;
    if (session_->isOpen()) {
        Database& db = session_->database();
        profiler = hasProfilerCalls(db, session_->traceId());
        allocations = countAllocations(db, session_->traceId()) > 0;
        ops = !profiler && session_->summary().trace.eventCount > 0;
    }
    // Only these views are placed here, first; format-specific panels place their own tabs.
    int next = 0;
    const auto place = [this, &next](AsyncTableView* view, bool wanted, const QString& title) {
        view->setActive(wanted);
        const int at = tabs_->indexOf(view);
        if (at >= 0) tabs_->removeTab(at);
        if (wanted) tabs_->insertTab(next++, view, title);
        else view->hide();
    };
    place(profilerOpsView_, profiler, tr("&Operators"));
    place(opsView_, ops, tr("&Operators"));
    place(memoryEventsView_, allocations, tr("&Memory Events"));
    // A new trace opens at its first tab (Operators), or at its native view (heaptrack's
    // allocation sites, massif's heap tree), whatever tab the previous trace was on: the first
    // file of a window opened a snapshot at Active Memory, the next ones at Operators.
    QWidget* native = nullptr;
    for (QWidget* v : {static_cast<QWidget*>(nativeTabs_->sitesView()), static_cast<QWidget*>(nativeTabs_->massifView())})
        if (tabs_->indexOf(v) >= 0) native = v;
    if (native) tabs_->setCurrentWidget(native);
    else if (tabs_->count() > 0) tabs_->setCurrentIndex(0);
    tabs_->setVisible(tabs_->count() > 0);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    import_->cancel();
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/splitter", splitter_->saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) openFile(urls.first().toLocalFile());
}

} // namespace memviz
