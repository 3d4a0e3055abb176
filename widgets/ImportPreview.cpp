// SPDX-License-Identifier: MIT
#include "widgets/ImportPreview.h"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <qcustomplot.h>

#include "words/Units.h"
#include "widgets/AxisTickers.h"
#include "widgets/ChartFit.h"
#include "widgets/ColumnGraph.h"
#include "widgets/PlotReplot.h"
#include "widgets/TraceAxis.h"

namespace memviz {

namespace {

// The timeline's palette, in its order (a device's allocated, then its reserved series), so the
// preview's colours are the ones the trace opens with.
QColor seriesColor(std::size_t i) {
    static const QColor palette[] = {QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),   QColor(214, 39, 40),
                                     QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127)};
    return palette[i % std::size(palette)];
}

// base + value in double: values from a file (or a worker) may not add up within 64 bits.
double sum(std::int64_t base, std::int64_t value) { return static_cast<double>(base) + static_cast<double>(value); }

QString bytesText(double bytes) { return QString::fromStdString(formatBytes(bytes)); }

} // namespace

ImportPreview::ImportPreview(QWidget* parent)
    : QWidget(parent), title_(new QLabel(this)), peak_(new QLabel(this)), note_(new QLabel(this)), plot_(new QCustomPlot(this)),
      xTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Time)),
      bytesTicker_(new ScaledAxisTicker(ScaledAxisTicker::Quantity::Bytes)) {
    setObjectName(QStringLiteral("importPreview"));
    auto* layout = new QVBoxLayout(this);
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    title_->setFont(big);
    title_->setWordWrap(true);
    note_->setText(tr("Memory read so far. The timeline, the allocations and the other views open when the import ends."));
    note_->setWordWrap(true);
    peak_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(title_);
    layout->addWidget(note_);
    layout->addWidget(peak_);
    layout->addWidget(plot_, 1);

    replotQueuedOnResize(plot_);
    xTicker_->setTickCount(8);
    bytesTicker_->setTickCount(6);
    plot_->xAxis->setTicker(xTicker_);
    plot_->yAxis->setTicker(bytesTicker_);
    putLegendAbovePlot(plot_, 4);
    plot_->legend->setVisible(true);
    redrawTimer_.setSingleShot(true);
    connect(&redrawTimer_, &QTimer::timeout, this, &ImportPreview::redraw);
    // Benchmarks (docs/performance-snapshot.md, "First view"): when each replot with points ran.
    if (qEnvironmentVariableIsSet("MEMVIZ_PREVIEW_DEBUG"))
        connect(plot_, &QCustomPlot::afterReplot, this, [this] {
            if (hasPoints())
                qInfo("memviz: preview replotted %d ms after the import started, in %.1f ms (%s)",
                      static_cast<int>(sinceStart_.elapsed()), plot_->replotTime(), qPrintable(peakText().replace('\n', "; ")));
        });
    start(QString());
}

ImportPreview::~ImportPreview() = default;

void ImportPreview::start(const QString& path) {
    clear();
    sinceStart_.start();
    title_->setText(path.isEmpty() ? QString() : tr("Reading %1…").arg(QFileInfo(path).fileName()));
}

