// SPDX-License-Identifier: MIT
#include "widgets/compare/CompareWindow.h"

#include <QComboBox>
#include <QEventLoop>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <cstdlib>

#include "words/Units.h"
#include "store/Database.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ImportTask.h"
#include "widgets/ColumnFit.h"
#include "widgets/compare/ComparePlot.h"
#include "words/UnitTexts.h"

namespace memviz {

namespace {

constexpr int kCurveColumns = 2000; // about the plot's width in pixels, twice
constexpr int kSortRole = CompareRowsModel::kSortRole;


// A cell showing `text`, sorted by `value`; deltas are coloured (red: B uses more).
QStandardItem* cell(const QString& text, double value, bool delta = false) {
    auto* item = new QStandardItem(text);
    item->setData(value, kSortRole);
    item->setEditable(false);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (delta && value != 0) item->setForeground(value > 0 ? QColor(190, 30, 30) : QColor(30, 130, 60));
    return item;
}

// A name cell, sorted by its text.
QStandardItem* nameCell(const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(text, kSortRole);
    item->setEditable(false);
    item->setToolTip(text);
    return item;
}

} // namespace

CompareWindow::CompareWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), status_(new QLabel(this)), align_(new QComboBox(this)), plot_(new ComparePlot(this)),
      devicesView_(new QTableView(this)), rowsView_(new QTableView(this)), filter_(new QLineEdit(this)),
      rowsChoice_(new QComboBox(this)), devices_(new QStandardItemModel(this)), rows_(new CompareRowsModel(this)), proxy_(new QSortFilterProxyModel(this)),
      query_(new BackgroundQuery(this)), details_(new BackgroundQuery(this)), rowQuery_(new BackgroundQuery(this)),
      import_(new ImportTask(this)) {
    setWindowTitle(tr("Compare — memviz"));
    // A long status (two long file names, an alignment) wraps instead of widening the window.
    status_->setWordWrap(true);
    align_->addItem(tr("Line up the first common step (else the starts)"), static_cast<int>(CompareAlign::Auto));
    align_->addItem(tr("Line up the starts"), static_cast<int>(CompareAlign::Start));
    align_->addItem(tr("Line up the peaks"), static_cast<int>(CompareAlign::Peak));
    align_->addItem(tr("Line up at a marker…"), static_cast<int>(CompareAlign::Marker));
    align_->setToolTip(tr("How trace B is shifted in time against trace A"));
    filter_->setPlaceholderText(tr("Filter rows (Ctrl+F)"));
    filter_->setClearButtonEnabled(true);
    proxy_->setSourceModel(rows_);
    proxy_->setSortRole(kSortRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(0);
    rowsView_->setModel(proxy_);
    rowsView_->setSortingEnabled(true);
    // The name column takes what the figures leave (a C++ site can be thousands of pixels wide,
    // which pushed every header out of sight); long names are elided in the middle.
    columns::keepFitted(rowsView_, 0);
    devicesView_->setModel(devices_);
    for (QTableView* v : {rowsView_, devicesView_}) {
        v->verticalHeader()->hide();
        v->setSelectionBehavior(QAbstractItemView::SelectRows);
    }
    plot_->setMinimumHeight(320);

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(align_);
    auto* below = new QWidget(this);
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(devicesView_);
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(filter_, 1);
    filterRow->addWidget(rowsChoice_);
    belowLayout->addLayout(filterRow);
    belowLayout->addWidget(rowsView_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(below);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({460, 300});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(align_, &QComboBox::currentIndexChanged, this, &CompareWindow::alignmentChosen);
    rowsChoice_->setToolTip(tr("Which differences the table lists"));
    rowsChoice_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(rowsChoice_, &QComboBox::currentIndexChanged, this, &CompareWindow::showRows);
    rowsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    rowsView_->setToolTip(tr("Choose a row to draw its curve in both traces"));
    connect(rowsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CompareWindow::rowChosen);
    details_->setErrorHandler([this](const QString& message) {
        status_->setText(tr("Cannot read the snapshots' blocks: %1").arg(message));
    });
    rowQuery_->setErrorHandler([this](const QString& message) {
        markedRow_.clear();
        plot_->showRow({}, {}, {});
        status_->setText(tr("Cannot read the row's curves: %1").arg(message));
    });
    connect(plot_, &ComparePlot::shiftDragged, this, [this](std::int64_t delta) {
        manualShift_ = delta;
        showStatus();
    });
    auto* find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, filter_, [this] {
        filter_->setFocus();
        filter_->selectAll();
    });
    auto* home = new QShortcut(QKeySequence(Qt::Key_Home), this);
    connect(home, &QShortcut::activated, plot_, &ComparePlot::resetZoom);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    query_->setErrorHandler([this](const QString& message) { status_->setText(tr("Cannot compare: %1").arg(message)); });
    connect(import_, &ImportTask::progress, this, [this](int permille, const QString& phase) {
        status_->setText(tr("Importing B (%1): %2 — %3%").arg(nameB_, phase).arg(permille / 10));
    });
    connect(import_, &ImportTask::succeeded, this, [this](const QString& store, qint64 trace, bool) {
        storeB_ = store;
        traceB_ = trace;
        load();
    });
    connect(import_, &ImportTask::failed, this, [this](const QString& message) { status_->setText(message); });
    resize(1100, 760);
}

CompareWindow::~CompareWindow() = default;

void CompareWindow::compareWithFile(const QString& storeA, qint64 traceA, const QString& nameA, const QString& pathB,
                                    const QString& importStoreB) {
    storeA_ = storeA;
    traceA_ = traceA;
    nameA_ = nameA;
    nameB_ = QFileInfo(pathB).fileName();
    status_->setText(tr("Opening %1…").arg(nameB_));
    import_->start(pathB, importStoreB);
}

void CompareWindow::compare(const QString& storeA, qint64 traceA, const QString& nameA, const QString& storeB, qint64 traceB,
                            const QString& nameB) {
    storeA_ = storeA;
    traceA_ = traceA;
    nameA_ = nameA;
    storeB_ = storeB;
    traceB_ = traceB;
    nameB_ = nameB;
    load();
}

void CompareWindow::setAlignment(CompareAlign align) { align_->setCurrentIndex(align_->findData(static_cast<int>(align))); }

void CompareWindow::alignmentChosen() {
    if (static_cast<CompareAlign>(align_->currentData().toInt()) == CompareAlign::Marker) {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Line up at a marker"),
                                                   tr("Marker name (a record_function label, ProfilerStep#N, a probe marker):"),
                                                   QLineEdit::Normal, marker_, &ok)
                                 .trimmed();
        if (ok && !name.isEmpty()) {
            alignAtMarker(name);
        } else {
            const QSignalBlocker blocker(align_);
            align_->setCurrentIndex(previousAlign_);
        }
        return;
    }
    previousAlign_ = align_->currentIndex();
    manualShift_ = 0; // a new alignment starts from scratch
    showComparison();
}

