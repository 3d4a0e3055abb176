// SPDX-License-Identifier: MIT
#pragma once
// The allocations alive at a moment of a CUDA memory snapshot (default: the peak), largest
// first, with their call stack beside them; search by address or by frame text.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace memviz {

class AliveAllocationsModel;
class SnapshotSession;
class StackPane;

class AllocationsView : public QWidget {
    Q_OBJECT
public:
    explicit AllocationsView(SnapshotSession* session, QWidget* parent = nullptr);

    AliveAllocationsModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    QLineEdit* searchEdit() const { return search_; }
    StackPane* stackPane() const { return stack_; }
    // "2,042 allocations, 12.97 GiB requested".
    QString totalsText() const;

private:
    void onReloaded();
    void refresh();
    void showSelected();

    SnapshotSession* session_;
    AliveAllocationsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QComboBox* device_;
    QLabel* moment_;
    QLabel* totals_;
    QLineEdit* search_;
    StackPane* stack_;
};

} // namespace memviz
