// SPDX-License-Identifier: MIT
#include "widgets/snapshot/AllocatorStateView.h"
#include "widgets/Export.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "words/Units.h"
#include "core/Errors.h"
#include "formats/snapshot/SnapshotAllocatorReplay.h"
#include "store/Database.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/DeviceChooser.h"
#include "widgets/snapshot/SegmentMapWidget.h"
#include "widgets/snapshot/SegmentsModel.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "widgets/snapshot/StackPane.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

using words::bytes;

QString swatch(const QColor& c, const QString& label) {
    return QStringLiteral("<span style='background:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2").arg(c.name(), label);
}

} // namespace

AllocatorStateView::AllocatorStateView(SnapshotSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new SegmentsModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)), map_(new SegmentMapWidget(this)), moment_(new QLabel(this)),
      device_(new DeviceChooser(session, this)), figures_(new QLabel(this)),
      stack_(new StackPane(this)), rebuild_(this) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SegmentsModel::SortRole);
    table_->setModel(proxy_);
    exporting::addExportMenu(table_, QStringLiteral("segments")); // right-click: CSV
    table_->setSortingEnabled(true);
    table_->sortByColumn(SegmentsModel::Size, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    figures_->setWordWrap(true);
    figures_->setTextFormat(Qt::RichText);
    moment_->setWordWrap(true);
    stack_->showMessage(tr("Click a block to see where it was allocated."));

    auto* peak = new QPushButton(tr("Peak"), this);
    auto* start = new QPushButton(tr("Start"), this);
    auto* end = new QPushButton(tr("End"), this);
    connect(peak, &QPushButton::clicked, this, [this] { session_->setMoment(session_->peakMoment()); });
    connect(start, &QPushButton::clicked, this, [this] { session_->setMoment(-1); });
    connect(end, &QPushButton::clicked, this, [this] { session_->setMoment(session_->lastMoment()); });
    auto* legend = new QLabel(swatch(QColor("#4e79a7"), tr("allocated (a colour per block)")) + QStringLiteral("&nbsp;&nbsp; ") +
                                  swatch(QColor("#e15759"), tr("pending free")) + QStringLiteral("&nbsp;&nbsp; ") +
                                  swatch(QColor("#ffffff"), tr("free")),
                              this);
    legend->setTextFormat(Qt::RichText);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("State"), this));
    top->addWidget(moment_, 1);
    top->addWidget(start);
    top->addWidget(peak);
    top->addWidget(end);
    top->addWidget(device_);
    top->addWidget(legend);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(map_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // The map on the left, the segment table above the stack of the clicked block on the right.
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(table_);
    right->addWidget(stack_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addLayout(top);
    layout->addWidget(figures_);
    layout->addWidget(split, 1);

    connect(map_, &SegmentMapWidget::segmentClicked, this, &AllocatorStateView::selectSegment);
    connect(map_, &SegmentMapWidget::blockClicked, this, &AllocatorStateView::showBlock);
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        const QModelIndex source = proxy_->mapToSource(current);
        if (source.isValid()) map_->setSelectedSegment(static_cast<std::size_t>(source.row()));
    });
    // A store that cannot be read shows an empty state, as a failed rebuild does.
    rebuild_.setErrorHandler([this](const QString&) {
        state_ = {};
        gap_.reset();
        applyState();
    });
    connect(session_, &SnapshotSession::reloaded, this, [this] {
        device_->sync();
        refresh();
    });
    connect(session_, &SnapshotSession::momentChanged, this, &AllocatorStateView::refresh);
    refresh();
}

AllocatorStateView::~AllocatorStateView() { rebuild_.cancel(); }

void AllocatorStateView::waitForQuery() {
    session_->waitForLoad(); // its reloaded() starts the rebuild
    rebuild_.wait();
}

QString AllocatorStateView::figuresText() const { return figures_->text(); }

