// SPDX-License-Identifier: MIT
#include "widgets/TimelinePlot.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QKeyEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

#include "words/Units.h"
#include "formats/FormatIds.h"
#include "plot/PlotPeaks.h"
#include "store/TraceWriter.h"
#include "widgets/AxisTickers.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ChartFit.h"
#include "widgets/CallSpanOverlay.h"
#include "widgets/ColumnGraph.h"
#include "widgets/PeakMarkers.h"
#include "widgets/TimelineData.h"
#include "widgets/NoMemoryNotice.h"
#include "widgets/TraceSession.h"
#include "widgets/live/ProcessSeriesLabels.h"
#include "widgets/PlotReplot.h"

namespace memviz {

namespace {

// Room above the highest value, so peak labels sit above the data instead of on it.
constexpr double kValueHeadroom = 1.15;
// ... and at least this many pixels of it, so a short plot still has room for a label line.
constexpr int kPeakLabelRoomPx = 24;
// The read-out line above the plot: time and series values, this many to a line.
constexpr int kReadoutPartsPerLine = 4;
// Region labels stack upwards from this height (axis-rect ratio, 0 = top), in lanes.
constexpr double kRegionLabelBottom = 0.925;
// Marker labels (OOM events, exit status) hang from the top, in lanes.
constexpr double kMarkerLabelTop = 0.0;
// A second bytes line this many times larger than its device's curve would flatten it: off at first.
constexpr double kFlattensAt = 8;
// A label shortened for want of room keeps this many characters.
constexpr int kShortLabelChars = 28;
// The moment's label sits on the bottom line.
constexpr double kMomentLabelBottom = 0.985;
// A dragged selection reaches the tables when the mouse rests this long (or is released).
constexpr int kSelectionSettleMs = 150;
// A layout that changes the plot's size asks the pyramid again. The size settles (the axis
// labels depend on the values' range, not on the width); the cap only guards against a loop.
constexpr int kMaxLayoutRefreshes = 8;
// A press and release closer than this (Manhattan pixels) is a click on a moment, and a drag
// narrower than this is no selection.
constexpr int kClickRadiusPx = 3;
// The time axis leaves this share of the trace's span free before its start and after its end.
constexpr double kTimeMarginBefore = 0.01;
constexpr double kTimeMarginAfter = 0.02;
// A trace of one moment (one massif snapshot, one allocation: no time between its first and
// last event) still gets an axis this wide (in its x unit) from its start, not one nanosecond.
constexpr double kMomentSpanNs = 1e6;
constexpr double kMomentSpanOther = 10; // instructions, bytes, snapshot numbers

QColor seriesColor(std::size_t i) {
    static const QColor palette[] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),   QColor(214, 39, 40),
                                     QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127)};
    return palette[i % std::size(palette)];
}

// Legend text: the device for its allocated bytes, else device and series name; a device
// whose allocated bytes are a running sum (profiler traces without totals) says so.
QString seriesLabel(const SeriesInfo& s, const TraceSession& session) {
    const QString device = QString::fromStdString(s.deviceName);
    if (s.style == kSeriesStacked) return QString::fromStdString(s.name);
    if (s.deviceName == device_name::kProcess) return processSeriesLabel(s.name); // live /proc recordings
    if (s.name != series_name::kAllocated) return device + " " + QString::fromStdString(s.name);
    if (session.metadata(QString::fromStdString(metadata_key::allocatedSource(s.deviceName))) ==
        QLatin1String(metadata_key::kAllocatedFromRunningSum))
        return QObject::tr("%1 allocated (running sum of Bytes)").arg(device);
    return device;
}

} // namespace

