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
    const int at = tabs_->indexOf(view_);
    const bool wanted = session_->isOpen() && !session_->isLive();
    if (wanted && at < 0) tabs_->addTab(view_, tr("F&lame"));
    else if (!wanted && at >= 0) {
        tabs_->removeTab(at);
        view_->hide();
    }
    tabs_->setVisible(tabs_->count() > 0);
}

} // namespace memviz
