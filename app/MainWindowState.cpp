// SPDX-License-Identifier: MIT
// MainWindow's view state, carried over when View > Language builds the window again: the
// open trace (reopened from its store, nothing re-imported), selection, zoom, tab, docks.
#include <QSplitter>
#include <QTabWidget>
#include <qcustomplot.h>

#include "MainWindow.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

namespace memviz {

MainWindow::ViewState MainWindow::viewState() const {
    ViewState s;
    if (session_->isOpen()) {
        s.storePath = session_->storePath();
        s.traceId = session_->traceId();
        s.source = openedSource_;
        s.selection = session_->selection();
        s.zoomLower = timeline_->plot()->xAxis->range().lower;
        s.zoomUpper = timeline_->plot()->xAxis->range().upper;
        s.tab = tabs_->currentIndex();
        s.highlightedOp = session_->highlightedOp();
    }
    s.docks = saveState();
    s.splitter = splitter_->saveState();
    s.fullScreen = windowState() & Qt::WindowFullScreen;
    return s;
}

void MainWindow::restoreViewState(const ViewState& s) {
    restoreState(s.docks);
    splitter_->restoreState(s.splitter);
    if (s.fullScreen) setWindowState(windowState() | Qt::WindowFullScreen);
    if (s.storePath.isEmpty()) return;
    try {
        showOpened(s.storePath, s.traceId, s.source);
    } catch (const std::exception& e) {
        onImportFailed(QString::fromUtf8(e.what()));
        return;
    }
    session_->setSelection(s.selection);
    if (!s.highlightedOp.isEmpty()) session_->setHighlightedOp(s.highlightedOp);
    if (s.zoomUpper > s.zoomLower) timeline_->plot()->xAxis->setRange(s.zoomLower, s.zoomUpper);
    if (s.tab >= 0 && s.tab < tabs_->count()) tabs_->setCurrentIndex(s.tab);
}

} // namespace memviz