void CompareWindow::alignAtMarker(const QString& name) {
    if (!comparison_) return;
    {
        const QSignalBlocker blocker(align_);
        align_->setCurrentIndex(align_->findData(static_cast<int>(CompareAlign::Marker)));
    }
    previousAlign_ = align_->currentIndex();
    marker_ = name;
    status_->setText(tr("Looking for the marker “%1”…").arg(name));
    const std::string a = storeA_.toStdString(), b = storeB_.toStdString(), marker = name.toStdString();
    const std::string formatA = comparison_->a.summary.trace.format, formatB = comparison_->b.summary.trace.format;
    const qint64 ta = traceA_, tb = traceB_;
    query_->run([this, a, b, ta, tb, formatA, formatB, marker](const Progress&) -> BackgroundQuery::Apply {
        Database dbA(a, Database::Mode::ReadOnly);
        Database dbB(b, Database::Mode::ReadOnly);
        const std::optional<std::int64_t> ma = findMarker(dbA, ta, formatA, marker), mb = findMarker(dbB, tb, formatB, marker);
        return [this, ma, mb] {
            if (!comparison_) return;
            comparison_->a.marker = ma;
            comparison_->b.marker = mb;
            manualShift_ = 0;
            showComparison();
        };
    });
}

void CompareWindow::load() {
    status_->setText(tr("Comparing %1 with %2…").arg(nameA_, nameB_));
    const std::string a = storeA_.toStdString(), b = storeB_.toStdString();
    const qint64 ta = traceA_, tb = traceB_;
    query_->run([this, a, b, ta, tb](const Progress& progress) -> BackgroundQuery::Apply {
        Database dbA(a, Database::Mode::ReadOnly);
        Database dbB(b, Database::Mode::ReadOnly);
        auto c = std::make_shared<TraceComparison>(compareTraces(dbA, ta, dbB, tb, "", kCurveColumns, progress, false));
        return [this, c] {
            details_->cancel();
            rowQuery_->cancel();
            rows_->show(nullptr, rows_->rows());
            comparison_ = std::move(*c);
            manualShift_ = 0;
            showComparison();
            showTables();
            loadSnapshotDetails();
        };
    });
}

