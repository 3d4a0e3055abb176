// SPDX-License-Identifier: MIT
#pragma once
// The Ranks window (File › Open Ranks…, issue 13): every rank of a distributed job — a folder
// of rank files, a store's live probe recordings, or several traces — as one lane per rank on
// a shared time axis (RanksPlot), the rank table below (peak, time of peak, final, top operator
// at the peak, and the peak inside the selected window), and the imbalance in the status line.
// Raw rank files are imported one at a time by the reader child (ImportTask, as File › Open
// does: a file that crashes the reader, runs past its memory ceiling or is refused costs a
// message naming it, and the window carries on with the other ranks), with each file's
// progress in the status line; Cancel, or closing the window, ends the child. The figures are
// read on a worker (BackgroundQuery); the same figures as `memviz ranks`.
// A gathered store (`memviz ranks --gather`, issue 55; or a folder holding one as ranks.memviz)
// opens without reading any rank's store: its rows and summary curves are the set. Past 32 ranks
// the chart is one row per rank (RanksHeatmap). The table sorts by any column and filters by rank
// or operator; double-clicking a rank (table row or heatmap row) opens its full store in the main
// window when it is reachable here, and says where it is when it is not.
#include <QStringList>
#include <QWidget>
#include <optional>

#include "ranks/RankSet.h"
#include "ranks/RankSources.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace memviz {

class BackgroundQuery;
class ImportTask;
class RanksHeatmap;
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
    // Ends the reader child and the worker; the status line says so.
    void cancel();
    bool isBusy() const { return busy_; }
    // The rank files that could not be read, each message naming its file.
    const QStringList& failures() const { return failures_; }
    ImportTask* importTask() const { return import_; }
    // Blocks until the exact peaks inside the selection are read (tests).
    void waitForSelectionPeaks();
    // Row `row`'s peak inside the selection as the table shows it: exact once read from the
    // store, the lane curve's value meanwhile (`exact` false); none without a selection.
    std::optional<std::int64_t> selectionPeak(int row, bool* exact = nullptr) const;

    const std::optional<RankSet>& rankSet() const { return set_; }
    // True when the set came from a gathered store.
    bool gathered() const { return gathered_; }
    // Opens row `row` of the set: its full store in the main window (traceRequested) when the
    // file is here; else the status line says where it is. False when it is not reachable.
    bool openRank(int row);
    // The filter on the table (rank name or top operator, case-insensitive substring).
    void setFilter(const QString& text);
    RanksPlot* plot() const { return plot_; }
    RanksHeatmap* heatmap() const { return heatmap_; }
    // True when the chart shown is the heatmap (more ranks than lanes fit).
    bool showsHeatmap() const;
    QStandardItemModel* table() const { return table_; }
    QTableView* tableView() const { return tableView_; }
    QLabel* status() const { return status_; }

signals:
    // The set is shown, or why not (after open()).
    void finished();
    // The user chose a rank whose full store is reachable: open trace `traceId` of `storePath`.
    void traceRequested(const QString& storePath, qint64 traceId);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void connectImport();
    void importNext();
    void readSet();
    void done();
    void showSet();
    void showSelection();
    void showSelectionPeaks();
    int setRowOf(int tableRow) const;
    int tableRowOf(int setRow) const;

    QLabel* status_;
    RanksPlot* plot_;
    RanksHeatmap* heatmap_;
    QStackedWidget* chart_;
    QLineEdit* filter_;
    QTableView* tableView_;
    QStandardItemModel* table_;
    QPushButton* cancel_;
    BackgroundQuery* query_;
    BackgroundQuery* selectionQuery_;
    ImportTask* import_;
    std::vector<std::optional<std::int64_t>> selectionPeaks_;
    bool selectionExact_ = false;
    std::optional<RankSet> set_;
    bool busy_ = false;
    bool gathered_ = false;
    // The traces being gathered: what the paths name, and what each became (a store's trace;
    // none when its import failed).
    std::vector<RankPathEntry> plan_;
    std::vector<std::optional<RankSource>> sources_;
    std::size_t next_ = 0;
    QStringList failures_;
};

} // namespace memviz
