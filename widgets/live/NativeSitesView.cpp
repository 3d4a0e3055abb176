// SPDX-License-Identifier: MIT
#include "widgets/live/NativeSitesView.h"

#include <QHeaderView>
#include <QLocale>

#include "formats/live/LiveNativeQueries.h"
#include "widgets/TraceSession.h"
#include "words/UnitTexts.h"

namespace memviz {

NativeSitesView::NativeSitesView(TraceSession* trace, QWidget* parent) : QTableWidget(0, 5, parent), trace_(trace) {
    setHorizontalHeaderLabels({tr("Allocation site (heaptrack)"), tr("Location"), tr("Held now"), tr("Peak"), tr("Calls")});
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    setToolTip(tr("The sites holding the most heap now, as heaptrack's data says so far (innermost frame outside the "
                  "allocator). When the recording ends, heaptrack's complete file is imported as its own trace."));
}

void NativeSitesView::refresh() {
    if (!trace_ || !trace_->traceId()) return;
    std::vector<LiveNativeSite> sites;
    try {
        sites = listLiveNativeSites(trace_->database(), trace_->traceId());
    } catch (const std::exception&) {
        return; // a store without the table (an older memviz): nothing to show
    }
    setRowCount(static_cast<int>(sites.size()));
    for (int row = 0; row < static_cast<int>(sites.size()); ++row) {
        const LiveNativeSite& s = sites[static_cast<std::size_t>(row)];
        const QStringList cells{QString::fromStdString(s.function), QString::fromStdString(s.location), words::bytes(s.bytes),
                                words::bytes(s.peakBytes), QLocale().toString(static_cast<qlonglong>(s.calls))};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            setItem(row, c, item);
        }
    }
}

} // namespace memviz
