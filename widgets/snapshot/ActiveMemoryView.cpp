// SPDX-License-Identifier: MIT
#include "widgets/snapshot/ActiveMemoryView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "words/Units.h"
#include "formats/snapshot/SnapshotQueries.h"
#include "widgets/AxisTickers.h"
#include "widgets/PlotReplot.h"
#include "widgets/TraceAxis.h"
#include "widgets/TraceSession.h"
#include "widgets/snapshot/AllocationBands.h"
#include "widgets/snapshot/SnapshotSession.h"
#include "widgets/snapshot/StackPane.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {
using words::bytes;
} // namespace

ActiveMemoryView::ActiveMemoryView(SnapshotSession* session, QWidget* parent)
    : QWidget(parent), session_(session), headline_(new QLabel(this)), plot_(new QCustomPlot(this)),
      bands_(new AllocationBands(plot_->xAxis, plot_->yAxis)), stack_(new StackPane(this)),
      timeTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)),
      bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)), momentLine_(new QCPItemStraightLine(plot_)),
      layoutJob_(this) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    momentLine_->setPen(QPen(QColor(40, 40, 40), 1, Qt::DashLine));
    momentLine_->setSelectable(false);
    momentLine_->setVisible(false);
    headline_->setWordWrap(true);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(timeTicker_));
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(bytesTicker_));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->setMouseTracking(true);
    plot_->setMinimumSize(300, 200);
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { updateAxes(); });
    connect(plot_, &QCustomPlot::mouseMove, this, &ActiveMemoryView::onMouseMove);
    connect(plot_, &QCustomPlot::mousePress, this, &ActiveMemoryView::onClick);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] {
        plot_->rescaleAxes();
        plot_->yAxis->setRangeLower(0);
        updateAxes();
        replotWhenShown(plot_, QCustomPlot::rpRefreshHint);
    });

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(plot_);
    split->addWidget(stack_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 320}); // the stack pane: room for a frame name and an elided path
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(headline_);
    layout->addWidget(split, 1);

    connect(session_, &SnapshotSession::reloaded, this, &ActiveMemoryView::rebuild);
    connect(session_, &SnapshotSession::momentChanged, this, &ActiveMemoryView::showMoment);
    rebuild();
    showMoment();
}

ActiveMemoryView::~ActiveMemoryView() { layoutJob_.cancel(); }

void ActiveMemoryView::waitForLayout() {
    session_->waitForLoad(); // its reloaded() starts the layout
    layoutJob_.wait();
}

void ActiveMemoryView::rebuild() {
    bands_->clear();
    if (!session_->isActive()) {
        layoutJob_.cancel();
        headline_->clear();
        replotWhenShown(plot_, QCustomPlot::rpRefreshHint);
        return;
    }
    if (session_->loading() || !session_->loadError().isEmpty()) {
        // The allocations are still being read (or could not be): rebuilt when they land.
        layoutJob_.cancel();
        headline_->setText(session_->loading() ? tr("Reading the allocations\u2026")
                                               : tr("Cannot read the allocations: %1").arg(session_->loadError()));
        replotWhenShown(plot_, QCustomPlot::rpRefreshHint);
        return;
    }
    headline_->setText(tr("Stacking the allocations…"));
    const auto allocations = session_->sharedAllocations();
    const std::int64_t end = session_->trace()->summary().trace.durationNs;
    layoutJob_.run([this, allocations, end](const Progress&) -> BackgroundQuery::Apply {
        std::vector<ActiveSpan> spans;
        spans.reserve(allocations->size());
        for (const SnapshotAllocationRow& a : *allocations) {
            ActiveSpan s;
            s.allocSeq = a.allocSeq;
            s.freeSeq = a.freeSeq;
            s.xAlloc = a.allocSeq < 0 ? 0 : a.tAlloc.value_or(0);
            s.xFree = a.freeSeq ? a.tFree.value_or(end) : end;
            s.size = a.requestedSize;
            spans.push_back(s);
        }
        Computed c;
        c.layout = layoutActiveMemory(spans, kMaxBands);
        for (const ActiveBand& b : c.layout.bands) c.sites.push_back((*allocations)[b.span].stack);
        c.blocks = AllocationBands::summaryBlocksOf(c.layout);
        return [this, c = std::move(c)]() mutable { applyLayout(std::move(c)); };
    });
}

