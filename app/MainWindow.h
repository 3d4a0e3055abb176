// SPDX-License-Identifier: MIT
#pragma once
// The main window: wiring only. It opens files (dialog, drag-and-drop, recent files) through
// an ImportTask, shows the TraceSession in the timeline and the operator table, and keeps
// the status bar and the window state. With no trace open it shows the EmptyPage.
#include <QMainWindow>
#include <optional>

#include "store/SeriesQuery.h"

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace memviz {

class EmptyPage;
class LiveActions;
class MemoryEventsView;
class ImportPreview;
class ImportTask;
class LearnWindow;
struct WhatIfScenario;
class ProfilerOpsView;
class NativeTabs;
class OpsView;
class RecentFiles;
class SnapshotPanel;
class TimelinePlot;
class TraceSession;
class WhatIfPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // What a rebuilt window (after View > Language) takes over: the open trace, the
    // selection, the zoom, the detail tab, the docks and splitter, full screen.
    struct ViewState {
        QString storePath;
        qint64 traceId = 0;
        QString source;
        std::optional<TimeRange> selection;
        double zoomLower = 0, zoomUpper = 0;
        int tab = -1;
        QString highlightedOp;
        QByteArray docks, splitter;
        bool fullScreen = false;
    };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a trace or store in the background (progress in the status bar).
    void openFile(const QString& path);
    // Opens the bundled sample trace.
    void openSample();
    // Opens synchronously, for the screenshot command and tests, and waits for the views' reads
    // (BackgroundQuery) so they show their results. Throws on failure.
    void openFileBlocking(const QString& path, qint64 traceId = 0);
    // Opens on this thread without waiting for the views' reads (a finished recording's store).
    void openStoreNow(const QString& path, qint64 traceId = 0);
    // Opens what the user had last, or the sample on the first start.
    void openInitial();

    TraceSession* session() const { return session_; }
    TimelinePlot* timeline() const { return timeline_; }
    OpsView* opsView() const { return opsView_; }
    ProfilerOpsView* profilerOpsView() const { return profilerOpsView_; }
    MemoryEventsView* memoryEventsView() const { return memoryEventsView_; }
    // The CUDA memory snapshot views (tabs shown only for snapshot traces).
    SnapshotPanel* snapshotPanel() const { return snapshotPanel_; }
    // The what-if panel (cost model), in a dock that View > What-If Panel (Ctrl+E) shows.
    WhatIfPanel* whatIfPanel() const { return whatIf_; }
    QDockWidget* whatIfDock() const { return whatIfDock_; }
    // The views under the timeline, one tab each (operators, and format-specific views).
    QTabWidget* detailTabs() const { return tabs_; }
    NativeTabs* nativeTabs() const { return nativeTabs_; }
    // The Record menu: attach, launch and record, wait for the probe.
    LiveActions* liveActions() const { return liveActions_; }
    // Where raw traces are imported (one store per source file, in the user's cache).
    static QString importStoreFor(const QString& path);
    // The file shown (raw trace or store), "" when none; a file that failed to open is not.
    QString openedSource() const { return openedSource_; }
    ViewState viewState() const;
    // Shows what viewState() captured (the store opens at once: nothing is re-imported).
    void restoreViewState(const ViewState& state);
    // What is shown when no trace is open.
    EmptyPage* emptyPage() const { return emptyPage_; }
    // The Learn mode window (created on first use) and opening it on a lesson ("" = as it was).
    LearnWindow* learnWindow();
    void openLearn(const QString& lessonId = QString());
    // File › Compare With…: the open trace (A) against `path` (B) in a Compare window.
    void compareWith(const QString& path);
    // Shows a lesson's model and knobs in the what-if panel.
    void showWhatIf(const WhatIfScenario& scenario);

signals:
    // The user picked another language in View > Language: the host rebuilds the windows.
    void languageChangeRequested();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createLanguageMenu(QMenu* view);
    void exportTimeline();
    void exportTable();
    void updateStatus();
    // Shows the detail tabs that the open trace has data for.
    void updateTabs();
    void updateRecentMenu();
    void onImportSucceeded(const QString& storePath, qint64 traceId);
    void onImportFailed(const QString& message);
    void setBusy(bool busy);
    // The empty page when no trace is open, else the timeline and tables.
    void updateCentralPage();
    void toggleFullScreen();
    void showOpened(const QString& storePath, qint64 traceId, const QString& sourcePath);

    TraceSession* session_;
    TimelinePlot* timeline_;
    OpsView* opsView_;
    ProfilerOpsView* profilerOpsView_;
    MemoryEventsView* memoryEventsView_;
    SnapshotPanel* snapshotPanel_;
    WhatIfPanel* whatIf_;
    QDockWidget* whatIfDock_;
    QSplitter* splitter_;
    QStackedWidget* pages_;
    EmptyPage* emptyPage_;
    QMenu* recordMenu_ = nullptr;
    QTabWidget* tabs_;
    NativeTabs* nativeTabs_;
    LiveActions* liveActions_ = nullptr;
    ImportTask* import_;
    ImportPreview* preview_; // the import's live memory curve, while no trace is open
    RecentFiles* recent_;
    QMenu* recentMenu_ = nullptr;
    QLabel* fileLabel_;
    QLabel* formatLabel_;
    QLabel* devicesLabel_;
    QLabel* peakLabel_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QString openedSource_;
    LearnWindow* learn_ = nullptr;
};

} // namespace memviz
