// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AllocationsView.h"
#include "widgets/ColumnFit.h"
#include "widgets/Export.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "words/Units.h"
#include "core/Progress.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/snapshot/AliveAllocationsModel.h"
#include "widgets/snapshot/AliveRowsOrder.h"
#include "widgets/snapshot/DeviceChooser.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "widgets/snapshot/StackPane.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {
using words::bytes;
} // namespace

AllocationsView::AllocationsView(SnapshotSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new AliveAllocationsModel(session, this)),
      table_(new QTableView(this)), device_(new DeviceChooser(session, this)),
      moment_(new QLabel(this)), totals_(new QLabel(this)), search_(new QLineEdit(this)), stack_(new StackPane(this)),
      rowsQuery_(new BackgroundQuery(this)) {
    // The model sorts: the view hands the order to the rows' worker (refresh()).
    table_->setModel(model_);
    exporting::addExportMenu(table_, QStringLiteral("allocations")); // right-click: CSV
    table_->setSortingEnabled(true);
    table_->sortByColumn(AliveAllocationsModel::Requested, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    columns::keepFitted(table_, AliveAllocationsModel::Site); // the site takes the room, elided in the middle

    search_->setPlaceholderText(tr("Search: 0x address, or function / file name"));
    search_->setClearButtonEnabled(true);
    moment_->setWordWrap(true);
    totals_->setWordWrap(true);
    auto* peak = new QPushButton(tr("Peak"), this);
    auto* start = new QPushButton(tr("Start"), this);
    auto* end = new QPushButton(tr("End"), this);
    peak->setToolTip(tr("Show the moment allocated memory peaked"));
    start->setToolTip(tr("Show the moment before the first trace entry"));
    end->setToolTip(tr("Show the moment after the last trace entry (when the snapshot was taken)"));
    connect(peak, &QPushButton::clicked, this, [this] { session_->setMoment(session_->peakMoment()); });
    connect(start, &QPushButton::clicked, this, [this] { session_->setMoment(-1); });
    connect(end, &QPushButton::clicked, this, [this] { session_->setMoment(session_->lastMoment()); });
    connect(search_, &QLineEdit::textChanged, this, &AllocationsView::refresh);
    connect(model_, &AliveAllocationsModel::orderRequested, this, &AllocationsView::refresh);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AllocationsView::showSelected);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Alive"), this));
    top->addWidget(moment_, 1);
    top->addWidget(start);
    top->addWidget(peak);
    top->addWidget(end);
    top->addWidget(device_);
    top->addWidget(search_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(stack_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(top);
    layout->addWidget(totals_);
    layout->addWidget(split, 1);

    connect(session_, &SnapshotSession::reloaded, this, &AllocationsView::onReloaded);
    connect(session_, &SnapshotSession::momentChanged, this, &AllocationsView::refresh);
    onReloaded();
}

void AllocationsView::onReloaded() {
    device_->sync();
    refresh();
}

void AllocationsView::refresh() {
    if (!session_->isActive()) {
        rowsQuery_->cancel();
        model_->setRows({});
        moment_->clear();
        totals_->clear();
        return;
    }
    if (session_->loading() || !session_->loadError().isEmpty()) {
        // The session reads the allocations on a worker; its reloaded() comes again when done.
        rowsQuery_->cancel();
        model_->setRows({});
        moment_->setText(session_->describeMoment());
        totals_->setText(session_->loading() ? tr("Reading the allocations\u2026")
                                             : tr("Cannot read the allocations: %1").arg(session_->loadError()));
        stack_->showMessage(QString());
        return;
    }
    moment_->setText(session_->describeMoment());
    // Which allocations are alive and match: a pass over all of the device's allocations (up
    // to millions) and a sort, on a worker. The rows shown meanwhile stay valid (they index the
    // same allocations) until the new ones land.
    const auto all = session_->sharedAllocations();
    const std::int64_t moment = session_->moment();
    AllocationSearch search;
    search.text = search_->text().toStdString();
    AllocationFilter filter = allocationFilter(search, session_->stacks());
    const bool searching = !search.text.empty();
    AliveOrder order;
    order.column = model_->sortColumn();
    order.order = model_->sortOrder();
    order.timed = session_->timed();
    order.moment = moment;
    order.momentTime = session_->momentTime();
    if (order.column == AliveAllocationsModel::Site) order.siteRanks = model_->siteRanks();
    rowsQuery_->run([this, all, moment, filter = std::move(filter), searching,
                     order = std::move(order)](const Progress& cancel) -> BackgroundQuery::Apply {
        const std::vector<std::size_t> alive = aliveAt(*all, moment);
        cancel.checkCancelled();
        Rows rows;
        rows.shown = filterAllocations(*all, alive, filter);
        cancel.checkCancelled();
        sortAliveRows(rows.shown, *all, order);
        rows.alive = alive.size();
        for (const std::size_t i : alive) {
            const SnapshotAllocationRow& a = (*all)[i];
            rows.requested += a.requestedSize;
            if (a.allocSeq < 0) {
                ++rows.before;
                rows.beforeBytes += a.requestedSize;
            }
        }
        return [this, all, searching, rows = std::move(rows)]() mutable { applyRows(all, searching, std::move(rows)); };
    });
}

void AllocationsView::applyRows(const std::shared_ptr<const std::vector<SnapshotAllocationRow>>& all, bool searching, Rows rows) {
    if (all != session_->sharedAllocations()) return; // another device or trace since: its own refresh follows
    QString totals = tr("%L1 allocations alive, %2 requested").arg(rows.alive).arg(bytes(rows.requested));
    if (rows.before)
        totals += tr("; %L1 of them (%2) were made before the trace began, so their alloc is not in it")
                      .arg(rows.before)
                      .arg(bytes(rows.beforeBytes));
    if (searching) totals += tr(" \u2014 %L1 match the search").arg(rows.shown.size());
    totals_->setText(totals);
    model_->setRows(std::move(rows.shown));
    stack_->showMessage(tr("Select an allocation to see where it was made."));
}

void AllocationsView::waitForRows() {
    session_->waitForLoad(); // its reloaded() starts the rows' query
    rowsQuery_->wait();
}

QString AllocationsView::totalsText() const { return totals_->text(); }

void AllocationsView::showSelected() {
    const QModelIndex current = table_->currentIndex();
    if (!current.isValid()) return;
    const SnapshotAllocationRow& a = model_->allocation(current.row());
    const QString address = QStringLiteral("0x%1").arg(static_cast<quint64>(a.address), 0, 16);
    QString title =
        tr("%1, %2 requested").arg(address, QString::fromStdString(formatBytes(static_cast<double>(a.requestedSize))));
    if (a.origin == 1) title += tr(" \u2014 allocated before the trace began; this is where it was freed");
    else if (a.origin == 2) title += tr(" \u2014 allocated before the trace began (stack from the final segments)");
    stack_->showStack(title, session_->stacks().framesOf(a.stack), session_->stacks().contexts.at(a.device, a.allocSeq));
}

} // namespace memviz
