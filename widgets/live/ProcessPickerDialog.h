// SPDX-License-Identifier: MIT
#pragma once
// "Attach to Process…": the current user's processes (root: all), sortable, filterable,
// refreshing every two seconds off the GUI thread; and the recording options. Three ways to
// attach: sample the process' memory (Attach); for a Python with PyTorch loaded, attach the
// PyTorch probe; attach heaptrack for native allocation sites (each enabled only where it can
// work; the reason is shown otherwise).
#include <QDialog>
#include <QTimer>
#include <vector>

#include "formats/live/ProcessTable.h"
#include "widgets/BackgroundQuery.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QDialogButtonBox;
class QLabel;
class QPushButton;

namespace memviz {

class ProcessListModel;
class RecordingOptionsWidget;

class ProcessPickerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProcessPickerDialog(QWidget* parent = nullptr);
    ~ProcessPickerDialog() override;

    // The chosen process, or 0.
    int selectedPid() const;
    // True when the dialog was accepted with "Attach the PyTorch Probe".
    bool probeChosen() const { return probeChosen_; }
    // True when it was accepted with "Record Native Allocations" (heaptrack attached).
    bool nativeChosen() const { return nativeChosen_; }
    QPushButton* nativeButton() const { return nativeButton_; }
    QLabel* nativeReason() const { return nativeReason_; }
    QPushButton* probeButton() const { return probeButton_; }
    QLabel* probeReason() const { return probeReason_; }
    void selectPid(int pid);
    ProcessListModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QLineEdit* filterEdit() const { return filter_; }
    QTableView* table() const { return table_; }
    RecordingOptionsWidget* options() const { return options_; }
    // Lists the processes now (tests); the timer does it every two seconds.
    void refresh();
    // Blocks until a pending listing has landed (tests).
    void waitForListing();

private:
    void updateButtons();
    // Whether the probe can be attached to the selected process (reads its /proc maps once
    // per selection: one process, on screen).
    void updateProbe();
    // Names the recording after the selected process, unless the user chose a path.
    void suggestStorePath();

    ProcessListModel* model_;
    QSortFilterProxyModel* proxy_;
    QLineEdit* filter_;
    QTableView* table_;
    RecordingOptionsWidget* options_;
    QString suggestedStore_;
    QDialogButtonBox* buttons_;
    QPushButton* probeButton_;
    QLabel* probeReason_;
    QPushButton* nativeButton_;
    QLabel* nativeReason_;
    bool probeChosen_ = false;
    bool nativeChosen_ = false;
    int probeCheckedPid_ = -1;
    QTimer timer_;
    BackgroundQuery listing_; // the /proc listing, off the GUI thread
};

} // namespace memviz
