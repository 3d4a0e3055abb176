// SPDX-License-Identifier: MIT
#pragma once
// A table of query results under a scope line and a filter box. The query follows the
// session: the whole trace, or only the selected time window; it runs on a worker thread
// with its own read-only connection, and its rows land on the GUI thread. The filter box
// belongs to one trace (a new trace clears it); Esc in it clears it; the window's shortcuts
// (Ctrl+E, F11, ...) work while it has the focus; when it hides rows the scope line says
// "n of m rows shown (filter: ...)", and when a query found no rows it says so (and why, where
// the view knows).
#include <QString>
#include <QWidget>
#include <functional>
#include <optional>

#include "store/SeriesQuery.h"
#include "widgets/BackgroundQuery.h"

class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace memviz {

class Database;
class TraceSession;

class AsyncTableView : public QWidget {
    Q_OBJECT
public:
    ~AsyncTableView() override;

    QTableView* table() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    // Blocks until a pending query has landed (tests, screenshots).
    void waitForQuery();
    // Runs the query again (after an option of the view changed).
    void refresh();
    // An inactive view (e.g. a tab the current trace does not use) runs no queries.
    void setActive(bool active);
    bool isActive() const { return active_; }

signals:
    void rowsUpdated();

protected:
    // What runs on the GUI thread once the worker is done.
    using Apply = std::function<void()>;
    // What runs on the worker thread; copy into it everything it needs.
    using Query = std::function<Apply(Database& db)>;

    AsyncTableView(TraceSession* session, const QString& what, QWidget* parent);
    // Call once from the subclass constructor.
    void setSourceModel(QAbstractItemModel* model, int filterColumn, int sortRole, int sortColumn);
    virtual Query makeQuery(qint64 traceId, std::optional<TimeRange> range) = 0;
    // Called when no trace is open.
    virtual void clearRows() = 0;
    QHBoxLayout* toolbar() const { return toolbar_; }
    TraceSession* session() const { return session_; }
    // Why the whole trace has no rows, said in the scope line after "none" ("" says nothing more).
    virtual QString emptyReason() const { return {}; }

private:
    void onQueryFinished();
    void onTraceChanged();
    // The scope line: what the rows cover, and how many the filter shows.
    void updateScope();

    TraceSession* session_;
    QString what_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* scope_;
    QString scopeBase_;
    QString shownTrace_; // store and trace id whose rows (and filter) are shown
    QHBoxLayout* toolbar_;
    BackgroundQuery query_; // the newest query supersedes a running one
    bool active_ = true;
    bool landed_ = false; // the rows shown are the last query's (not still loading)
};

} // namespace memviz
