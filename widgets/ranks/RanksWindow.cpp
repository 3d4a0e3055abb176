// SPDX-License-Identifier: MIT
#include "widgets/ranks/RanksWindow.h"

#include <QCloseEvent>
#include <QCryptographicHash>
#include <QEventLoop>
#include <QHBoxLayout>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "core/Progress.h"
#include "ranks/GatheredRanks.h"
#include "ranks/RankSources.h"
#include "ranks/SelectionPeak.h"
#include "store/Database.h"
#include "store/StoreFiles.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ImportTask.h"
#include "widgets/ranks/RanksHeatmap.h"
#include "widgets/ranks/RanksPlot.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

constexpr int kCurveColumns = 2000; // about the plot's width in pixels, twice
constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kSelectionColumn = 6;
constexpr int kSetRowRole = Qt::UserRole + 2; // on column 0: the row of the set (the table sorts)
constexpr int kMaxLanes = 32;                 // more ranks: one row each (RanksHeatmap)

// The gathered store PATHs name: the one store given, or ranks.memviz in the one folder given,
// when it holds a gathered set ("" otherwise).
std::string gatheredStoreIn(const std::vector<std::string>& paths) {
    if (paths.size() != 1) return {};
    std::string store = paths[0];
    if (QFileInfo(QString::fromStdString(store)).isDir()) store = QDir(QString::fromStdString(store)).filePath("ranks.memviz").toStdString();
    if (!QFileInfo::exists(QString::fromStdString(store)) || !isStoreFile(store)) return {};
    Database db(store, Database::Mode::ReadOnly);
    return hasGatheredRanks(db) ? store : std::string();
}

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
QString importStoreFor(const std::string& file) {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/imports";
    QDir().mkpath(dir);
    const QByteArray key = QCryptographicHash::hash(QFileInfo(QString::fromStdString(file)).absoluteFilePath().toUtf8(),
                                                    QCryptographicHash::Sha1);
    return dir + "/" + QString::fromLatin1(key.toHex().left(16)) + ".memviz";
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
    : QWidget(parent, Qt::Window), status_(new QLabel(this)), plot_(new RanksPlot(this)), heatmap_(new RanksHeatmap(this)),
      chart_(new QStackedWidget(this)), filter_(new QLineEdit(this)), tableView_(new QTableView(this)),
      table_(new QStandardItemModel(this)), cancel_(new QPushButton(tr("Cancel"), this)), query_(new BackgroundQuery(this)),
      selectionQuery_(new BackgroundQuery(this)), import_(new ImportTask(this)) {
    import_->setObjectName(QStringLiteral("ranksImport"));
    setWindowTitle(tr("Ranks — memviz"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tableView_->setModel(table_);
    tableView_->verticalHeader()->hide();
    tableView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    tableView_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setSortRole(kSortRole);
    tableView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // the set's order until a header is clicked
    tableView_->setSortingEnabled(true);
    plot_->setMinimumHeight(300);
    chart_->addWidget(plot_);
    chart_->addWidget(heatmap_);
    filter_->setPlaceholderText(tr("Filter the ranks by name or top operator"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, this, &RanksWindow::setFilter);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(filter_);
    lowerLayout->addWidget(tableView_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chart_);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({520, 200});
    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(cancel_, 0, Qt::AlignTop);
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &RanksWindow::cancel);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(plot_, &RanksPlot::selectionChanged, this, &RanksWindow::showSelection);
    connect(tableView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = current.isValid() ? setRowOf(current.row()) : -1;
                plot_->highlight(row);
                heatmap_->highlight(row);
            });
    connect(tableView_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { openRank(setRowOf(index.row())); });
    connect(heatmap_, &RanksHeatmap::rowClicked, this, [this](int row) {
        const int t = tableRowOf(row);
        if (t >= 0) tableView_->selectRow(t);
        heatmap_->highlight(row);
    });
    connect(heatmap_, &RanksHeatmap::rowActivated, this, [this](int row) { openRank(row); });
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    query_->setErrorHandler([this](const QString& message) {
        QString text = tr("Cannot show the ranks: %1").arg(message);
        for (const QString& f : failures_) text += QStringLiteral("\n") + f;
        status_->setText(text);
        done();
    });
    selectionQuery_->setErrorHandler([this](const QString& message) {
        status_->setText(status_->text() + tr("\nCannot read the peaks in the selection: %1").arg(message));
    });
    connectImport();
    resize(1100, 800);
}

RanksWindow::~RanksWindow() = default;

void RanksWindow::connectImport() {
    connect(import_, &ImportTask::progress, this, [this](int permille, const QString& phase) {
        const RankPathEntry& e = plan_[next_];
        status_->setText(tr("Importing rank file %1 of %2: %3 — %4 %5%")
                             .arg(next_ + 1)
                             .arg(plan_.size())
                             .arg(QFileInfo(QString::fromStdString(e.path)).fileName(), phase)
                             .arg(permille / 10));
    });
    connect(import_, &ImportTask::succeeded, this, [this](const QString& store, qint64 traceId, bool) {
        sources_[next_] = RankSource{store.toStdString(), traceId, plan_[next_].name};
        ++next_;
        importNext();
    });
    connect(import_, &ImportTask::failed, this, [this](const QString& message) {
        const QString file = QString::fromStdString(plan_[next_].path);
        failures_ << (message.contains(file) || message.contains(QFileInfo(file).fileName()) ? message
                                                                                              : tr("%1: %2").arg(file, message));
        ++next_;
        importNext();
    });
}

void RanksWindow::open(const QStringList& paths) {
    cancel();
    busy_ = true;
    cancel_->show();
    set_.reset();
    gathered_ = false;
    failures_.clear();
    plan_.clear();
    sources_.clear();
    next_ = 0;
    status_->setText(tr("Reading the ranks of %1…").arg(paths.join(QStringLiteral(", "))));
    std::vector<std::string> given;
    for (const QString& p : paths) given.push_back(p.toStdString());
    query_->run([this, given](const Progress&) -> BackgroundQuery::Apply {
        if (const std::string store = gatheredStoreIn(given); !store.empty()) { // the set itself, nothing to import
            Database db(store, Database::Mode::ReadOnly);
            auto set = std::make_shared<RankSet>(readGatheredRanks(db));
            return [this, set] {
                set_ = std::move(*set);
                gathered_ = true;
                showSet();
                done();
            };
        }
        auto plan = std::make_shared<std::vector<RankPathEntry>>(planRankPaths(given));
        return [this, plan] {
            plan_ = std::move(*plan);
            sources_.assign(plan_.size(), std::nullopt);
            importNext();
        };
    });
}

// The next raw file to the reader child; stores need no import. When none is left: readSet.
void RanksWindow::importNext() {
    while (next_ < plan_.size() && !plan_[next_].raw) ++next_;
    if (next_ >= plan_.size()) return readSet();
    const QString file = QString::fromStdString(plan_[next_].path);
    status_->setText(tr("Importing rank file %1 of %2: %3…").arg(next_ + 1).arg(plan_.size()).arg(QFileInfo(file).fileName()));
    import_->start(file, importStoreFor(plan_[next_].path));
}

void RanksWindow::readSet() {
    const auto plan = plan_;
    const auto sources = sources_;
    const QStringList failures = failures_;
    query_->run([this, plan, sources, failures](const Progress& progress) -> BackgroundQuery::Apply {
        std::vector<std::unique_ptr<Database>> dbs;
        std::vector<RankInput> inputs;
        for (std::size_t i = 0; i < plan.size(); ++i) {
            std::optional<RankSource> s = sources[i];
            if (!plan[i].raw) { // a store's trace (0: its latest)
                const OpenedTrace t = openTrace(plan[i].path, std::string(), progress, plan[i].traceId, ImportStore::Keep);
                s = RankSource{t.storePath, t.traceId, plan[i].name};
            }
            if (!s) continue; // its import failed: named in the status line
            dbs.push_back(std::make_unique<Database>(s->storePath, Database::Mode::ReadOnly));
            inputs.push_back({dbs.back().get(), s->traceId, s->name});
        }
        if (inputs.size() < 2 && !failures.isEmpty())
            throw RankSetError(std::to_string(failures.size()) + " of " + std::to_string(plan.size()) +
                               " rank files could not be read, fewer than two ranks are left");
        auto set = std::make_shared<RankSet>(readRankSet(inputs, "", progress, kCurveColumns));
        return [this, set] {
            set_ = std::move(*set);
            showSet();
            done();
        };
    });
}

void RanksWindow::done() {
    cancel_->hide();
    if (!busy_) return;
    busy_ = false;
    emit finished();
}

void RanksWindow::cancel() {
    if (!busy_) return;
    query_->cancel();
    if (import_->isRunning()) { // a new task: deleting the running one ends its child (and drops its empty cache store)
        delete import_;
        import_ = new ImportTask(this);
        import_->setObjectName(QStringLiteral("ranksImport"));
        connectImport();
    }
    status_->setText(tr("Cancelled: no ranks shown."));
    done();
}

void RanksWindow::closeEvent(QCloseEvent* event) {
    cancel();
    QWidget::closeEvent(event);
}

void RanksWindow::showSet() {
    const RankSet& set = *set_;
    if (set.rows.size() > static_cast<std::size_t>(kMaxLanes)) {
        plot_->show(RankSet{}); // nothing drawn twice
        heatmap_->show(set);
        chart_->setCurrentWidget(heatmap_);
    } else {
        plot_->show(set);
        chart_->setCurrentWidget(plot_);
    }
    tableView_->setSortingEnabled(false);
    table_->clear();
    table_->setHorizontalHeaderLabels({tr("Rank"), tr("Device"), tr("Peak"), tr("Peak at"), tr("Final"),
                                       tr("Top operator at the peak"), tr("Peak in selection")});
    for (const RankRow& r : set.rows)
        table_->appendRow({nameCell(QString::fromStdString(r.name)), nameCell(QString::fromStdString(r.device)),
                           cell(words::bytes(r.peakBytes), static_cast<double>(r.peakBytes)),
                           cell(words::duration(r.peakTimeNs), static_cast<double>(r.peakTimeNs)),
                           cell(words::bytes(r.finalBytes), static_cast<double>(r.finalBytes)),
                           nameCell(r.topOp.empty() ? QStringLiteral("—")
                                    : (r.topOpPaired ? tr("%1 (%2)") : tr("%1 (%2, net of its calls)"))
                                          .arg(QString::fromStdString(r.topOp), words::bytes(r.topOpBytes))),
                           cell(QStringLiteral("—"), 0)});
    for (int i = 0; i < table_->rowCount(); ++i) {
        table_->item(i, 0)->setData(i, kSetRowRole);
        table_->item(i, 0)->setData(i, kSortRole); // by rank, not by the text ("rank 10" after "rank 1")
    }
    tableView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    tableView_->setSortingEnabled(true);
    setFilter(filter_->text());
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
        text += (im.opPaired ? tr("; most of it %1 (+%2)") : tr("; most of it %1 (+%2, nets of its calls)"))
                    .arg(QString::fromStdString(im.op), words::bytes(im.opDeltaBytes));
    text += set.wallClock ? tr(" · lanes lined up by the clock they recorded") : tr(" · lanes lined up at their starts");
    const auto sel = plot_->selection();
    if (sel) text += tr(" · selected %1").arg(words::duration(static_cast<std::int64_t>(sel->second - sel->first)));
    if (!failures_.isEmpty()) {
        text += tr("\n%1 of %2 rank files could not be read and are left out:").arg(failures_.size()).arg(plan_.size());
        for (const QString& f : failures_) text += QStringLiteral("\n  ") + f;
    }
    status_->setText(text);

    // The lanes' curves answer at once (to the pixel); the store then answers exactly.
    selectionPeaks_.assign(set.rows.size(), std::nullopt);
    selectionExact_ = false;
    selectionQuery_->cancel();
    if (sel) {
        for (std::size_t i = 0; i < set.rows.size(); ++i)
            selectionPeaks_[i] = peakIn(set.rows[i].curve, set.rows[i].startOffsetNs, sel->first, sel->second);
        struct Lane {
            std::string store;
            std::int64_t series, begin, end;
        };
        std::vector<Lane> lanes;
        for (const RankRow& r : set.rows) {
            const double offset = static_cast<double>(r.startOffsetNs);
            lanes.push_back({r.storePath, r.seriesId, static_cast<std::int64_t>(std::ceil(sel->first - offset)),
                             static_cast<std::int64_t>(std::floor(sel->second - offset))});
        }
        selectionQuery_->run([this, lanes](const Progress& progress) -> BackgroundQuery::Apply {
            std::map<std::string, std::unique_ptr<Database>> dbs;
            auto peaks = std::make_shared<std::vector<std::optional<std::int64_t>>>();
            for (const Lane& l : lanes) {
                progress.checkCancelled();
                if (l.series == 0) {
                    peaks->push_back(std::nullopt);
                    continue;
                }
                auto& db = dbs[l.store];
                if (!db) db = std::make_unique<Database>(l.store, Database::Mode::ReadOnly);
                // A window between two whole nanoseconds holds the value of the one before.
                peaks->push_back(l.end < l.begin ? seriesValueAt(*db, l.series, l.end)
                                                 : seriesPeakIn(*db, l.series, TimeRange{l.begin, l.end}));
            }
            return [this, peaks] {
                selectionPeaks_ = std::move(*peaks);
                selectionExact_ = true;
                showSelectionPeaks();
            };
        });
    }
    showSelectionPeaks();
}

void RanksWindow::showSelectionPeaks() {
    for (int t = 0; t < table_->rowCount(); ++t) {
        const int i = setRowOf(t);
        if (i < 0 || i >= static_cast<int>(selectionPeaks_.size())) continue;
        const auto& peak = selectionPeaks_[static_cast<std::size_t>(i)];
        QStandardItem* item = table_->item(t, kSelectionColumn);
        item->setText(!peak ? QStringLiteral("—") : selectionExact_ ? words::bytes(*peak) : QStringLiteral("≈ ") + words::bytes(*peak));
        item->setToolTip(!peak || selectionExact_ ? QString() : tr("From the lane's curve; the exact value is being read"));
        item->setData(static_cast<double>(peak.value_or(0)), kSortRole);
    }
}

std::optional<std::int64_t> RanksWindow::selectionPeak(int row, bool* exact) const {
    if (exact) *exact = selectionExact_;
    if (row < 0 || row >= static_cast<int>(selectionPeaks_.size())) return std::nullopt;
    return selectionPeaks_[static_cast<std::size_t>(row)];
}

int RanksWindow::setRowOf(int tableRow) const {
    const QStandardItem* item = table_->item(tableRow, 0);
    return item ? item->data(kSetRowRole).toInt() : -1;
}

int RanksWindow::tableRowOf(int setRow) const {
    for (int t = 0; t < table_->rowCount(); ++t)
        if (setRowOf(t) == setRow) return t;
    return -1;
}

bool RanksWindow::showsHeatmap() const { return chart_->currentWidget() == heatmap_; }

void RanksWindow::setFilter(const QString& text) {
    if (filter_->text() != text) filter_->setText(text); // comes back here once
    for (int t = 0; t < table_->rowCount(); ++t) {
        const bool match = text.isEmpty() || table_->item(t, 0)->text().contains(text, Qt::CaseInsensitive) ||
                           table_->item(t, 5)->text().contains(text, Qt::CaseInsensitive);
        tableView_->setRowHidden(t, !match);
    }
}

bool RanksWindow::openRank(int row) {
    if (!set_ || row < 0 || row >= static_cast<int>(set_->rows.size())) return false;
    const RankRow& r = set_->rows[static_cast<std::size_t>(row)];
    const QString store = QString::fromStdString(r.storePath);
    if (!QFileInfo::exists(store)) {
        status_->setText(tr("%1's full store is not on this machine: %2\nCopy it here (it is where its Slurm task wrote it, "
                            "beside the rank's file or in the job's store folder) and choose the rank again.")
                             .arg(QString::fromStdString(r.name), store));
        return false;
    }
    status_->setText(tr("Opening %1's full store: %2").arg(QString::fromStdString(r.name), store));
    emit traceRequested(store, r.traceId);
    return true;
}

void RanksWindow::waitForSelectionPeaks() { selectionQuery_->wait(); }

void RanksWindow::waitForResult() {
    if (!busy_) return;
    QEventLoop loop;
    connect(this, &RanksWindow::finished, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace memviz