void CompareWindow::loadSnapshotDetails() {
    if (!comparison_ || !comparesSnapshots(*comparison_)) return;
    const std::string a = storeA_.toStdString(), b = storeB_.toStdString();
    const qint64 ta = traceA_, tb = traceB_;
    auto base = std::make_shared<TraceComparison>(*comparison_); // devices and summaries to read them for
    details_->run([this, a, b, ta, tb, base](const Progress& progress) -> BackgroundQuery::Apply {
        Database dbA(a, Database::Mode::ReadOnly);
        Database dbB(b, Database::Mode::ReadOnly);
        addSnapshotDetails(*base, dbA, ta, dbB, tb, progress);
        return [this, base] {
            if (!comparison_) return;
            const CompareRows shown = rows_->rows();
            rows_->show(nullptr, shown);
            comparison_->blocks = std::move(base->blocks);
            comparison_->peakSites = std::move(base->peakSites);
            offerRows();
            const int again = rowsChoice_->findData(static_cast<int>(shown));
            const QSignalBlocker blocker(rowsChoice_);
            rowsChoice_->setCurrentIndex(std::max(0, again));
            showRows();
        };
    });
}

void CompareWindow::showStatus() {
    if (!comparison_) return;
    const TraceComparison& c = *comparison_;
    const auto align = static_cast<CompareAlign>(align_->currentData().toInt());
    QString how;
    if (!aligned_.problem.empty())
        how = tr("; cannot line up at “%1”: %2, lined up at the starts").arg(marker_, QString::fromStdString(aligned_.problem));
    else if (aligned_.used == CompareAlign::Step) how = tr("; lined up at step %1").arg(aligned_.step);
    else if (aligned_.used == CompareAlign::Marker) how = tr("; lined up at marker “%1”").arg(marker_);
    else if (align == CompareAlign::Auto) how = tr("; no step in both, lined up at the starts");
    const std::int64_t shift = aligned_.shift + manualShift_;
    const bool timed = c.b.summary.trace.timeKind == "time"; // else B's x counts events, instructions, ...
    auto signedDuration = [timed](std::int64_t x) {
        return (x < 0 ? "−" : "+") + (timed ? words::duration(std::llabs(x)) : QString::number(std::llabs(x)));
    };
    QString shifted;
    if (manualShift_) shifted = tr("; B shifted by %1 (%2 of it by Shift+drag)").arg(signedDuration(shift), signedDuration(manualShift_));
    else if (shift) shifted = tr("; B shifted by %1").arg(signedDuration(shift));
    const QString marked = markedRow_.isEmpty() ? QString() : tr("; dotted: %1 in each").arg(markedRow_);
    status_->setText(tr("A: %1 (%2)   B: %3 (%4)   differences are B − A%5%6%7")
                         .arg(nameA_, QString::fromStdString(c.a.summary.trace.format), nameB_,
                              QString::fromStdString(c.b.summary.trace.format), how, shifted, marked));
}

void CompareWindow::showComparison() {
    if (!comparison_) return;
    const TraceComparison& c = *comparison_;
    const auto align = static_cast<CompareAlign>(align_->currentData().toInt());
    aligned_ = alignTraces(c, AlignSpec{align, 0, marker_.toStdString()});
    plot_->show(c, aligned_.shift + manualShift_, nameA_, nameB_);
    showStatus();
}

void CompareWindow::showTables() {
    if (!comparison_) return;
    const TraceComparison& c = *comparison_;
    devices_->clear();
    devices_->setHorizontalHeaderLabels(
        {tr("Device"), tr("Peak A"), tr("Peak B"), tr("Δ peak"), tr("Final A"), tr("Final B"), tr("Δ final")});
    for (const DeviceDiff& d : c.devices)
        devices_->appendRow({nameCell(QString::fromStdString(d.name)), cell(words::bytes(d.peakBytes.a), d.peakBytes.a),
                             cell(words::bytes(d.peakBytes.b), d.peakBytes.b),
                             cell(words::signedBytes(d.peakBytes.delta()), d.peakBytes.delta(), true),
                             cell(words::bytes(d.finalBytes.a), d.finalBytes.a), cell(words::bytes(d.finalBytes.b), d.finalBytes.b),
                             cell(words::signedBytes(d.finalBytes.delta()), d.finalBytes.delta(), true)});
    devicesView_->resizeColumnsToContents();
    const int shownDevices = std::clamp(devices_->rowCount(), 1, 4); // the table fits its rows
    devicesView_->setFixedHeight(devicesView_->horizontalHeader()->sizeHint().height() +
                                 shownDevices * devicesView_->verticalHeader()->defaultSectionSize() +
                                 2 * devicesView_->frameWidth());

    // The tables these traces have; the first is shown, as before the choice existed.
    {
        const QSignalBlocker blocker(rowsChoice_);
        offerRows();
    }
    showRows();
}

