// SPDX-License-Identifier: MIT
#include "widgets/MassifView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>
#include <cstdlib>

#include "words/Units.h"
#include "widgets/MassifTreeModel.h"
#include "widgets/TraceAxis.h"
#include "widgets/TraceSession.h"

namespace memviz {

MassifView::MassifView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new MassifTreeModel(this)), view_(new QTreeView(this)),
      box_(new QComboBox(this)), info_(new QLabel(this)), status_(new QLabel(this)), list_(this), tree_(this) {
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    view_->header()->setSectionResizeMode(MassifTreeModel::Function, QHeaderView::Stretch);
    for (int c = MassifTreeModel::Bytes; c < MassifTreeModel::ColumnCount; ++c)
        view_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    info_->setText(tr("Detailed snapshot:"));
    auto* top = new QHBoxLayout;
    top->addWidget(info_);
    top->addWidget(box_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(status_);
    layout->addWidget(view_);
    status_->setWordWrap(true);
    status_->hide();
    list_.setErrorHandler(
        [this](const QString& message) { showStatus(tr("Cannot read the massif snapshots: %1").arg(message), true); });
    tree_.setErrorHandler([this](const QString& message) { showStatus(tr("Cannot read the heap tree: %1").arg(message), true); });
    connect(box_, qOverload<int>(&QComboBox::currentIndexChanged), this, &MassifView::showIndex);
    connect(session_, &TraceSession::traceChanged, this, &MassifView::reload);
    reload();
}

void MassifView::showStatus(const QString& text, bool error) {
    status_->setStyleSheet(error ? QStringLiteral("color: #a00") : QStringLiteral("color: #666"));
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
}

QString MassifView::statusText() const { return status_->isHidden() ? QString() : status_->text(); }

void MassifView::waitForQuery() {
    while (isLoading()) {
        list_.wait(); // its result asks for the peak's tree
        tree_.wait();
    }
}

void MassifView::reload() {
    list_.cancel(); // reads for the previous trace are dropped
    tree_.cancel();
    detailed_.clear();
    {
        const QSignalBlocker block(box_);
        box_->clear();
    }
    model_->setTree({}, 0);
    showStatus(QString());
    if (!session_->isOpen() || !appliesTo(session_->summary().trace.format)) return;
    showStatus(tr("Reading the massif snapshots\u2026"));
    const std::int64_t trace = session_->traceId();
    list_.run(session_->storePath(), [this, trace](Database& db, const Progress&) -> BackgroundQuery::Apply {
        auto snapshots = std::make_shared<std::vector<MassifSnapshot>>(listMassifSnapshots(db, trace));
        return [this, snapshots] { applyList(std::move(*snapshots)); };
    });
}

void MassifView::applyList(std::vector<MassifSnapshot> snapshots) {
    const XKind kind = xKindOf(session_->summary().trace.timeKind);
    int peakIndex = 0;
    {
        const QSignalBlocker block(box_);
        for (MassifSnapshot& s : snapshots) {
            if (!s.detailed()) continue;
            if (s.peak()) peakIndex = static_cast<int>(detailed_.size());
            box_->addItem(tr("%1%2 \u2013 %3 \u2013 %4")
                              .arg(s.number)
                              .arg(s.peak() ? tr(" (peak)") : QString())
                              .arg(xValueText(kind, static_cast<double>(s.x)),
                                   QString::fromStdString(formatBytes(static_cast<double>(s.totalBytes())))));
            detailed_.push_back(std::move(s));
        }
    }
    if (detailed_.empty()) {
        showStatus(tr("This trace has no detailed snapshots (massif --detailed-freq)."));
        return;
    }
    showIndex(peakIndex);
}

void MassifView::showIndex(int boxIndex) {
    if (boxIndex < 0 || boxIndex >= static_cast<int>(detailed_.size())) return;
    const MassifSnapshot& s = detailed_[static_cast<std::size_t>(boxIndex)];
    if (box_->currentIndex() != boxIndex) {
        const QSignalBlocker block(box_);
        box_->setCurrentIndex(boxIndex);
    }
    // The previous snapshot's tree would be stale: cleared until this one lands.
    model_->setTree({}, 0);
    showStatus(tr("Reading the heap tree of snapshot %1\u2026").arg(s.number));
    const std::int64_t trace = session_->traceId(), number = s.number, total = s.totalBytes();
    tree_.run(session_->storePath(), [this, trace, number, total](Database& db, const Progress&) -> BackgroundQuery::Apply {
        auto tree = std::make_shared<MassifTree>(loadMassifTree(db, trace, number));
        return [this, tree, number, total] {
            model_->setTree(std::move(*tree), total);
            view_->expandToDepth(2);
            showStatus(QString());
            emit treeShown(number);
        };
    });
    emit snapshotShown(s.number);
}

std::int64_t MassifView::currentSnapshot() const {
    const int i = box_->currentIndex();
    return i >= 0 && i < static_cast<int>(detailed_.size()) ? detailed_[static_cast<std::size_t>(i)].number : -1;
}

bool MassifView::showSnapshotNear(std::int64_t x) {
    int best = -1;
    std::int64_t bestDistance = 0;
    for (std::size_t i = 0; i < detailed_.size(); ++i) {
        const std::int64_t d = std::llabs(detailed_[i].x - x);
        if (best < 0 || d < bestDistance) {
            best = static_cast<int>(i);
            bestDistance = d;
        }
    }
    if (best < 0) return false;
    showIndex(best);
    return true;
}

bool MassifView::showSnapshot(std::int64_t number) {
    for (std::size_t i = 0; i < detailed_.size(); ++i)
        if (detailed_[i].number == number) {
            showIndex(static_cast<int>(i));
            return true;
        }
    return false;
}

} // namespace memviz