void ImportPreview::clear() {
    redrawTimer_.stop();
    curves_.clear();
    plot_->clearGraphs();
    peak_->clear();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ImportPreview::restart() {
    curves_.clear();
    plot_->clearGraphs();
    scheduleRedraw();
}

bool ImportPreview::hasPoints() const {
    for (const auto& [name, c] : curves_)
        if (!c.points.empty()) return true;
    return false;
}

int ImportPreview::drawnPoints(const std::string& device) const {
    const auto it = curves_.find(device);
    return it == curves_.end() || !it->second.allocated ? 0 : it->second.allocated->dataCount();
}

ImportPreview::Curve& ImportPreview::curve(const std::string& device) {
    const auto [it, inserted] = curves_.try_emplace(device);
    Curve& c = it->second;
    if (inserted) {
        const QColor color = seriesColor(2 * (curves_.size() - 1)), reservedColor = seriesColor(2 * curves_.size() - 1);
        const QString name = QString::fromStdString(device);
        // Filled by pixel column (ColumnGraph): Qt's polygon fill of a dense step line took up to
        // 115 ms a replot here.
        c.allocated = new ColumnGraph(plot_->xAxis, plot_->yAxis);
        c.allocated->setName(tr("%1 allocated").arg(name));
        c.allocatedPen = QPen(color, 1.5);
        c.allocated->setPen(c.allocatedPen);
        c.allocated->setBrush(QColor(color.red(), color.green(), color.blue(), 35));
        c.reserved = plot_->addGraph();
        c.reserved->setName(tr("%1 reserved").arg(name));
        c.reservedPen = QPen(reservedColor, 1.5, Qt::DashLine);
        c.reserved->setPen(c.reservedPen);
        for (QCPGraph* g : {c.allocated, c.reserved}) {
            g->setLineStyle(QCPGraph::lsStepLeft);
            g->setAdaptiveSampling(true);
        }
    }
    return c;
}

void ImportPreview::add(const PreviewBatch& batch) {
    // Another axis (the importer switched to entry numbers): what was drawn cannot be placed.
    if (!batch.points.empty() && batch.axis != axis_) {
        if (hasPoints()) restart();
        axis_ = batch.axis;
    }
    if (batch.points.empty() && !curves_.count(batch.device)) return; // bases of a device never drawn
    Curve& c = curve(batch.device);
    c.allocatedBase = batch.allocatedBase;
    c.reservedBase = batch.reservedBase;
    for (const PreviewPoint& p : batch.points) c.points.add(p);
    scheduleRedraw();
}

// At once when nothing was drawn for a while (the first points paint at once), else at most
// every kReplotIntervalMs.
void ImportPreview::scheduleRedraw() {
    if (redrawTimer_.isActive()) return;
    const qint64 since = sinceRedraw_.isValid() ? sinceRedraw_.elapsed() : kReplotIntervalMs;
    redrawTimer_.start(static_cast<int>(std::max<qint64>(0, kReplotIntervalMs - since)));
}

void ImportPreview::redrawNow() {
    if (!redrawTimer_.isActive()) return;
    redrawTimer_.stop();
    redraw();
}

void ImportPreview::redraw() {
    sinceRedraw_.start();
    const bool timed = axis_ == PreviewAxis::TimeUs;
    std::vector<std::vector<PreviewPoint>> points;
    for (const auto& [name, c] : curves_) points.push_back(c.points.points());
    // Times from the earliest seen (the importer's axis starts at the trace's first entry).
    std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
    for (const auto& device : points)
        if (!device.empty()) t0 = std::min(t0, device.front().x);
    if (!timed || t0 == std::numeric_limits<std::int64_t>::max()) t0 = 0;
    double xMax = 0, yMax = 0;
    QStringList peaks;
    std::size_t i = 0;
    for (auto& [name, c] : curves_) {
        const std::vector<PreviewPoint>& device = points[i++];
        QVector<QCPGraphData> allocated, reserved;
        allocated.reserve(static_cast<qsizetype>(device.size()));
        reserved.reserve(static_cast<qsizetype>(device.size()));
        for (const PreviewPoint& p : device) {
            const double x = timed
                                 ? static_cast<double>(static_cast<std::uint64_t>(p.x) - static_cast<std::uint64_t>(t0)) * 1000.0
                                 : static_cast<double>(p.x);
            allocated.push_back({x, sum(c.allocatedBase, p.allocated)});
            reserved.push_back({x, sum(c.reservedBase, p.reserved)});
            xMax = std::max(xMax, x);
            yMax = std::max({yMax, allocated.back().value, reserved.back().value});
        }
        c.allocated->data()->set(allocated, true);
        c.reserved->data()->set(reserved, true);
        // A dense curve gets a one-pixel pen, which Qt strokes fast (as on the timeline).
        const int columns = std::max(1, plot_->axisRect()->width());
        c.allocated->setPen(densityPen(c.allocatedPen, allocated.size(), columns));
        c.reserved->setPen(densityPen(c.reservedPen, reserved.size(), columns));
        if (!device.empty())
            peaks << tr("%1 – peak so far: %2 (now %3 allocated, %4 reserved)")
                         .arg(QString::fromStdString(name), bytesText(sum(c.allocatedBase, c.points.maxAllocated())),
                              bytesText(sum(c.allocatedBase, c.points.last().allocated)),
                              bytesText(sum(c.reservedBase, c.points.last().reserved)));
    }
    peak_->setText(peaks.join('\n'));
    const XKind kind = timed ? XKind::Time : XKind::Index;
    xTicker_->setQuantity(tickerQuantity(kind));
    plot_->xAxis->setRange(0, xMax > 0 ? xMax * 1.02 : 1);
    plot_->yAxis->setRange(0, yMax > 0 ? yMax * 1.1 : 1024);
    xTicker_->updateUnit(plot_->xAxis->range());
    bytesTicker_->updateUnit(plot_->yAxis->range());
    plot_->xAxis->setLabel(xAxisLabel(kind, xTicker_->unitSuffix()));
    plot_->yAxis->setLabel(tr("Memory (%1)").arg(bytesTicker_->unitSuffix()));
    replotWhenShown(plot_);
}

QString ImportPreview::peakText() const { return peak_->text(); }

} // namespace memviz
