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
#include <QStringList>
#include <QWidget>
#include <optional>

#include "ranks/RankSet.h"
#include "ranks/RankSources.h"

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace memviz {

class BackgroundQuery;
class ImportTask;
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
    RanksPlot* plot() const { return plot_; }
    QStandardItemModel* table() const { return table_; }
    QTableView* tableView() const { return tableView_; }
    QLabel* status() const { return status_; }

signals:
    // The set is shown, or why not (after open()).
    void finished();

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

    QLabel* status_;
    RanksPlot* plot_;
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
    // The traces being gathered: what the paths name, and what each became (a store's trace;
    // none when its import failed).
    std::vector<RankPathEntry> plan_;
    std::vector<std::optional<RankSource>> sources_;
    std::size_t next_ = 0;
    QStringList failures_;
};

} // namespace memviz
