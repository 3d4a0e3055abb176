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

#include "words/Units.h"
#include "formats/heaptrack/HeaptrackQueries.h"
#include "widgets/AllocationSitesModel.h"
#include "widgets/ColumnFit.h"
#include "widgets/SiteStacksModel.h"
#include "widgets/TraceSession.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {
using words::bytes;
// A site called from thousands of places lists its heaviest backtraces only.
constexpr std::int64_t kMaxStacksShown = 500;
} // namespace

AllocationSitesView::AllocationSitesView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), sites_(new AllocationSitesModel(this)), stacks_(new SiteStacksModel(this)),
      proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)), stackView_(new QTreeView(this)),
      filter_(new QLineEdit(this)), totals_(new QLabel(this)), stacksStatus_(new QLabel(this)), sitesQuery_(this),
      stacksQuery_(this) {
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

    // The backtraces, under a line that says when they are being read.
    auto* stacksPane = new QWidget(this);
    auto* stacksLayout = new QVBoxLayout(stacksPane);
    stacksLayout->setContentsMargins(0, 0, 0, 0);
    stacksLayout->addWidget(stacksStatus_);
    stacksLayout->addWidget(stackView_, 1);
    stacksStatus_->setWordWrap(true);
    stacksStatus_->hide();
    sitesQuery_.setErrorHandler(
        [this](const QString& message) { totals_->setText(tr("Cannot read the allocation sites: %1").arg(message)); });
    stacksQuery_.setErrorHandler(
        [this](const QString& message) { showStacksStatus(tr("Cannot read the backtraces: %1").arg(message), true); });

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(stacksPane);
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

namespace {
struct SitesResult {
    std::optional<HeaptrackSummary> totals;
    std::vector<AllocationSite> sites;
};
} // namespace

void AllocationSitesView::reload() {
    sitesQuery_.cancel(); // reads for the previous trace are dropped
    stacksQuery_.cancel();
    stacks_->setStacks({});
    showStacksStatus(QString());
    sites_->setSites({});
    totals_->clear();
    if (!session_->isOpen() || !appliesTo(session_->summary().trace.format)) return;
    totals_->setText(tr("Reading the allocation sites\u2026"));
    const std::int64_t trace = session_->traceId();
    sitesQuery_.run(session_->storePath(), [this, trace](Database& db, const Progress&) -> BackgroundQuery::Apply {
        auto r = std::make_shared<SitesResult>();
        r->totals = loadHeaptrackSummary(db, trace);
        r->sites = queryAllocationSites(db, trace);
        return [this, r] {
            sites_->setSites(std::move(r->sites));
            totals_->clear();
            if (const auto& totals = r->totals) {
                QString text = tr("%L1 calls to allocation functions, %L2 temporary; peak heap %3; leaked %4")
                                   .arg(totals->calls)
                                   .arg(totals->temporary)
                                   .arg(bytes(totals->peakBytes), bytes(totals->leakedBytes));
                if (totals->suppressedBytes) text += tr(" (%1 more in suppressed leaks)").arg(bytes(totals->suppressedBytes));
                if (totals->peakRssBytes) text += tr("; peak RSS %1").arg(bytes(totals->peakRssBytes));
                totals_->setText(text);
            }
            if (proxy_->rowCount() > 0) selectRow(0);
        };
    });
}

void AllocationSitesView::selectRow(int row) {
    const QModelIndex index = proxy_->index(row, 0);
    if (!index.isValid()) return;
    table_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    showStacksOf(index);
}

void AllocationSitesView::showStacksStatus(const QString& text, bool error) {
    stacksStatus_->setStyleSheet(error ? QStringLiteral("color: #a00") : QStringLiteral("color: #666"));
    stacksStatus_->setText(text);
    stacksStatus_->setVisible(!text.isEmpty());
}

QString AllocationSitesView::stacksStatusText() const { return stacksStatus_->isHidden() ? QString() : stacksStatus_->text(); }

void AllocationSitesView::waitForQuery() {
    while (isLoading()) {
        sitesQuery_.wait(); // its result selects the first row, whose backtraces are read next
        stacksQuery_.wait();
    }
}

void AllocationSitesView::showStacksOf(const QModelIndex& proxyIndex) {
    // Another site's backtraces would be stale: cleared until this one's land.
    stacks_->setStacks({});
    if (!proxyIndex.isValid() || !session_->isOpen()) {
        stacksQuery_.cancel();
        showStacksStatus(QString());
        return;
    }
    const qint64 site = proxy_->data(proxyIndex, AllocationSitesModel::SiteIdRole).toLongLong();
    showStacksStatus(tr("Reading the backtraces\u2026"));
    const std::int64_t trace = session_->traceId();
    stacksQuery_.run(session_->storePath(), [this, trace, site](Database& db, const Progress&) -> BackgroundQuery::Apply {
        auto stacks = std::make_shared<std::vector<SiteStack>>(querySiteStacks(db, trace, site, kMaxStacksShown));
        return [this, stacks, site] {
            stacks_->setStacks(std::move(*stacks));
            // Backtrace rows span the columns; the heaviest few are open, the rest one click away.
            for (int i = 0; i < stacks_->rowCount(); ++i) stackView_->setFirstColumnSpanned(i, {}, true);
            for (int i = 0; i < std::min(3, stacks_->rowCount()); ++i) stackView_->expand(stacks_->index(i, 0));
            showStacksStatus(QString());
            emit stacksShown(site);
        };
    });
}

} // namespace memviz
