// SPDX-License-Identifier: MIT
#include "widgets/ColumnFit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QPointer>
#include <QTableView>
#include <QTimer>
#include <algorithm>

namespace memviz::columns {

namespace {

// The flexible column keeps at least this much, or this share of the view.
constexpr int kMinFlexibleWidth = 240;
constexpr int kMinFlexiblePercent = 35;
// Any other column gets at most this share of the view (longer text is elided in the middle).
constexpr int kMaxOtherPercent = 40;
// Rows measured besides those in sight (Qt's default is 1000 of each column's rows, which made
// fitting a table of thousands of rows a 100 ms stall on the GUI thread).
constexpr int kMeasuredRows = 100;

class Refitter : public QObject {
public:
    Refitter(QTableView* view, int flexible) : QObject(view), view_(view), flexible_(flexible) {
        timer_.setSingleShot(true);
        timer_.setInterval(0);
        connect(&timer_, &QTimer::timeout, this, [this] {
            if (view_) fitToContents(view_, flexible_);
        });
    }
    void schedule() { timer_.start(); }
    bool eventFilter(QObject* watched, QEvent* event) override {
        // The viewport narrows without the view resizing when a vertical scroll bar appears.
        if (view_ && (watched == view_ || watched == view_->viewport()) &&
            (event->type() == QEvent::Resize || event->type() == QEvent::Show))
            schedule();
        return false;
    }

private:
    QPointer<QTableView> view_;
    int flexible_;
    QTimer timer_;
};

} // namespace

void fitToContents(QTableView* view, int flexible) {
    QAbstractItemModel* model = view->model();
    if (!model) return;
    QHeaderView* header = view->horizontalHeader();
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    header->setStretchLastSection(false);
    for (int c = 0; c < model->columnCount(); ++c) header->setSectionResizeMode(c, QHeaderView::Interactive);
    header->setResizeContentsPrecision(kMeasuredRows);
    view->resizeColumnsToContents();
    const int available = view->viewport()->width();
    if (available < 100 || flexible < 0 || flexible >= model->columnCount()) return;
    const int cap = available * kMaxOtherPercent / 100;
    int others = 0;
    for (int c = 0; c < model->columnCount(); ++c) {
        if (c == flexible || header->isSectionHidden(c)) continue;
        if (header->sectionSize(c) > cap) header->resizeSection(c, cap);
        others += header->sectionSize(c);
    }
    const int wanted = header->sectionSize(flexible);
    const int minimum = std::min(wanted, std::max(kMinFlexibleWidth, available * kMinFlexiblePercent / 100));
    header->resizeSection(flexible, std::max(minimum, available - others));
}

void keepFitted(QTableView* view, int flexible) {
    auto* refitter = new Refitter(view, flexible);
    view->installEventFilter(refitter);
    view->viewport()->installEventFilter(refitter);
    if (QAbstractItemModel* model = view->model()) {
        QObject::connect(model, &QAbstractItemModel::modelReset, refitter, &Refitter::schedule);
        QObject::connect(model, &QAbstractItemModel::layoutChanged, refitter, &Refitter::schedule);
        QObject::connect(model, &QAbstractItemModel::rowsInserted, refitter, &Refitter::schedule);
    }
    refitter->schedule();
}

} // namespace memviz::columns
