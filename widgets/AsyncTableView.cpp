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
#include <QtConcurrent/QtConcurrentRun>

#include "core/Units.h"
#include "store/Database.h"
#include "widgets/TraceSession.h"

namespace memviz {

AsyncTableView::AsyncTableView(TraceSession* session, const QString& what, QWidget* parent)
    : QWidget(parent), session_(session), what_(what), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), filter_(new QLineEdit(this)), scope_(new QLabel(this)), toolbar_(new QHBoxLayout) {
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
    });

    toolbar_->setContentsMargins(6, 0, 6, 0);
    toolbar_->addWidget(scope_, 1);
    toolbar_->addWidget(filter_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(toolbar_);
    layout->addWidget(table_);

    connect(&watcher_, &QFutureWatcher<Result>::finished, this, &AsyncTableView::onQueryFinished);
    connect(session_, &TraceSession::traceChanged, this, &AsyncTableView::refresh);
    connect(session_, &TraceSession::selectionChanged, this, &AsyncTableView::refresh);
}

AsyncTableView::~AsyncTableView() { watcher_.waitForFinished(); }

void AsyncTableView::setSourceModel(QAbstractItemModel* model, int filterColumn, int sortRole, int sortColumn) {
    proxy_->setSourceModel(model);
    proxy_->setFilterKeyColumn(filterColumn);
    proxy_->setSortRole(sortRole);
    table_->sortByColumn(sortColumn, Qt::DescendingOrder);
    refresh();
}

void AsyncTableView::setActive(bool active) {
    if (active == active_) return;
    active_ = active;
    if (active_) refresh();
    else clearRows();
}

void AsyncTableView::refresh() {
    if (!proxy_->sourceModel() || !active_) return;
    if (!session_->isOpen()) {
        clearRows();
        scope_->setText(tr("No trace open"));
        return;
    }
    if (watcher_.isRunning()) {
        refreshAgain_ = true;
        return;
    }
    const auto& sel = session_->selection();
    if (sel)
        scope_->setText(tr("%1 in %2 \u2013 %3")
                            .arg(what_.left(1).toUpper() + what_.mid(1),
                                 QString::fromStdString(formatDuration(static_cast<double>(sel->begin))),
                                 QString::fromStdString(formatDuration(static_cast<double>(sel->end)))));
    else scope_->setText(tr("%1, whole trace").arg(what_.left(1).toUpper() + what_.mid(1)));
    // Each query opens its own read connection: SQLite connections stay on one thread.
    const std::string store = session_->storePath().toStdString();
    Query query = makeQuery(session_->traceId(), sel);
    pending_ = true;
    watcher_.setFuture(QtConcurrent::run([store, query] {
        Result result;
        try {
            Database db(store, Database::Mode::ReadOnly);
            result.apply = query(db);
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        return result;
    }));
}

void AsyncTableView::onQueryFinished() {
    pending_ = false;
    if (refreshAgain_) {
        refreshAgain_ = false;
        refresh();
        return;
    }
    const Result result = watcher_.result();
    if (!result.error.isEmpty()) scope_->setText(tr("Cannot read %1: %2").arg(what_, result.error));
    if (result.apply) result.apply();
    table_->resizeColumnsToContents();
    emit rowsUpdated();
}

void AsyncTableView::waitForQuery() {
    while (pending_) {
        watcher_.waitForFinished();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
}

} // namespace memviz
