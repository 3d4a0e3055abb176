// SPDX-License-Identifier: MIT
#include "widgets/AsyncTableView.h"
#include "widgets/Export.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "words/Units.h"
#include "widgets/ColumnFit.h"
#include "widgets/TraceSession.h"
#include "widgets/WindowShortcuts.h"

namespace memviz {

AsyncTableView::AsyncTableView(TraceSession* session, const QString& what, QWidget* parent)
    : QWidget(parent), session_(session), what_(what), proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)),
      filter_(new QLineEdit(this)), scope_(new QLabel(this)), toolbar_(new QHBoxLayout), query_(this) {
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    exporting::addExportMenu(table_, what_); // right-click: CSV
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(false);

    filter_->setPlaceholderText(tr("Filter %1 (Ctrl+F)").arg(what));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, [this](const QString& text) {
        proxy_->setFilterRegularExpression(
            QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption));
        updateScope();
    });
    shortcuts::letWindowShortcutsThrough(filter_);

    toolbar_->setContentsMargins(6, 0, 6, 0);
    toolbar_->addWidget(scope_, 1);
    toolbar_->addWidget(filter_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(toolbar_);
    layout->addWidget(table_);

    query_.setErrorHandler([this](const QString& message) { scopeBase_ = tr("Cannot read %1: %2").arg(what_, message); });
    connect(&query_, &BackgroundQuery::finished, this, &AsyncTableView::onQueryFinished);
    connect(session_, &TraceSession::traceChanged, this, &AsyncTableView::onTraceChanged);
    connect(session_, &TraceSession::selectionChanged, this, &AsyncTableView::refresh);
}

AsyncTableView::~AsyncTableView() { query_.cancel(); }

void AsyncTableView::setSourceModel(QAbstractItemModel* model, int filterColumn, int sortRole, int sortColumn) {
    proxy_->setSourceModel(model);
    proxy_->setFilterKeyColumn(filterColumn);
    proxy_->setSortRole(sortRole);
    table_->sortByColumn(sortColumn, Qt::DescendingOrder);
    columns::keepFitted(table_, std::max(0, filterColumn));
    refresh();
}

void AsyncTableView::setActive(bool active) {
    if (active == active_) return;
    active_ = active;
    if (active_) refresh();
    else clearRows();
}

void AsyncTableView::onTraceChanged() {
    // A filter typed for one trace hid every row of the next one, unexplained: a new trace
    // starts unfiltered (a live recording that gained a series is the same trace).
    const QString trace = session_->isOpen() ? session_->storePath() + '#' + QString::number(session_->traceId()) : QString();
    if (trace != shownTrace_) filter_->clear();
    shownTrace_ = trace;
    refresh();
}

void AsyncTableView::updateScope() {
    const int all = proxy_->sourceModel() ? proxy_->sourceModel()->rowCount() : 0;
    const int shown = proxy_->rowCount();
    if (!filter_->text().isEmpty() && shown < all)
        scope_->setText(
            tr("%1 \u2013 %2 of %3 rows shown (filter: %4)").arg(scopeBase_).arg(shown).arg(all).arg(filter_->text()));
    else if (landed_ && all == 0 && session_->isOpen()) {
        const QString reason = session_->selection() ? QString() : emptyReason();
        scope_->setText(reason.isEmpty() ? tr("%1 \u2013 none").arg(scopeBase_) : tr("%1 \u2013 none: %2").arg(scopeBase_, reason));
    } else scope_->setText(scopeBase_);
}

void AsyncTableView::refresh() {
    if (!proxy_->sourceModel() || !active_) return;
    landed_ = false;
    if (!session_->isOpen()) {
        clearRows();
        scopeBase_ = tr("No trace open");
        updateScope();
        return;
    }
    const auto& sel = session_->selection();
    if (sel)
        scopeBase_ = (tr("%1 in %2 \u2013 %3")
                          .arg(what_.left(1).toUpper() + what_.mid(1),
                               QString::fromStdString(formatDuration(static_cast<double>(sel->begin))),
                               QString::fromStdString(formatDuration(static_cast<double>(sel->end)))));
    else scopeBase_ = tr("%1, whole trace").arg(what_.left(1).toUpper() + what_.mid(1));
    updateScope();
    // The query runs on a worker with its own read connection (BackgroundQuery); a newer
    // refresh supersedes it and its rows are dropped.
    Query query = makeQuery(session_->traceId(), sel);
    query_.run(session_->storePath(), [query](Database& db, const Progress&) { return query(db); });
}

// After the newest query's rows (or its error) landed.
void AsyncTableView::onQueryFinished() {
    landed_ = true;
    updateScope();
    emit rowsUpdated();
}

void AsyncTableView::waitForQuery() {
    while (query_.isPending()) {
        query_.wait();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
}

} // namespace memviz
