// SPDX-License-Identifier: MIT
#include "widgets/live/ProcessListModel.h"

#include <unordered_map>

#include "words/Units.h"

namespace memviz {

ProcessListModel::ProcessListModel(QObject* parent) : QAbstractTableModel(parent) {}

int ProcessListModel::rowOf(int pid) const {
    for (std::size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].pid == pid) return static_cast<int>(i);
    return -1;
}

void ProcessListModel::setProcesses(std::vector<ProcessEntry> processes) {
    std::unordered_map<int, std::size_t> fresh;
    for (std::size_t i = 0; i < processes.size(); ++i) fresh.emplace(processes[i].pid, i);
    // Remove the rows of processes that ended (from the bottom, so indexes stay valid).
    for (int row = static_cast<int>(rows_.size()) - 1; row >= 0; --row) {
        const auto it = fresh.find(rows_[static_cast<std::size_t>(row)].pid);
        // A reused pid is another process: replace its row.
        const bool same = it != fresh.end() && processes[it->second].name == rows_[static_cast<std::size_t>(row)].name;
        if (same) continue;
        beginRemoveRows({}, row, row);
        rows_.erase(rows_.begin() + row);
        endRemoveRows();
    }
    // Update the rest in place.
    std::unordered_map<int, std::size_t> known;
    for (std::size_t i = 0; i < rows_.size(); ++i) known.emplace(rows_[i].pid, i);
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        ProcessEntry& old = rows_[i];
        ProcessEntry& now = processes[fresh.at(old.pid)];
        if (now.rssBytes != old.rssBytes || now.commandLine != old.commandLine) {
            old = now;
            emit dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
        }
    }
    // Append the new ones.
    std::vector<ProcessEntry> added;
    for (ProcessEntry& p : processes)
        if (!known.count(p.pid)) added.push_back(std::move(p));
    if (!added.empty()) {
        const int first = static_cast<int>(rows_.size());
        beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
        for (ProcessEntry& p : added) rows_.push_back(std::move(p));
        endInsertRows();
    }
}

int ProcessListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }

int ProcessListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProcessListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()) || index.column() >= ColumnCount) return {};
    const ProcessEntry& p = rows_[static_cast<std::size_t>(index.row())];
    if (role == PidRole) return p.pid;
    switch (index.column()) {
    case Pid:
        if (role == Qt::DisplayRole || role == SortRole) return p.pid;
        if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Name:
        if (role == Qt::DisplayRole || role == SortRole) return QString::fromStdString(p.name);
        return {};
    case Rss:
        if (role == Qt::DisplayRole) return QString::fromStdString(formatBytes(static_cast<double>(p.rssBytes)));
        if (role == SortRole) return static_cast<qint64>(p.rssBytes);
        if (role == Qt::ToolTipRole) return tr("%L1 bytes").arg(static_cast<qint64>(p.rssBytes));
        if (role == Qt::TextAlignmentRole) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case CommandLine:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole) return QString::fromStdString(p.commandLine);
        return {};
    default: return {};
    }
}

QVariant ProcessListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Pid: return tr("PID");
    case Name: return tr("Name");
    case Rss: return tr("RSS");
    case CommandLine: return tr("Command line");
    default: return {};
    }
}

} // namespace memviz