void CompareWindow::offerRows() {
    const TraceComparison& c = *comparison_;
    rowsChoice_->clear();
    auto offer = [this](const QString& text, CompareRows rows) { rowsChoice_->addItem(text, static_cast<int>(rows)); };
    if (!c.sites.empty()) offer(tr("Allocation sites"), CompareRows::Sites);
    else if (!c.categories.empty()) offer(tr("Memory categories at each peak"), CompareRows::Categories);
    else offer(tr("Operators: allocated over the trace"), CompareRows::Operators);
    if (!c.keyAverages.empty()) offer(tr("Operators as key_averages counts them"), CompareRows::KeyAverages);
    if (!c.peakSites.empty()) offer(tr("Alive at each peak, by call site"), CompareRows::AliveAtPeak);
    if (!c.blocks.empty()) offer(tr("Blocks only in A, only in B, or changed"), CompareRows::Blocks);
    if (!c.segments.empty()) offer(tr("Segments only in A, only in B, or changed"), CompareRows::Segments);
    rowsChoice_->setVisible(rowsChoice_->count() > 1);
}

void CompareWindow::showRows() {
    if (!comparison_) return;
    rowQuery_->cancel();
    if (!markedRow_.isEmpty()) {
        markedRow_.clear();
        plot_->showRow({}, {}, {});
    }
    rows_->show(&*comparison_, static_cast<CompareRows>(rowsChoice_->currentData().toInt()));
    // Most changed first, as the model sorted them, until a header is clicked.
    rowsView_->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder);
    proxy_->sort(-1);
}

void CompareWindow::rowChosen() {
    if (!comparison_) return;
    const QModelIndex current = proxy_->mapToSource(rowsView_->selectionModel()->currentIndex());
    // The row's curves are drawn on the chart's device (A's first, B's of the same name).
    const std::string plotDevice = comparison_->devices.empty() ? std::string() : comparison_->devices.front().name;
    const std::optional<RowCurveRequest> request = current.isValid() ? rows_->curveOf(current.row(), plotDevice) : std::nullopt;
    if (!request) {
        rowQuery_->cancel();
        markedRow_.clear();
        plot_->showRow({}, {}, {});
        if (current.isValid()) status_->setText(tr("These rows have no curve over time to draw (choose operators, categories or call sites)"));
        return;
    }
    const QString label = request->name.empty() ? tr("(no stack)") : QString::fromStdString(request->name);
    const std::string a = storeA_.toStdString(), b = storeB_.toStdString();
    const qint64 ta = traceA_, tb = traceB_;
    const RowCurveRequest row = *request;
    rowQuery_->run([this, a, b, ta, tb, row, label](const Progress& progress) -> BackgroundQuery::Apply {
        Database dbA(a, Database::Mode::ReadOnly);
        Database dbB(b, Database::Mode::ReadOnly);
        auto curves = std::make_shared<std::pair<std::vector<SeriesPoint>, std::vector<SeriesPoint>>>(
            readRowCurve(dbA, ta, row, kCurveColumns, progress), readRowCurve(dbB, tb, row, kCurveColumns, progress));
        return [this, curves, label] {
            markedRow_ = curves->first.empty() && curves->second.empty() ? QString() : label;
            plot_->showRow(markedRow_, std::move(curves->first), std::move(curves->second));
            showStatus();
        };
    });
}

void CompareWindow::waitForRowCurves() { rowQuery_->wait(); }

bool CompareWindow::detailsPending() const { return details_->isPending(); }

bool CompareWindow::rowCurvesPending() const { return rowQuery_->isPending(); }

void CompareWindow::waitForResult() {
    while (import_->isRunning()) {
        QEventLoop loop;
        connect(import_, &ImportTask::succeeded, &loop, &QEventLoop::quit);
        connect(import_, &ImportTask::failed, &loop, &QEventLoop::quit);
        loop.exec();
    }
    query_->wait();
    details_->wait();
}

} // namespace memviz
