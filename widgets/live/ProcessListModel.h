// SPDX-License-Identifier: MIT
#pragma once
// The processes the picker lists (pid, name, RSS, command line), as a table model. A new
// listing is merged in place: rows of processes that are still there keep their index (so
// the selection and scroll position survive the periodic refresh), gone ones are removed,
// new ones appended.
#include <QAbstractTableModel>
#include <vector>

#include "formats/live/ProcessTable.h"

namespace memviz {

class ProcessListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Pid, Name, Rss, CommandLine, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int PidRole = Qt::UserRole + 2;

    explicit ProcessListModel(QObject* parent = nullptr);

    void setProcesses(std::vector<ProcessEntry> processes);
    const std::vector<ProcessEntry>& processes() const { return rows_; }
    // Row of a pid, or -1.
    int rowOf(int pid) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ProcessEntry> rows_;
};

} // namespace memviz