void AllocatorStateView::refresh() {
    moment_->setText(session_->describeMoment());
    if (!session_->isActive()) {
        rebuild_.cancel();
        state_ = {};
        gap_.reset();
        applyState();
        return;
    }
    if (session_->loading() || !session_->loadError().isEmpty()) {
        // The allocations are still being read (or could not be); refreshed when they land.
        rebuild_.cancel();
        state_ = {};
        gap_.reset();
        applyState();
        figures_->setText(session_->loading() ? tr("<span style='color:#666'>Reading the allocations\u2026</span>")
                                              : tr("<span style='color:#a00'>Cannot read the allocations: %1</span>")
                                                    .arg(session_->loadError().toHtmlEscaped()));
        return;
    }
    figures_->setText(tr("<span style='color:#666'>Rebuilding the allocator state %1…</span>").arg(session_->describeMoment()));
    const std::int64_t trace = session_->trace()->traceId();
    const int device = session_->device();
    const std::int64_t moment = session_->moment();
    const auto allocations = session_->sharedAllocations();
    rebuild_.run(session_->trace()->storePath(),
                 [this, trace, device, moment, allocations](Database& db, const Progress& progress) -> BackgroundQuery::Apply {
                     AllocatorState state;
                     std::optional<costmodel::ReservedGap> gap;
                     try {
                         state = allocatorStateAt(db, trace, device, moment, *allocations);
                         costmodel::AllocatorReplayInput in = loadAllocatorReplayInput(db, trace, device);
                         in.gapAt = moment;
                         in.progress = &progress;
                         const costmodel::AllocatorReplayResult r = costmodel::replayAllocator(in);
                         if (r.traced) gap = r.gapAt;
                     } catch (const Cancelled&) {
                         throw;
                     } catch (const std::exception&) {
                         state = {};
                     }
                     return [this, state = std::move(state), gap]() mutable {
                         state_ = std::move(state);
                         gap_ = gap;
                         applyState();
                     };
                 });
}

void AllocatorStateView::applyState() {
    model_->setSegments(state_.segments);
    map_->setState(&model_->segments(), &session_->stacks());
    showFigures();
    stack_->showMessage(tr("Click a block to see where it was allocated."));
}

void AllocatorStateView::showFigures() {
    const StateFigures& f = state_.figures;
    QString text = tr("<b>Reserved</b> %1 in %L2 segments &nbsp;&middot;&nbsp; <b>allocated</b> %3 in %L4 blocks (%5 requested)"
                      " &nbsp;&middot;&nbsp; <b>pending free</b> %6 &nbsp;&middot;&nbsp; <b>free</b> (reserved &minus; "
                      "allocated) %7, of which <b>inactive split</b> %8 &nbsp;&middot;&nbsp; <b>largest free gap</b> %9")
                       .arg(bytes(f.reserved))
                       .arg(f.segments)
                       .arg(bytes(f.allocated))
                       .arg(f.blocks)
                       .arg(bytes(f.requested), bytes(f.pendingFree), bytes(f.free), bytes(f.inactiveSplit),
                            bytes(f.largestFree));
    if (session_->isActive() && session_->moment() != session_->lastMoment())
        text += tr("<br><span style='color:#666'>Blocks the trace brings back show the requested size (the trace does not "
                   "record the allocator's rounding); blocks that still exist at the end show their real size.</span>");
    if (gap_ && session_->isActive())
        text += tr("<br><b>Reserved &minus; requested</b> (the allocator model replaying the trace): <b>rounding</b> %1 "
                   "&nbsp;&middot;&nbsp; <b>free split blocks</b> %2 (small pool), %3 (large pool) &nbsp;&middot;&nbsp; "
                   "<b>pending free</b> %4 &nbsp;&middot;&nbsp; <b>whole cached segments</b> %5 in %L6 "
                   "&nbsp;&middot;&nbsp; <b>largest free block</b> %7")
                    .arg(bytes(gap_->rounding), bytes(gap_->splitFreeSmall), bytes(gap_->splitFreeLarge), bytes(gap_->pendingFree),
                         bytes(gap_->cachedSegments))
                    .arg(gap_->cachedSegmentCount)
                    .arg(bytes(gap_->largestFreeBlock));
    if (f.blocksOutsideSegments)
        text += tr("<br><span style='color:#a00'>%L1 blocks lie outside every segment (inconsistent snapshot)</span>")
                    .arg(f.blocksOutsideSegments);
    figures_->setText(text);
}

void AllocatorStateView::selectSegment(std::size_t index) {
    const QModelIndex source = model_->index(static_cast<int>(index), 0);
    const QModelIndex row = proxy_->mapFromSource(source);
    if (row.isValid()) {
        table_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        table_->scrollTo(row);
    }
}

void AllocatorStateView::showBlock(std::size_t segment, std::size_t block) {
    const StateBlock& b = model_->segments()[segment].blocks[block];
    const QString title = tr("Block 0x%1, %2 (%3 requested)%4")
                              .arg(static_cast<quint64>(b.address), 0, 16)
                              .arg(bytes(b.size), bytes(b.requestedSize),
                                   b.kind == StateBlockKind::PendingFree ? tr(", pending free") : QString());
    stack_->showStack(title, session_->stacks().framesOf(b.stack));
}

} // namespace memviz
