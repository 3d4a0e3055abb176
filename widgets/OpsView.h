#pragma once
// The per-operator table with a filter box. Follows the session's selection: the whole
// trace, or only the selected time window (queried off the GUI thread).
#include <QFutureWatcher>
#include <QString>
#include <QWidget>
#include <vector>

#include "store/OpsQuery.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace memviz {

class OpsTableModel;
class TraceSession;

class OpsView : public QWidget {
    Q_OBJECT
public:
    explicit OpsView(TraceSession* session, QWidget* parent = nullptr);
    ~OpsView() override;

    OpsTableModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    // Blocks until a pending query has landed (tests, screenshots).
    void waitForQuery();

signals:
    void rowsUpdated();

private:
    void refresh();
    void onQueryFinished();

    TraceSession* session_;
    OpsTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* scope_;
    struct QueryResult {
        std::vector<OpRow> rows;
        QString error;
    };
    QFutureWatcher<QueryResult> watcher_;
    bool refreshAgain_ = false;
    bool pending_ = false; // a query was started and its rows have not landed yet
};

} // namespace memviz
