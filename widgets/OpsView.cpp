#include "widgets/OpsView.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "core/Units.h"
#include "store/Database.h"
#include "widgets/OpsTableModel.h"
#include "widgets/TraceSession.h"

namespace memviz {

OpsView::OpsView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new OpsTableModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), filter_(new QLineEdit(this)), scope_(new QLabel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(OpsTableModel::SortRole);
    proxy_->setFilterKeyColumn(OpsTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(OpsTableModel::BytesAllocated, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(OpsTableModel::Name, QHeaderView::Stretch);
    for (int c = OpsTableModel::Allocs; c < OpsTableModel::ColumnCount; ++c)
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    filter_->setPlaceholderText(tr("Filter operators (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, [this](const QString& text) {
        proxy_->setFilterRegularExpression(QRegularExpression(QRegularExpression::escape(text),
                                                              QRegularExpression::CaseInsensitiveOption));
    });

    auto* top = new QHBoxLayout;
    top->addWidget(scope_, 1);
    top->addWidget(filter_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    top->setContentsMargins(6, 0, 6, 0);
    layout->addLayout(top);
    layout->addWidget(table_);

    connect(&watcher_, &QFutureWatcher<QueryResult>::finished, this, &OpsView::onQueryFinished);
    connect(session_, &TraceSession::traceChanged, this, &OpsView::refresh);
    connect(session_, &TraceSession::selectionChanged, this, &OpsView::refresh);
    refresh();
}

OpsView::~OpsView() { watcher_.waitForFinished(); }

void OpsView::refresh() {
    if (!session_->isOpen()) {
        model_->setRows({});
        scope_->setText(tr("No trace open"));
        return;
    }
    if (watcher_.isRunning()) {
        refreshAgain_ = true;
        return;
    }
    const auto& sel = session_->selection();
    if (sel)
        scope_->setText(tr("Operators in %1 \u2013 %2")
                            .arg(QString::fromStdString(formatDuration(static_cast<double>(sel->begin))),
                                 QString::fromStdString(formatDuration(static_cast<double>(sel->end)))));
    else scope_->setText(tr("Operators, whole trace"));
    OpsFilter filter;
    filter.range = sel;
    // Each query opens its own read connection: SQLite connections stay on one thread.
    const std::string store = session_->storePath().toStdString();
    const qint64 trace = session_->traceId();
    pending_ = true;
    watcher_.setFuture(QtConcurrent::run([store, trace, filter] {
        QueryResult result;
        try {
            Database db(store, Database::Mode::ReadOnly);
            result.rows = queryOps(db, trace, filter);
        } catch (const std::exception& e) {
            result.error = QString::fromUtf8(e.what());
        }
        return result;
    }));
}

void OpsView::onQueryFinished() {
    pending_ = false;
    if (refreshAgain_) {
        refreshAgain_ = false;
        refresh();
        return;
    }
    QueryResult result = watcher_.result();
    if (!result.error.isEmpty()) scope_->setText(tr("Cannot read operators: %1").arg(result.error));
    model_->setRows(std::move(result.rows));
    emit rowsUpdated();
}

void OpsView::waitForQuery() {
    while (pending_) {
        watcher_.waitForFinished();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
}

} // namespace memviz
