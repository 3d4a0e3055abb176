// SPDX-License-Identifier: MIT
#pragma once
// The Compare window's lower table: one of the comparison's row lists (operators, allocation
// sites, memory categories, key_averages rows, alive at each peak, blocks, segments) as a
// table model over the comparison itself. Cells are made when a view asks for them, so
// showing a list of thousands of rows costs the GUI thread only the rows on screen. Each row
// says which curve it has in each trace (RowCurves.h), for marking it in the chart.
#include <QAbstractTableModel>
#include <QStringList>
#include <optional>
#include <utility>
#include <vector>

#include "compare/RowCurves.h"
#include "compare/TraceComparison.h"

namespace memviz {

// The tables below the plot.
enum class CompareRows { Operators, Sites, Categories, KeyAverages, AliveAtPeak, Blocks, Segments };

class CompareRowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // What the views sort by: the number a cell shows, or its text for names.
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit CompareRowsModel(QObject* parent = nullptr);
    // Shows `rows` of `comparison` (which must outlive the model's use of it; nullptr: none).
    void show(const TraceComparison* comparison, CompareRows rows);
    CompareRows rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The curve of `row` to draw in both traces, on `plotDevice` when the row names no device;
    // nullopt for rows without one (heaptrack sites, segments).
    std::optional<RowCurveRequest> curveOf(int row, const std::string& plotDevice) const;

private:
    struct Cell {
        QString text;
        QVariant sort;
        bool number = false, delta = false;
    };
    Cell cell(int row, int column, bool withText) const;

    const TraceComparison* c_ = nullptr;
    CompareRows rows_ = CompareRows::Operators;
    QStringList headers_;
    std::vector<std::pair<std::size_t, std::size_t>> keyAverages_; // (operator, device) per row
};

} // namespace memviz
