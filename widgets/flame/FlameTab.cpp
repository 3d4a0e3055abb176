// SPDX-License-Identifier: MIT
#include "widgets/flame/FlameTab.h"

#include <QTabWidget>

#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"
#include "widgets/flame/FlameView.h"

namespace memviz {

FlameTab::FlameTab(TraceSession* session, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent)
    : QObject(parent), session_(session), tabs_(tabs), view_(new FlameView(session, tabs)) {
    view_->hide();
    connect(session_, &TraceSession::traceChanged, this, &FlameTab::update);
    connect(timeline, &TimelinePlot::timeClicked, view_, [this](std::int64_t x) { view_->setMoment(x); });
    update();
}

void FlameTab::update() {
    // Flame is the last tab of every trace. The trace's own tabs were placed before this runs
    // (MainWindow, NativeTabs, SnapshotPanel), some appended: the tab is taken out and put back
    // at the end, so it does not stay between them when one file follows another.
    const int at = tabs_->indexOf(view_);
    const bool wasCurrent = at >= 0 && tabs_->currentIndex() == at;
    const bool wanted = session_->isOpen() && !session_->isLive();
    if (at >= 0) tabs_->removeTab(at);
    if (wanted) tabs_->addTab(view_, tr("Flam&e")); // Alt+F and Alt+L open the File and Learn menus
    else view_->hide();
    // The previous trace's tabs went away under the current one and left it on Flame: a new
    // trace opens at its first own tab.
    if (wasCurrent && tabs_->count() > 0) tabs_->setCurrentIndex(0);
    tabs_->setVisible(tabs_->count() > 0);
}

} // namespace memviz
