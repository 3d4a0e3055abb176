// SPDX-License-Identifier: MIT
#include "widgets/live/ProcessPickerDialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <unistd.h>

#include "formats/live/HeaptrackSession.h"
#include "formats/live/ProbeInjector.h"
#include "widgets/live/ProcessListModel.h"
#include "widgets/live/RecordingOptionsWidget.h"

namespace memviz {

ProcessPickerDialog::ProcessPickerDialog(QWidget* parent)
    : QDialog(parent), model_(new ProcessListModel(this)), proxy_(new QSortFilterProxyModel(this)), filter_(new QLineEdit(this)),
      table_(new QTableView(this)), options_(new RecordingOptionsWidget(true, "attach", this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      probeButton_(buttons_->addButton(tr("Attach the PyTorch &Probe"), QDialogButtonBox::ActionRole)),
      probeReason_(new QLabel(this)),
      nativeButton_(buttons_->addButton(tr("Record &Native Allocations"), QDialogButtonBox::ActionRole)),
      nativeReason_(new QLabel(this)), listing_(this) {
    setWindowTitle(tr("Attach to Process"));
    resize(900, 600);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(ProcessListModel::SortRole);
    proxy_->setFilterKeyColumn(-1); // pid, name or command line
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(ProcessListModel::Rss, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setColumnWidth(ProcessListModel::Pid, 80);
    table_->setColumnWidth(ProcessListModel::Name, 160);
    table_->setColumnWidth(ProcessListModel::Rss, 100);
    filter_->setPlaceholderText(tr("Filter by pid, name or command line"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, [this](const QString& text) {
        proxy_->setFilterRegularExpression(
            QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption));
        updateButtons();
    });
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Attach"));
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    buttons_->button(QDialogButtonBox::Ok)->setToolTip(tr("Sample the process' memory (RSS and its parts) from /proc"));
    probeButton_->setToolTip(tr("Inject the PyTorch probe into this running Python through gdb and record every "
                                "operator; Stop removes it and the script runs on"));
    connect(probeButton_, &QPushButton::clicked, this, [this] {
        probeChosen_ = true;
        accept();
    });
    probeReason_->setWordWrap(true);
    nativeButton_->setToolTip(tr("Attach heaptrack through gdb (as heaptrack -p): heap consumed, allocation rate and "
                                 "the top allocation sites live beside RSS; on Stop heaptrack is detached and its "
                                 "complete recording imported"));
    connect(nativeButton_, &QPushButton::clicked, this, [this] {
        nativeChosen_ = true;
        accept();
    });
    nativeReason_->setWordWrap(true);
    connect(table_, &QTableView::doubleClicked, this, [this] {
        if (selectedPid()) accept();
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateButtons();
        suggestStorePath();
    });
    suggestedStore_ = options_->storePath();

    auto* layout = new QVBoxLayout(this);
    auto* hint = new QLabel(::getuid() == 0 ? tr("All processes (memviz runs as root).")
                                            : tr("Your processes. Another user's can only be recorded as that user or root."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(filter_);
    layout->addWidget(table_, 1);
    layout->addWidget(options_);
    layout->addWidget(probeReason_);
    layout->addWidget(nativeReason_);
    layout->addWidget(buttons_);

    timer_.setInterval(2000);
    connect(&timer_, &QTimer::timeout, this, &ProcessPickerDialog::refresh);
    timer_.start();
    refresh();
    updateButtons();
}

ProcessPickerDialog::~ProcessPickerDialog() { listing_.cancel(); }

void ProcessPickerDialog::refresh() {
    if (listing_.isPending()) return; // a listing is on its way; the next tick asks again
    listing_.run([this](const Progress&) -> BackgroundQuery::Apply {
        std::vector<ProcessEntry> processes = listProcesses(true);
        return [this, processes = std::move(processes)] {
            const int keep = selectedPid();
            model_->setProcesses(processes);
            if (keep) selectPid(keep);
            updateButtons();
        };
    });
}

void ProcessPickerDialog::waitForListing() {
    listing_.wait();
    QCoreApplication::processEvents();
}

int ProcessPickerDialog::selectedPid() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return 0;
    return rows.first().data(ProcessListModel::PidRole).toInt();
}

void ProcessPickerDialog::selectPid(int pid) {
    const int row = model_->rowOf(pid);
    if (row < 0) return;
    const QModelIndex at = proxy_->mapFromSource(model_->index(row, 0));
    if (!at.isValid()) return;
    table_->selectionModel()->select(at, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(at);
}

void ProcessPickerDialog::suggestStorePath() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows(ProcessListModel::Name);
    if (rows.isEmpty() || options_->storePath() != suggestedStore_) return;
    suggestedStore_ = RecordingOptionsWidget::defaultStorePath(rows.first().data().toString());
    options_->setStorePath(suggestedStore_);
}

void ProcessPickerDialog::updateButtons() {
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(selectedPid() != 0);
    updateProbe();
}

void ProcessPickerDialog::updateProbe() {
    const int pid = selectedPid();
    if (pid == probeCheckedPid_) return;
    probeCheckedPid_ = pid;
    // heaptrack: installed (a few access() calls), gdb on PATH, a process selected.
    const HeaptrackTools heaptrack = findHeaptrack();
    const bool gdb = !QStandardPaths::findExecutable(QStringLiteral("gdb")).isEmpty();
    nativeButton_->setEnabled(pid && heaptrack.found && gdb);
    if (!heaptrack.found) nativeReason_->setText(tr("Native allocations unavailable: %1.").arg(QString::fromStdString(heaptrack.problem)));
    else if (!gdb) nativeReason_->setText(tr("Native allocations unavailable: gdb is not installed (apt install gdb); heaptrack attaches through it."));
    else if (!pid) nativeReason_->setText(tr("Native allocations: select a process to attach heaptrack to."));
    else nativeReason_->setText(tr("Native allocations: heaptrack is attached to pid %1 through gdb; its allocation sites are recorded until Stop.").arg(pid));
    QString reason;
    if (!pid) {
        reason = tr("Select a process. For a Python running PyTorch, the probe can be attached to record its operators.");
    } else {
        try {
            const QString exe = QString::fromStdString(checkProbeTarget(pid));
            reason = tr("PyTorch probe: %1 (pid %2) runs Python with PyTorch loaded; the probe is injected through gdb "
                        "and removed again on Stop.")
                         .arg(exe)
                         .arg(pid);
            probeButton_->setEnabled(true);
            probeReason_->setText(reason);
            return;
        } catch (const std::exception& e) {
            reason = tr("PyTorch probe unavailable: %1. Attach samples its memory.").arg(QString::fromUtf8(e.what()));
        }
    }
    probeButton_->setEnabled(false);
    probeReason_->setText(reason);
}

} // namespace memviz
