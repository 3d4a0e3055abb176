// SPDX-License-Identifier: MIT
#include "widgets/AllocationSitesView.h"
#include "widgets/Export.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include "core/Units.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "widgets/AllocationSitesModel.h"
#include "widgets/ColumnFit.h"
#include "widgets/SiteStacksModel.h"
#include "widgets/TraceSession.h"

namespace memviz {

namespace {
QString bytes(std::int64_t b) { return QString::fromStdString(formatBytes(static_cast<double>(b))); }
// A site called from thousands of places lists its heaviest backtraces only.
constexpr std::int64_t kMaxStacksShown = 500;
} // namespace

AllocationSitesView::AllocationSitesView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), sites_(new AllocationSitesModel(this)), stacks_(new SiteStacksModel(this)),
      proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)), stackView_(new QTreeView(this)),
      filter_(new QLineEdit(this)), totals_(new QLabel(this)) {
    proxy_->setSourceModel(sites_);
    proxy_->setSortRole(AllocationSitesModel::SortRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    exporting::addExportMenu(table_, QStringLiteral("allocation-sites")); // right-click: CSV
    table_->setSortingEnabled(true);
    table_->sortByColumn(AllocationSitesModel::Peak, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    // The site's name takes the room; long locations are elided in the middle.
    columns::keepFitted(table_, AllocationSitesModel::Function);

    stackView_->setModel(stacks_);
    stackView_->setUniformRowHeights(true);
    stackView_->header()->setSectionResizeMode(SiteStacksModel::Frame, QHeaderView::Stretch);

    filter_->setPlaceholderText(tr("Filter allocation sites"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, [this](const QString& text) {
        proxy_->setFilterRegularExpression(
            QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption));
    });
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(stackView_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* top = new QHBoxLayout;
    top->addWidget(totals_, 2);
    top->addWidget(filter_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(split);

    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showStacksOf(current); });
    connect(session_, &TraceSession::traceChanged, this, &AllocationSitesView::reload);
    reload();
}

void AllocationSitesView::reload() {
    stacks_->setStacks({});
    if (!session_->isOpen() || !appliesTo(session_->summary().trace.format)) {
        sites_->setSites({});
        totals_->clear();
        return;
    }
    Database& db = session_->database();
    const auto totals = loadHeaptrackSummary(db, session_->traceId());
    sites_->setSites(queryAllocationSites(db, session_->traceId()));
    if (totals) {
        QString text = tr("%L1 calls to allocation functions, %L2 temporary; peak heap %3; leaked %4")
                           .arg(totals->calls)
                           .arg(totals->temporary)
                           .arg(bytes(totals->peakBytes), bytes(totals->leakedBytes));
        if (totals->suppressedBytes) text += tr(" (%1 more in suppressed leaks)").arg(bytes(totals->suppressedBytes));
        if (totals->peakRssBytes) text += tr("; peak RSS %1").arg(bytes(totals->peakRssBytes));
        totals_->setText(text);
    }
    if (proxy_->rowCount() > 0) selectRow(0);
}

void AllocationSitesView::selectRow(int row) {
    const QModelIndex index = proxy_->index(row, 0);
    if (!index.isValid()) return;
    table_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    showStacksOf(index);
}

void AllocationSitesView::showStacksOf(const QModelIndex& proxyIndex) {
    if (!proxyIndex.isValid() || !session_->isOpen()) {
        stacks_->setStacks({});
        return;
    }
    const qint64 site = proxy_->data(proxyIndex, AllocationSitesModel::SiteIdRole).toLongLong();
    stacks_->setStacks(querySiteStacks(session_->database(), session_->traceId(), site, kMaxStacksShown));
    // Backtrace rows span the columns; the heaviest few are open, the rest one click away.
    for (int i = 0; i < stacks_->rowCount(); ++i) stackView_->setFirstColumnSpanned(i, {}, true);
    for (int i = 0; i < std::min(3, stacks_->rowCount()); ++i) stackView_->expand(stacks_->index(i, 0));
}

} // namespace memviz
