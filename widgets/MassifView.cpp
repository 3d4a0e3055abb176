// SPDX-License-Identifier: MIT
#include "widgets/MassifView.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>
#include <cstdlib>

#include "core/Units.h"
#include "widgets/MassifTreeModel.h"
#include "widgets/TraceAxis.h"
#include "widgets/TraceSession.h"

namespace memviz {

MassifView::MassifView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new MassifTreeModel(this)), view_(new QTreeView(this)),
      box_(new QComboBox(this)), info_(new QLabel(this)) {
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
    layout->addWidget(view_);
    connect(box_, qOverload<int>(&QComboBox::currentIndexChanged), this, &MassifView::showIndex);
    connect(session_, &TraceSession::traceChanged, this, &MassifView::reload);
    reload();
}

void MassifView::reload() {
    detailed_.clear();
    const QSignalBlocker block(box_);
    box_->clear();
    model_->setTree({}, 0);
    if (!session_->isOpen() || !appliesTo(session_->summary().trace.format)) return;
    const XKind kind = xKindOf(session_->summary().trace.timeKind);
    int peakIndex = 0;
    for (MassifSnapshot& s : listMassifSnapshots(session_->database(), session_->traceId())) {
        if (!s.detailed()) continue;
        if (s.peak()) peakIndex = static_cast<int>(detailed_.size());
        box_->addItem(tr("%1%2 \u2013 %3 \u2013 %4")
                          .arg(s.number)
                          .arg(s.peak() ? tr(" (peak)") : QString())
                          .arg(xValueText(kind, static_cast<double>(s.x)),
                               QString::fromStdString(formatBytes(static_cast<double>(s.totalBytes())))));
        detailed_.push_back(std::move(s));
    }
    if (!detailed_.empty()) {
        box_->setCurrentIndex(peakIndex);
        showIndex(peakIndex);
    }
}

void MassifView::showIndex(int boxIndex) {
    if (boxIndex < 0 || boxIndex >= static_cast<int>(detailed_.size())) return;
    const MassifSnapshot& s = detailed_[static_cast<std::size_t>(boxIndex)];
    if (box_->currentIndex() != boxIndex) {
        const QSignalBlocker block(box_);
        box_->setCurrentIndex(boxIndex);
    }
    model_->setTree(loadMassifTree(session_->database(), session_->traceId(), s.number), s.totalBytes());
    view_->expandToDepth(2);
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
