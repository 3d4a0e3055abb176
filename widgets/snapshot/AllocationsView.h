// SPDX-License-Identifier: MIT
#pragma once
// The allocations alive at a moment of a CUDA memory snapshot (default: the peak), largest
// first, with their call stack beside them; search by address or by frame text.
#include <QWidget>
#include <memory>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

class QLabel;
class QLineEdit;
class QTableView;

namespace memviz {

class AliveAllocationsModel;
class BackgroundQuery;
class DeviceChooser;
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
    // Blocks until the rows for the current moment and search are shown (tests).
    void waitForRows();

private:
    // What the worker finds: the rows alive at the moment that match the search, and totals.
    struct Rows {
        std::vector<std::size_t> shown;
        std::size_t alive = 0;
        std::int64_t requested = 0, before = 0, beforeBytes = 0;
    };
    void onReloaded();
    void refresh();
    void applyRows(const std::shared_ptr<const std::vector<SnapshotAllocationRow>>& all, bool searching, Rows rows);
    void showSelected();

    SnapshotSession* session_;
    AliveAllocationsModel* model_;
    QTableView* table_;
    DeviceChooser* device_;
    QLabel* moment_;
    QLabel* totals_;
    QLineEdit* search_;
    StackPane* stack_;
    BackgroundQuery* rowsQuery_;
};

} // namespace memviz
