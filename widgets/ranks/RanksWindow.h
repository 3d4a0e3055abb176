// SPDX-License-Identifier: MIT
#pragma once
// The Ranks window (File › Open Ranks…, issue 13): every rank of a distributed job — a folder
// of rank files, a store's live probe recordings, or several traces — as one lane per rank on
// a shared time axis (RanksPlot), the rank table below (peak, time of peak, final, top operator
// at the peak, and the peak inside the selected window), and the imbalance in the status line.
// The traces are imported and read on a worker (BackgroundQuery); the same figures as
// `memviz ranks`.
#include <QStringList>
#include <QWidget>
#include <optional>

#include "ranks/RankSet.h"

class QLabel;
class QStandardItemModel;
class QTableView;

namespace memviz {

class BackgroundQuery;
class RanksPlot;

class RanksWindow : public QWidget {
    Q_OBJECT
public:
    explicit RanksWindow(QWidget* parent = nullptr);
    ~RanksWindow() override;
    // A folder, a store, or several files/stores (as `memviz ranks` takes them).
    void open(const QStringList& paths);
    // Blocks until the set is shown or the error is (tests, screenshots).
    void waitForResult();

    const std::optional<RankSet>& rankSet() const { return set_; }
    RanksPlot* plot() const { return plot_; }
    QStandardItemModel* table() const { return table_; }
    QTableView* tableView() const { return tableView_; }
    QLabel* status() const { return status_; }

private:
    void showSet();
    void showSelection();

    QLabel* status_;
    RanksPlot* plot_;
    QTableView* tableView_;
    QStandardItemModel* table_;
    BackgroundQuery* query_;
    std::optional<RankSet> set_;
};

} // namespace memviz