void ActiveMemoryView::applyLayout(Computed c) {
    bands_->setLayout(std::move(c.layout), std::move(c.sites), std::move(c.blocks));
    // A snapshot without segments has no device statistics, hence no device name.
    QString device = QString::fromStdString(session_->deviceStats() ? session_->deviceStats()->name : std::string());
    if (device.isEmpty()) device = tr("the snapshot");
    headline_->setText(tr("Every allocation of %1 from its allocation to its free, stacked in the order they were made: "
                          "when one is freed, those above it drop. ")
                           .arg(device) +
                       headline());
    plot_->rescaleAxes();
    // The timeline's window, set before the layout arrived (the walk of issue 30 found the first
    // drawing on the bands' own extent, and a different one after Home).
    if (followedX_) plot_->xAxis->setRange(followedX_->first, followedX_->second);
    plot_->yAxis->setRange(0, std::max<double>(1.0, static_cast<double>(bands_->layout().maxTotal)) * 1.05);
    updateAxes();
    showMoment();
    stack_->showMessage(tr("Hover over a band to name the allocation; click it for its stack."));
    replotWhenShown(plot_); // drawn in its own event, after this one
}

void ActiveMemoryView::setXRange(double lower, double upper) {
    if (upper > lower) followedX_ = {lower, upper};
    if (upper <= lower || plot_->xAxis->range() == QCPRange(lower, upper)) return;
    plot_->xAxis->setRange(lower, upper);
    replotWhenShown(plot_);
}

void ActiveMemoryView::showMoment() {
    const auto t = session_->isActive() ? session_->momentTime() : std::nullopt;
    momentLine_->setVisible(t.has_value());
    if (t) {
        momentLine_->point1->setCoords(static_cast<double>(*t), 0);
        momentLine_->point2->setCoords(static_cast<double>(*t), 1);
    }
    replotWhenShown(plot_);
}

QString ActiveMemoryView::headline() const {
    const ActiveLayout& l = bands_->layout();
    if (l.bands.empty()) return tr("No allocations in this trace.");
    QString s = tr("%L1 allocations as bands, coloured by call site").arg(l.bands.size());
    if (l.summarisedCount > 0)
        s += tr("; %L1 smaller ones (up to %2) summed in grey on top").arg(l.summarisedCount).arg(bytes(l.smallestBand));
    return s + tr(". Highest point: %1.").arg(bytes(l.maxTotal));
}

void ActiveMemoryView::updateAxes() {
    const XKind kind = session_->timed() ? XKind::Time : XKind::Index;
    timeTicker_->setQuantity(tickerQuantity(kind));
    timeTicker_->updateUnit(plot_->xAxis->range());
    bytesTicker_->updateUnit(plot_->yAxis->range());
    plot_->xAxis->setLabel(xAxisLabel(kind, timeTicker_->unitSuffix()));
    plot_->yAxis->setLabel(tr("Allocated (%1)").arg(bytesTicker_->unitSuffix()));
}

std::optional<std::size_t> ActiveMemoryView::bandUnder(const QPointF& pixel) const {
    const auto x = static_cast<std::int64_t>(plot_->xAxis->pixelToCoord(pixel.x()));
    const auto y = static_cast<std::int64_t>(plot_->yAxis->pixelToCoord(pixel.y()));
    return bandAt(bands_->layout(), x, y);
}

std::optional<std::size_t> ActiveMemoryView::allocationAt(const QPointF& pixel) const {
    const auto band = bandUnder(pixel);
    if (!band) return std::nullopt;
    return bands_->layout().bands[*band].span;
}

QString ActiveMemoryView::describe(std::size_t row) const {
    const SnapshotAllocationRow& a = session_->allocations()[row];
    QString text = tr("0x%1: %2 requested").arg(static_cast<quint64>(a.address), 0, 16).arg(bytes(a.requestedSize));
    text += QStringLiteral("\n") + (a.allocSeq < 0 ? tr("allocated before the trace began")
                                                   : tr("allocated at %1").arg(session_->formatTime(a.tAlloc.value_or(0))));
    text += QStringLiteral("\n") + (a.freeSeq ? tr("freed at %1").arg(session_->formatTime(a.tFree.value_or(0)))
                                              : tr("alive when the snapshot was taken"));
    const std::string site = session_->stacks().siteOf(a.stack);
    if (!site.empty()) text += QStringLiteral("\n") + QString::fromStdString(site);
    return text;
}

void ActiveMemoryView::onMouseMove(QMouseEvent* event) {
    const auto band = bandUnder(event->position());
    if (band != bands_->highlighted()) { // redraw only when the band under the pointer changes
        bands_->setHighlighted(band);
        replotWhenShown(plot_);
    }
    if (band) QToolTip::showText(event->globalPosition().toPoint(), describe(bands_->layout().bands[*band].span), plot_);
    else QToolTip::hideText();
}

void ActiveMemoryView::onClick(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    const auto row = allocationAt(event->position());
    if (!row) return;
    const SnapshotAllocationRow& a = session_->allocations()[*row];
    stack_->showStack(describe(*row).replace(QLatin1Char('\n'), QStringLiteral(" \u2014 ")),
                      session_->stacks().framesOf(a.stack), session_->stacks().contexts.at(a.device, a.allocSeq));
    session_->setMomentAtTime(static_cast<std::int64_t>(plot_->xAxis->pixelToCoord(event->position().x())));
}

} // namespace memviz
