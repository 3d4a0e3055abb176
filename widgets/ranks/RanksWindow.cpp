// SPDX-License-Identifier: MIT
#include "widgets/ranks/RanksWindow.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QShortcut>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "core/Progress.h"
#include "ranks/RankSources.h"
#include "store/Database.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ranks/RanksPlot.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

constexpr int kCurveColumns = 2000; // about the plot's width in pixels, twice
constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kSelectionColumn = 6;

QStandardItem* cell(const QString& text, double value) {
    auto* item = new QStandardItem(text);
    item->setData(value, kSortRole);
    item->setEditable(false);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem* nameCell(const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(text, kSortRole);
    item->setEditable(false);
    item->setToolTip(text);
    return item;
}

// Where a raw file's import is kept: the window's import cache (the same store the main
// window uses for that file).
std::string importStoreFor(const std::string& file) {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/imports";
    QDir().mkpath(dir);
    const QByteArray key = QCryptographicHash::hash(QFileInfo(QString::fromStdString(file)).absoluteFilePath().toUtf8(),
                                                    QCryptographicHash::Sha1);
    return (dir + "/" + QString::fromLatin1(key.toHex().left(16)) + ".memviz").toStdString();
}

// The highest point of `curve` (shifted by `offset`) inside [from, to]; the curve is the
// plot's own (a few thousand points), so this is bounded by what is on screen.
std::optional<std::int64_t> peakIn(const std::vector<SeriesPoint>& curve, std::int64_t offset, double from, double to) {
    std::optional<std::int64_t> best;
    std::optional<std::int64_t> before; // the value the step line holds when the window begins
    for (const SeriesPoint& p : curve) {
        const double t = static_cast<double>(p.t + offset);
        if (t < from) {
            before = p.v;
            continue;
        }
        if (t > to) break;
        best = std::max(best.value_or(p.v), p.v);
    }
    if (before) best = std::max(best.value_or(*before), *before);
    return best;
}

} // namespace

RanksWindow::RanksWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), status_(new QLabel(this)), plot_(new RanksPlot(this)), tableView_(new QTableView(this)),
      table_(new QStandardItemModel(this)), query_(new BackgroundQuery(this)) {
    setWindowTitle(tr("Ranks — memviz"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tableView_->setModel(table_);
    tableView_->verticalHeader()->hide();
    tableView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tableView_->setSelectionMode(QAbstractItemView::SingleSelection);
    plot_->setMinimumHeight(300);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(tableView_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 200});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
    connect(plot_, &RanksPlot::selectionChanged, this, &RanksWindow::showSelection);
    connect(tableView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { plot_->highlight(current.isValid() ? current.row() : -1); });
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    query_->setErrorHandler([this](const QString& message) { status_->setText(tr("Cannot show the ranks: %1").arg(message)); });
    resize(1100, 800);
}

RanksWindow::~RanksWindow() = default;

void RanksWindow::open(const QStringList& paths) {
    status_->setText(tr("Reading the ranks of %1…").arg(paths.join(QStringLiteral(", "))));
    std::vector<std::string> given;
    for (const QString& p : paths) given.push_back(p.toStdString());
    query_->run([this, given](const Progress& progress) -> BackgroundQuery::Apply {
        const std::vector<RankSource> sources = resolveRankPaths(given, importStoreFor, progress);
        std::vector<std::unique_ptr<Database>> dbs;
        std::vector<RankInput> inputs;
        for (const RankSource& s : sources) {
            dbs.push_back(std::make_unique<Database>(s.storePath, Database::Mode::ReadOnly));
            inputs.push_back({dbs.back().get(), s.traceId, s.name});
        }
        auto set = std::make_shared<RankSet>(readRankSet(inputs, "", progress, kCurveColumns));
        return [this, set] {
            set_ = std::move(*set);
            showSet();
        };
    });
}

void RanksWindow::showSet() {
    const RankSet& set = *set_;
    plot_->show(set);
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("Rank"), tr("Device"), tr("Peak"), tr("Peak at"), tr("Final"),
                                       tr("Top operator at the peak"), tr("Peak in selection")});
    for (const RankRow& r : set.rows)
        table_->appendRow({nameCell(QString::fromStdString(r.name)), nameCell(QString::fromStdString(r.device)),
                           cell(words::bytes(r.peakBytes), static_cast<double>(r.peakBytes)),
                           cell(words::duration(r.peakTimeNs), static_cast<double>(r.peakTimeNs)),
                           cell(words::bytes(r.finalBytes), static_cast<double>(r.finalBytes)),
                           nameCell(r.topOp.empty() ? QStringLiteral("—")
                                                    : tr("%1 (%2)").arg(QString::fromStdString(r.topOp), words::bytes(r.topOpBytes))),
                           cell(QStringLiteral("—"), 0)});
    tableView_->resizeColumnsToContents();
    showSelection();
}

void RanksWindow::showSelection() {
    if (!set_) return;
    const RankSet& set = *set_;
    const RankImbalance& im = set.imbalance;
    const RankRow& hi = set.rows[im.maxRow];
    const RankRow& lo = set.rows[im.minRow];
    QString text = tr("%1 ranks, %2 bytes")
                       .arg(set.rows.size())
                       .arg(set.device == "cuda" ? tr("each rank's own CUDA device's") : QString::fromStdString(set.device));
    text += tr(" · imbalance: %1 peaks at %2, %3 at %4").arg(QString::fromStdString(hi.name), words::bytes(hi.peakBytes),
                                                            QString::fromStdString(lo.name), words::bytes(lo.peakBytes));
    text += im.ratio ? tr(" (max/min %1×, %2 apart)").arg(*im.ratio, 0, 'f', 2).arg(words::bytes(im.spreadBytes))
                     : tr(" (a peak of 0)");
    if (!im.op.empty())
        text += tr("; most of it %1 (+%2)").arg(QString::fromStdString(im.op), words::bytes(im.opDeltaBytes));
    text += set.wallClock ? tr(" · lanes lined up by the clock they recorded") : tr(" · lanes lined up at their starts");
    const auto sel = plot_->selection();
    if (sel) text += tr(" · selected %1").arg(words::duration(static_cast<std::int64_t>(sel->second - sel->first)));
    status_->setText(text);
    for (int i = 0; i < table_->rowCount() && i < static_cast<int>(set.rows.size()); ++i) {
        const RankRow& r = set.rows[static_cast<std::size_t>(i)];
        const auto peak = sel ? peakIn(r.curve, r.startOffsetNs, sel->first, sel->second) : std::nullopt;
        QStandardItem* item = table_->item(i, kSelectionColumn);
        item->setText(peak ? words::bytes(*peak) : QStringLiteral("—"));
        item->setData(static_cast<double>(peak.value_or(0)), kSortRole);
    }
}

void RanksWindow::waitForResult() { query_->wait(); }

} // namespace memviz