TimelinePlot::TimelinePlot(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), plot_(new QCustomPlot(this)),
      timeTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)),
      bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)),
      otherTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Count)) {
    replotQueuedOnResize(plot_); // one redraw after a layout settles, not one per resize
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    notice_ = new NoMemoryNotice(this);
    layout->addWidget(notice_);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumHeight(220);

    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    timeTicker_->setTickCount(8);
    bytesTicker_->setTickCount(6);
    plot_->xAxis->setTicker(timeTicker_);
    plot_->yAxis->setTicker(bytesTicker_);
    otherTicker_->setTickCount(6);
    plot_->yAxis2->setTicker(otherTicker_);
    // The legend sits in a row above the plot, so it never hides data or peak labels.
    putLegendAbovePlot(plot_, 6);
    plot_->legend->setMargins(QMargins(8, 4, 8, 0));
    plot_->setNoAntialiasingOnDrag(true);

    selectionRect_ = new QCPItemRect(plot_);
    selectionRect_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionRect_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionRect_->setPen(QPen(QColor(90, 90, 200, 160)));
    selectionRect_->setBrush(QColor(90, 90, 200, 50));
    selectionRect_->setVisible(false);
    selectionRect_->setSelectable(false);

    cursorLine_ = new QCPItemStraightLine(plot_);
    cursorLine_->setPen(QPen(QColor(0, 0, 0, 90), 1, Qt::DotLine));
    cursorLine_->setVisible(false);
    cursorLine_->setSelectable(false);
    // The read-out has its own line between the legend and the plot: over the plot it hid
    // peak and marker labels. Its height is kept while hovering, so the plot does not move.
    plot_->plotLayout()->insertRow(1);
    readout_ = new QCPTextElement(plot_, QString(), QFont(font().family(), font().pointSize()));
    readout_->setTextColor(QColor(40, 40, 40));
    readout_->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    readout_->setMargins(QMargins(8, 0, 8, 0));
    readout_->setSelectable(false);
    plot_->plotLayout()->addElement(1, 0, readout_);
    plot_->plotLayout()->setRowStretchFactor(1, 0.001);
    plot_->installEventFilter(this);

    refreshQuery_ = new BackgroundQuery(this);
    refreshTimer_.setSingleShot(true);
    refreshTimer_.setInterval(0);
    connect(&refreshTimer_, &QTimer::timeout, this, &TimelinePlot::refreshData);
    connect(plot_, &QCustomPlot::afterLayout, this, &TimelinePlot::onLayoutDone);
    selectionTimer_.setSingleShot(true);
    selectionTimer_.setInterval(kSelectionSettleMs);
    connect(&selectionTimer_, &QTimer::timeout, this, &TimelinePlot::commitDraggedSelection);
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!refreshing_) scheduleRefresh();
        layOutLabels();
    });
    connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { layOutLabels(); });
    connect(plot_, &QCustomPlot::mousePress, this, &TimelinePlot::onMousePress);
    connect(plot_, &QCustomPlot::mouseMove, this, &TimelinePlot::onMouseMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &TimelinePlot::onMouseRelease);
    // A click on a legend entry switches its line on or off (a line that would flatten the
    // others starts off, and says so in its entry).
    connect(plot_, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
        if (!entry) return;
        QCPAbstractPlottable* graph = entry->plottable();
        graph->setVisible(!graph->visible());
        const QString name = graph->name();
        const qsizetype off = name.indexOf(QStringLiteral(" ("));
        if (graph->visible() && name.endsWith(tr("click to show)")) && off >= 0) graph->setName(name.left(off));
        entry->setTextColor(graph->visible() ? QColor(Qt::black) : QColor(Qt::gray));
        resetReadoutLine();
        refresh();
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { session_->setSelection(std::nullopt); });
    overlay_ = new CallSpanOverlay(plot_, session_, this);
    connect(session_, &TraceSession::highlightedOpChanged, this, [this] {
        overlay_->update();
        updateLine();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    // The calls are read on a worker: their band and caption land later.
    connect(overlay_, &CallSpanOverlay::changed, this, [this] {
        updateLine();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    connect(session_, &TraceSession::traceChanged, this, &TimelinePlot::rebuild);
    connect(session_, &TraceSession::liveAdvanced, this, &TimelinePlot::scheduleRefresh);
    connect(session_, &TraceSession::selectionChanged, this, &TimelinePlot::updateSelectionItem);
    rebuild();
}

TimelinePlot::~TimelinePlot() = default;

void TimelinePlot::rebuild() {
    refreshQuery_->cancel(); // it read the previous trace
    clearHover();            // and so did the read-out
    plot_->clearGraphs();
    // Peak markers belong to the previous trace.
    overlayItems_.clear(); // removed below with the peak markers, recreated at the end
    labels_.clear();
    for (int i = plot_->itemCount() - 1; i >= 0; --i) {
        QCPAbstractItem* item = plot_->item(i);
        if (item != selectionRect_ && item != cursorLine_ && !overlay_->owns(item)) plot_->removeItem(item);
    }
    graphs_.clear();
    pens_.clear();
    seriesIds_.clear();
    stackedOn_.clear();
    lastLevels_.clear();
    plot_->yAxis2->setVisible(false);
    lastColumns_ = 0;
    layoutRefreshes_ = 0;
    peakBreakdown_.clear();
    // A trace without memory series gets words instead of an empty chart (a live recording
    // has none until its first sample).
    const bool noMemory = session_->isOpen() && !session_->isLive() && session_->series().empty();
    plot_->setVisible(!noMemory);
    if (noMemory) notice_->showFor(session_->summary());
    else notice_->hide();
    if (!session_->isOpen()) {
        overlay_->update();
        resetReadoutLine();
        plot_->replot();
        return;
    }
    const TraceSummary& summary = session_->summary();
    xKind_ = xKindOf(summary.trace.timeKind);
    timeTicker_->setQuantity(tickerQuantity(xKind_));
    std::map<int, int> stackTop; // per device, the last stacked graph
    // Only the first byte series of a device without stacked series is filled, so that a
    // second line (RSS over heap, say) does not hide the first.
    std::map<int, int> filled;
    std::map<int, bool> stacked;
    for (const SeriesInfo& s : session_->series())
        if (s.style == kSeriesStacked) filled[s.device] = 1, stacked[s.device] = true;
    std::size_t colorIndex = 0;
    for (std::size_t i = 0; i < session_->series().size(); ++i) {
        const SeriesInfo& s = session_->series()[i];
        // Bytes on the left axis; rates and other units on the right one, dashed.
        const bool bytes = s.unit == "bytes";
        QCPGraph* g = new ColumnGraph(plot_->xAxis, bytes ? plot_->yAxis : plot_->yAxis2);
        if (!bytes) plot_->yAxis2->setVisible(true);
        // The total over a stacked chart is a thin dark line; the bands and lines take the
        // palette in order, so a stack's colours do not depend on the total's position.
        const bool totalOverStack = stacked[s.device] && s.style != kSeriesStacked && bytes;
        const QColor color = totalOverStack ? QColor(50, 50, 50) : seriesColor(colorIndex++);
        pens_.emplace_back(color, totalOverStack ? 1.0 : 1.6, bytes && s.name != series_name::kReserved ? Qt::SolidLine : Qt::DashLine);
        g->setPen(pens_.back());
        int below = -2;
        if (s.style == kSeriesStacked) {
            const auto top = stackTop.find(s.device);
            below = top == stackTop.end() ? -1 : top->second;
            g->setBrush(QColor(color.red(), color.green(), color.blue(), 110));
            if (below >= 0) g->setChannelFillGraph(graphs_[static_cast<std::size_t>(below)]);
            stackTop[s.device] = static_cast<int>(graphs_.size());
        } else {
            const bool fill = bytes && !filled[s.device]++;
            g->setBrush(fill ? QBrush(QColor(color.red(), color.green(), color.blue(), 35)) : QBrush(Qt::NoBrush));
        }
        stackedOn_.push_back(below);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setAdaptiveSampling(true);
        g->setName(seriesLabel(s, *session_));
        // A series without data (a reserved line that never leaves zero, massif's stacks
        // without --stacks) would be a legend entry for an invisible line: not drawn, not named.
        if (!session_->isLive() && seriesIsEmpty(s)) {
            g->setVisible(false);
            g->removeFromLegend();
        }
        graphs_.push_back(g);
        seriesIds_.push_back(s.id);
    }
    // A second bytes line of a device so much larger than the device's curve that the curve
    // would be flattened on their shared axis (heaptrack's RSS over the heap) is off at first;
    // its legend entry says so, and a click on it switches it on (and off again).
    for (const DeviceSummary& d : summary.devices) {
        const SeriesInfo* primary = primaryCurve(session_->series(), d);
        if (!primary || primary->vMax <= 0) continue;
        for (std::size_t i = 0; i < session_->series().size(); ++i) {
            const SeriesInfo& s = session_->series()[i];
            if (&s == primary || s.device != d.device || s.unit != "bytes" || s.style == kSeriesStacked || !graphs_[i]->visible())
                continue;
            const double ratio = static_cast<double>(s.vMax) / static_cast<double>(primary->vMax);
            if (ratio < kFlattensAt) continue;
            graphs_[i]->setVisible(false);
            graphs_[i]->setName(tr("%1 (off: %2× the %3; click to show)")
                                    .arg(seriesLabel(s, *session_))
                                    .arg(std::round(ratio))
                                    .arg(seriesLabel(*primary, *session_)));
        }
    }
    lastLevels_.assign(graphs_.size(), 0);
    // Stacked charts: the categories at the peak, shown in the line above the plot when the
    // pointer is elsewhere (a box of them beside the peak hid the data next to it).
    // The peak is the curve's maximum, where its label is; a lower peak the file names itself
    // (massif's detailed peak snapshot) gets its own line.
    peakBreakdown_.clear();
    const std::vector<PlotPeak> curvePeaks = session_->isLive() ? std::vector<PlotPeak>{}
                                                                : plotPeaks(session_->database(), session_->traceId(), summary, session_->series());
    const auto breakdownAt = [&](int device, std::int64_t t, const std::function<QString(const QString&)>& line) {
        const QStringList parts = stackBreakdownAt(*session_, device, t);
        if (parts.isEmpty()) return;
        QStringList lines;
        for (qsizetype i = 0; i < parts.size(); i += kReadoutPartsPerLine)
            lines << parts.mid(i, kReadoutPartsPerLine).join(QStringLiteral(", "));
        peakBreakdown_ += (peakBreakdown_.isEmpty() ? QString() : QStringLiteral("\n")) + line(lines.join(QStringLiteral(",\n")));
    };
    for (const DeviceSummary& d : summary.devices) {
        if (d.peakBytes <= 0) continue;
        const PlotPeak* p = findPlotPeak(curvePeaks, d.device);
        breakdownAt(d.device, p ? p->t : d.peakTimeNs,
                    [&](const QString& parts) { return tr("At the %1 peak: %2").arg(QString::fromStdString(d.name), parts); });
        if (p && p->named)
            breakdownAt(d.device, p->named->t, [&](const QString& parts) {
                return tr("At %1 (%2 at %3): %4")
                    .arg(QString::fromStdString(p->named->what),
                         QString::fromStdString(formatBytes(static_cast<double>(p->named->bytes))),
                         xValueText(xKind_, static_cast<double>(p->named->t)), parts);
            });
    }
    resetReadoutLine();
    addPeakMarkers(plot_, *session_, [this](double x) { return xValueText(xKind_, x); }, labels_);
    createOverlayItems();
    updateSelectionItem();
    resetZoom();
}

void TimelinePlot::setReadoutExtra(std::function<QString(std::int64_t)> extra) {
    readoutExtra_ = std::move(extra);
    resetReadoutLine();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::setOverlays(std::vector<TimelineMarker> markers, std::vector<TimelineRegion> regions) {
    markers_ = std::move(markers);
    regions_ = std::move(regions);
    createOverlayItems();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::setMoment(std::optional<std::int64_t> t, const QString& label) {
    moment_ = t;
    momentLabel_ = label;
    createOverlayItems();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::createOverlayItems() {
    for (QCPAbstractItem* item : overlayItems_) plot_->removeItem(item);
    overlayItems_.clear();
    labels_.clear(kOverlayLabels);
    const auto addText = [this](std::int64_t t, double yRatio, const QString& label, const QColor& color, LabelSide side,
                                int priority) {
        auto* text = new QCPItemText(plot_);
        text->setText(label);
        text->setColor(color);
        text->setBrush(QColor(255, 255, 255, 210));
        text->setPadding(QMargins(3, 1, 3, 1));
        text->setSelectable(false);
        overlayItems_.push_back(text);
        // A long label may be shortened to its first words when nowhere has room for all of it.
        const QString firstLine = label.section(QLatin1Char('\n'), 0, 0);
        const QString shortText = firstLine.size() > kShortLabelChars ? firstLine.left(kShortLabelChars - 1) + QChar(0x2026)
                                  : firstLine != label                ? firstLine
                                                                      : QString();
        labels_.add({text, static_cast<double>(t), yRatio, false, true, false, side, priority, label, shortText, kOverlayLabels});
    };
    // Regions as shaded bands with their label near the bottom.
    for (const TimelineRegion& r : regions_) {
        auto* band = new QCPItemRect(plot_);
        band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        band->topLeft->setCoords(static_cast<double>(r.begin), 0);
        band->bottomRight->setCoords(static_cast<double>(std::max(r.end, r.begin + 1)), 1);
        band->setPen(QPen(QColor(r.color.red(), r.color.green(), r.color.blue(), 140)));
        band->setBrush(QColor(r.color.red(), r.color.green(), r.color.blue(), 38));
        band->setSelectable(false);
        band->setLayer("background");
        overlayItems_.push_back(band);
        if (r.label.isEmpty()) continue; // an unnamed band (its colour names it)
        addText(r.begin, kRegionLabelBottom, r.label, r.color.darker(160), LabelSide::Above, 30);
    }
    auto addLine = [this](std::int64_t t, const QColor& color, Qt::PenStyle style) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(static_cast<double>(t), 0);
        line->point2->setCoords(static_cast<double>(t), 1);
        line->setPen(QPen(color, 1.4, style));
        line->setSelectable(false);
        overlayItems_.push_back(line);
    };
    // The moment's label near the bottom line, annotations and OOMs near the top; where they
    // go exactly is the placement rule's (layOutLabels).
    if (moment_) {
        addLine(*moment_, QColor(40, 40, 40), Qt::DashLine);
        if (!momentLabel_.isEmpty())
            addText(*moment_, kMomentLabelBottom, momentLabel_, QColor(40, 40, 40).darker(130), LabelSide::Above, 15);
    }
    for (const TimelineMarker& m : markers_) {
        addLine(m.t, m.color, Qt::SolidLine);
        if (!m.label.isEmpty()) addText(m.t, kMarkerLabelTop, m.label, m.color.darker(130), LabelSide::Below, 10);
    }
    layOutLabels();
}

void TimelinePlot::layOutLabels() { labels_.layOut(plot_); }

void TimelinePlot::resetZoom() {
    const TimeRange r = session_->isOpen() ? session_->fullRange() : TimeRange{0, 1};
    const double moment = xKind_ == XKind::Time ? kMomentSpanNs : kMomentSpanOther;
    const double span = r.end > r.begin ? static_cast<double>(r.end - r.begin) : moment;
    plot_->xAxis->setRange(static_cast<double>(r.begin) - span * kTimeMarginBefore,
                           static_cast<double>(r.begin) + span * (1 + kTimeMarginAfter));
    refresh();
}

void TimelinePlot::scheduleRefresh() { refreshTimer_.start(); }

void TimelinePlot::refresh() {
    refreshTimer_.stop();
    refreshData();
}

void TimelinePlot::refreshNow() {
    refresh();
    refreshQuery_->wait();
}

void TimelinePlot::refreshData() {
    if (!session_->isOpen()) return;
    const QCPRange xr = plot_->xAxis->range();
    TimelineRequest request;
    request.live = session_->isLive();
    request.traceId = session_->traceId();
    request.range = {static_cast<std::int64_t>(std::floor(xr.lower)), static_cast<std::int64_t>(std::ceil(xr.upper))};
    request.traceEnd = session_->fullRange().end;
    request.columns = std::max(1, plot_->axisRect()->width());
    lastColumns_ = request.columns;
    lastHeight_ = plot_->axisRect()->height();
    for (std::size_t i = 0; i < graphs_.size(); ++i) {
        const SeriesInfo& info = session_->series()[i];
        request.series.push_back(
            {seriesIds_[i], info.tLast, info.vFinal, stackedOn_[i], graphs_[i]->valueAxis() == plot_->yAxis2, !graphs_[i]->visible()});
    }
    // The store is read on a worker; a newer range supersedes this one (its result is dropped).
    refreshQuery_->run(session_->storePath(), [this, request](Database& db, const Progress& cancel) -> BackgroundQuery::Apply {
        auto read = std::make_shared<TimelineData>(readTimelineData(db, request, cancel));
        return [this, read, columns = request.columns] { applyData(std::move(*read), columns); };
    });
}

void TimelinePlot::applyData(TimelineData read, int columns) {
    if (read.keys.size() != graphs_.size()) return; // another trace's graphs
    refreshing_ = true;
    const int height = plot_->axisRect()->height();
    const double headroom = std::max(
        kValueHeadroom, height > 3 * kPeakLabelRoomPx ? static_cast<double>(height) / (height - kPeakLabelRoomPx) : 1.5);
    lastLevels_ = std::move(read.levels);
    lastPointCount_ = read.pointCount;
    // A trace of one moment (a snapshot without history: its segments at one instant) is one
    // point per series, which a step line does not draw: its level is drawn across the axis.
    const TimeRange full = session_->fullRange();
    const double momentEnd = static_cast<double>(full.begin) + (xKind_ == XKind::Time ? kMomentSpanNs : kMomentSpanOther);
    for (std::size_t i = 0; i < graphs_.size(); ++i) {
        graphs_[i]->setData(read.keys[i], read.values[i], true);
        if (full.end <= full.begin && !read.keys[i].isEmpty() && read.keys[i].last() < momentEnd)
            graphs_[i]->addData(momentEnd, read.values[i].last());
        graphs_[i]->setPen(densityPen(pens_[i], read.keys[i].size(), columns));
    }
    plot_->yAxis->setRange(0, read.yMax > 0 ? read.yMax * headroom : 1024);
    plot_->yAxis2->setRange(0, read.y2Max > 0 ? read.y2Max * headroom : 10);
    updateAxisLabels();
    overlay_->update();
    updateLine();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    refreshing_ = false;
}

void TimelinePlot::updateAxisLabels() {
    timeTicker_->updateUnit(plot_->xAxis->range());
    bytesTicker_->updateUnit(plot_->yAxis->range());
    otherTicker_->updateUnit(plot_->yAxis2->range());
    plot_->xAxis->setLabel(xAxisLabel(xKind_, timeTicker_->unitSuffix()));
    plot_->yAxis->setLabel(tr("Memory (%1)").arg(bytesTicker_->unitSuffix()));
    for (const SeriesInfo& s : session_->isOpen() ? session_->series() : std::vector<SeriesInfo>{})
        if (s.unit != "bytes") {
            const QString unit = QString::fromStdString(s.unit);
            const QString scale = otherTicker_->unitSuffix();
            plot_->yAxis2->setLabel(scale.isEmpty() ? unit : QStringLiteral("%1 (%2)").arg(unit, scale));
            break;
        }
}

void TimelinePlot::updateSelectionItem() {
    const auto& sel = session_->selection();
    selectionRect_->setVisible(sel.has_value());
    if (sel) {
        selectionRect_->topLeft->setCoords(static_cast<double>(sel->begin), 0);
        selectionRect_->bottomRight->setCoords(static_cast<double>(sel->end), 1);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString TimelinePlot::readoutAt(std::int64_t t) {
    if (!session_->isOpen()) return {};
    QStringList parts{xValueText(xKind_, static_cast<double>(t))};
    for (std::size_t i = 0; i < graphs_.size(); ++i) {
        if (!graphs_[i]->visible()) continue;
        const auto v = session_->valueAt(seriesIds_[i], t);
        const std::string& unit = session_->series()[i].unit;
        parts << QStringLiteral("%1: %2").arg(graphs_[i]->name(),
                                              v ? seriesValueText(unit, static_cast<double>(*v)) : tr("none"));
    }
    if (readoutExtra_) {
        const QString extra = readoutExtra_(t);
        if (!extra.isEmpty()) parts << extra;
    }
    QStringList lines;
    for (qsizetype i = 0; i < parts.size(); i += kReadoutPartsPerLine)
        lines << parts.mid(i, kReadoutPartsPerLine).join(QStringLiteral("   "));
    return lines.join(QStringLiteral("\n"));
}

void TimelinePlot::resetReadoutLine() {
    // As many (blank) lines as a read-out of these series takes.
    const qsizetype drawn = std::count_if(graphs_.begin(), graphs_.end(), [](const QCPGraph* g) { return g->visible(); });
    const qsizetype parts = 1 + drawn + (readoutExtra_ ? 1 : 0);
    const qsizetype lines = std::max<qsizetype>({1, (parts + kReadoutPartsPerLine - 1) / kReadoutPartsPerLine,
                                                 peakBreakdown_.isEmpty() ? 0 : peakBreakdown_.count('\n') + 1});
    QStringList blank;
    for (qsizetype i = 0; i < lines; ++i) blank << QStringLiteral(" ");
    readoutBlank_ = blank.join(QStringLiteral("\n"));
    shownReadout_.clear();
    updateLine();
}

void TimelinePlot::updateLine() {
    // The read-out while hovering, else the caption of the marked calls, else blank lines.
    if (!shownReadout_.isEmpty()) {
        readout_->setText(shownReadout_);
        readout_->setTextColor(QColor(40, 40, 40));
        readout_->setTextFlags(Qt::AlignRight | Qt::AlignVCenter);
    } else if (!overlay_->caption().isEmpty()) {
        readout_->setText(overlay_->caption());
        readout_->setTextColor(QColor(230, 120, 0).darker(130));
        readout_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    } else if (!peakBreakdown_.isEmpty()) {
        readout_->setText(peakBreakdown_);
        readout_->setTextColor(QColor(160, 20, 20));
        readout_->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    } else {
        readout_->setText(readoutBlank_);
    }
}

void TimelinePlot::clearHover() {
    cursorLine_->setVisible(false);
    shownReadout_.clear();
    updateLine();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::onLayoutDone() {
    layOutLabels(); // the axis rect's size decides where the labels fit
    // The first layout of a trace (legend, axis labels, the window's own size) changes the
    // width the data was asked for: ask again, so the first drawing is what Home draws.
    if (!session_->isOpen() || lastColumns_ == 0) return;
    if (std::max(1, plot_->axisRect()->width()) == lastColumns_ && plot_->axisRect()->height() == lastHeight_) {
        layoutRefreshes_ = 0;
        return;
    }
    if (++layoutRefreshes_ <= kMaxLayoutRefreshes) scheduleRefresh();
}

bool TimelinePlot::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave) clearHover();
    return QWidget::eventFilter(watched, event);
}

void TimelinePlot::onMousePress(QMouseEvent* event) {
    const bool select = event->button() == Qt::RightButton ||
                        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    clickCandidate_ = event->button() == Qt::LeftButton && !select;
    pressPos_ = event->position();
    if (!select || !session_->isOpen()) return;
    plot_->setInteraction(QCP::iRangeDrag, false);
    selecting_ = true;
    clearHover();
    selectStart_ = plot_->xAxis->pixelToCoord(event->position().x());
    selectEnd_ = selectStart_;
}

void TimelinePlot::onMouseMove(QMouseEvent* event) {
    const double x = plot_->xAxis->pixelToCoord(event->position().x());
    if (selecting_) {
        selectEnd_ = x;
        selectionRect_->setVisible(true);
        selectionRect_->topLeft->setCoords(std::min(selectStart_, x), 0);
        selectionRect_->bottomRight->setCoords(std::max(selectStart_, x), 1);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        selectionTimer_.start(); // restarted by every move: fires when the mouse rests
        return;
    }
    if (!session_->isOpen() || !plot_->axisRect()->rect().contains(event->position().toPoint())) {
        clearHover();
        return;
    }
    const QString text = readoutAt(static_cast<std::int64_t>(std::llround(x)));
    cursorLine_->point1->setCoords(x, 0);
    cursorLine_->point2->setCoords(x, 1);
    cursorLine_->setVisible(true);
    shownReadout_ = text;
    updateLine();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    emit hoverTextChanged(text);
}

void TimelinePlot::onMouseRelease(QMouseEvent* event) {
    if (!selecting_) {
        const bool click = clickCandidate_ && (event->position() - pressPos_).manhattanLength() < kClickRadiusPx;
        clickCandidate_ = false;
        if (click && session_->isOpen())
            emit timeClicked(static_cast<std::int64_t>(std::llround(plot_->xAxis->pixelToCoord(event->position().x()))));
        return;
    }
    selecting_ = false;
    plot_->setInteraction(QCP::iRangeDrag, true);
    selectEnd_ = plot_->xAxis->pixelToCoord(event->position().x());
    const double pixels = std::fabs(plot_->xAxis->coordToPixel(selectEnd_) - plot_->xAxis->coordToPixel(selectStart_));
    selectionTimer_.stop();
    if (pixels < kClickRadiusPx) {
        session_->setSelection(std::nullopt);
        return;
    }
    commitDraggedSelection();
}

void TimelinePlot::commitDraggedSelection() {
    if (!session_->isOpen()) return;
    const double pixels = std::fabs(plot_->xAxis->coordToPixel(selectEnd_) - plot_->xAxis->coordToPixel(selectStart_));
    if (pixels < kClickRadiusPx) return;
    const TimeRange range{static_cast<std::int64_t>(std::llround(std::min(selectEnd_, selectStart_))),
                          static_cast<std::int64_t>(std::llround(std::max(selectEnd_, selectStart_)))};
    if (session_->selection() && session_->selection()->begin == range.begin && session_->selection()->end == range.end) return;
    session_->setSelection(range);
}

void TimelinePlot::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape) session_->setSelection(std::nullopt);
    else if (event->key() == Qt::Key_Home) resetZoom();
    else QWidget::keyPressEvent(event);
}

} // namespace memviz
