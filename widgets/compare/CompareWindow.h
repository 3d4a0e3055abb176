// SPDX-License-Identifier: MIT
#pragma once
// The Compare mode (File › Compare With…, issue 13): trace A (the window's) and trace B (a
// file or a store) in one window — both memory curves on one time axis, lined up at their
// starts or their peaks, the difference B − A as its own series and each peak marked; below,
// per device the peaks and final bytes, and the operators (heaptrack: allocation sites;
// memory-timeline exports: categories at each peak) most changed first, with a filter. B is
// imported out of process like any file (ImportTask); the comparison is read on a worker
// (BackgroundQuery). The same figures as `memviz diff A B`.
#include <QString>
#include <QWidget>
#include <optional>

#include "compare/Alignment.h"
#include "compare/TraceComparison.h"
#include "widgets/compare/CompareRowsModel.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QItemSelection;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace memviz {

class BackgroundQuery;
class ComparePlot;
class ImportTask;

class CompareWindow : public QWidget {
    Q_OBJECT
public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;
    // A is a trace of a store; B a raw file (imported into `importStoreB`) or a store.
    void compareWithFile(const QString& storeA, qint64 traceA, const QString& nameA, const QString& pathB,
                         const QString& importStoreB);
    void compare(const QString& storeA, qint64 traceA, const QString& nameA, const QString& storeB, qint64 traceB,
                 const QString& nameB);
    void setAlignment(CompareAlign align);
    // Lines B up with A at the first moment named `name` in each (a profiler call such as a
    // record_function label or ProfilerStep#N, a live recording's marker), found on a worker;
    // the status line names a trace without it. "Line up at a marker…" asks for the name.
    void alignAtMarker(const QString& name);
    // Blocks until the comparison is shown (tests, screenshots).
    void waitForResult(); // also the snapshot details
    // Two CUDA snapshots' blocks and alive-at-peak rows are still being read.
    bool detailsPending() const;
    // The chosen row's curves are still being read.
    bool rowCurvesPending() const;

    const std::optional<TraceComparison>& comparison() const { return comparison_; }
    ComparePlot* plot() const { return plot_; }
    QStandardItemModel* devicesModel() const { return devices_; }
    CompareRowsModel* rowsModel() const { return rows_; }
    QTableView* rowsView() const { return rowsView_; }
    // What the chart marks for the chosen row: "" when no row is chosen or the row has no curve.
    const QString& markedRow() const { return markedRow_; }
    // Blocks until the chosen row's curves are drawn (tests, screenshots).
    void waitForRowCurves();
    QSortFilterProxyModel* rowsProxy() const { return proxy_; }
    QLineEdit* filter() const { return filter_; }
    // Which rows the table shows (the choices depend on the traces: two CUDA snapshots have
    // four); the data of each item is a CompareRows.
    QComboBox* rowsChoice() const { return rowsChoice_; }
    QLabel* status() const { return status_; }

private:
    void load();
    void showComparison(); // the chart and the status line, for the alignment chosen
    void showTables();     // the devices and the rows, once per comparison
    void showStatus();
    void showRows();
    void alignmentChosen();
    void rowChosen();
    // Two CUDA snapshots: the blocks and the allocations alive at each peak, read after the
    // rest is shown (they read every allocation of both).
    void loadSnapshotDetails();
    void offerRows();

    QLabel* status_;
    QComboBox* align_;
    ComparePlot* plot_;
    QTableView* devicesView_;
    QTableView* rowsView_;
    QLineEdit* filter_;
    QComboBox* rowsChoice_;
    QStandardItemModel* devices_;
    CompareRowsModel* rows_;
    QSortFilterProxyModel* proxy_;
    BackgroundQuery* query_;
    BackgroundQuery* details_;   // the snapshot details
    BackgroundQuery* rowQuery_;  // the chosen row's curves
    QString markedRow_;
    ImportTask* import_;
    QString storeA_, storeB_, nameA_, nameB_;
    QString marker_;        // the marker B is lined up at (CompareAlign::Marker)
    int previousAlign_ = 0; // the alignment before the marker dialog (restored on Cancel)
    qint64 traceA_ = 0, traceB_ = 0;
    std::optional<TraceComparison> comparison_;
    Alignment aligned_;
    std::int64_t manualShift_ = 0; // B moved by Shift+drag, on top of the alignment
};

} // namespace memviz
