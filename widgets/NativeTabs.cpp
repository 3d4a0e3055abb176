// SPDX-License-Identifier: MIT
#include "widgets/NativeTabs.h"

#include <QTabWidget>

#include "widgets/AllocationSitesView.h"
#include "widgets/MassifView.h"
#include "widgets/TimelinePlot.h"
#include "widgets/TraceSession.h"

namespace memviz {

NativeTabs::NativeTabs(TraceSession* session, QTabWidget* tabs, TimelinePlot* timeline, QObject* parent)
    : QObject(parent), session_(session), tabs_(tabs), sites_(new AllocationSitesView(session, tabs)),
      massif_(new MassifView(session, tabs)) {
    sites_->hide();
    massif_->hide();
    connect(session_, &TraceSession::traceChanged, this, &NativeTabs::update);
    connect(timeline, &TimelinePlot::timeClicked, massif_, [this](std::int64_t x) {
        if (tabs_->indexOf(massif_) >= 0 && massif_->showSnapshotNear(x)) tabs_->setCurrentWidget(massif_);
    });
    update();
}

void NativeTabs::update() {
    const std::string format = session_->isOpen() ? session_->summary().trace.format : std::string();
    const auto place = [&](QWidget* view, bool wanted, const QString& title) {
        const int at = tabs_->indexOf(view);
        if (wanted && at < 0) {
            tabs_->insertTab(0, view, title);
            tabs_->setCurrentWidget(view);
        } else if (!wanted && at >= 0) {
            tabs_->removeTab(at);
            view->hide();
        }
    };
    place(sites_, AllocationSitesView::appliesTo(format), tr("Allocation &sites"));
    place(massif_, MassifView::appliesTo(format), tr("Heap &tree"));
}

} // namespace memviz
