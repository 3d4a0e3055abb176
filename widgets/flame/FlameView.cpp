// SPDX-License-Identifier: MIT
#include "widgets/flame/FlameView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QTimer>
#include <QHeaderView>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <atomic>

#include "core/Progress.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/TraceSession.h"
#include "widgets/flame/FlameExport.h"
#include "widgets/flame/FlameGraph.h"
#include "widgets/flame/StackTreeModel.h"

namespace memviz {

// What a running load is doing, written by its worker and read by the GUI thread's timer, and
// the flag that tells that worker to stop (raised by Cancel, a newer request, or the view's end).
struct FlameLoadState {
    enum Step { Waiting, Reading, Building, BottomUp };
    std::atomic<int> step{Waiting};
    std::atomic<std::int64_t> done{0}, total{0};
    std::atomic<bool> cancel{false};
};

namespace {

// Lower-case ASCII copy, for case-insensitive search.
std::string lowered(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

struct SearchResult {
    std::vector<char> matches;
    std::int64_t under = 0; // inclusive value of the matches, each stack counted once
};

SearchResult searchTree(const StackTree& t, const std::string& text, const Progress& cancel) {
    SearchResult r;
    r.matches.assign(t.nodes.size(), 0);
    const std::string needle = lowered(text);
    std::vector<char> frameMatches(t.frames.size(), 0);
    for (std::size_t f = 0; f < t.frames.size(); ++f) {
        if (f % 4096 == 0) cancel.checkCancelled();
        frameMatches[f] = lowered(t.frames[f].function).find(needle) != std::string::npos ||
                          lowered(t.frames[f].file).find(needle) != std::string::npos;
    }
    // Nodes come after their parents, so one pass knows whether an ancestor matched.
    std::vector<char> underMatch(t.nodes.size(), 0);
    for (std::size_t n = 1; n < t.nodes.size(); ++n) {
        const StackNode& node = t.nodes[n];
        const bool match = frameMatches[static_cast<std::size_t>(node.frame)] != 0;
        r.matches[n] = match;
        const bool ancestor = underMatch[static_cast<std::size_t>(node.parent)] != 0;
        if (match && !ancestor) r.under += node.inclusive;
        underMatch[n] = match || ancestor;
    }
    return r;
}

} // namespace

FlameView::FlameView(TraceSession* session, QWidget* parent)
    : QWidget(parent), session_(session), query_(new BackgroundQuery(this)), searchQuery_(new BackgroundQuery(this)),
      metric_(new QComboBox(this)), groupByLabel_(new QLabel(tr("Group by:"), this)), groupBy_(new QComboBox(this)), fold_(new QCheckBox(tr("Fold plumbing"), this)), flame_(new QCheckBox(tr("Flame"), this)),
      search_(new QLineEdit(this)), back_(new QToolButton(this)), status_(new QLabel(this)),
      progressRow_(new QWidget(this)), progressLabel_(new QLabel(progressRow_)), progressBar_(new QProgressBar(progressRow_)),
      cancel_(new QToolButton(progressRow_)), progressTimer_(new QTimer(this)), pages_(new QStackedWidget(this)),
      message_(new QLabel(this)), scroll_(new QScrollArea(this)), graph_(new FlameGraph(this)), treeKind_(new QComboBox(this)),
      treeView_(new QTreeView(this)), treeModel_(new StackTreeModel(this)), treeProxy_(new QSortFilterProxyModel(this)) {
    fold_->setChecked(true);
    fold_->setToolTip(tr("Hide Python internals, PyTorch dispatch and autograd plumbing, allocation wrappers and the C "
                         "runtime's startup frames (presets: %1)")
                          .arg(QString::fromStdString([] {
                              std::string s;
                              for (const std::string& id : defaultFoldPresets()) s += (s.empty() ? "" : ", ") + id;
                              return s;
                          }())));
    flame_->setToolTip(tr("Root at the bottom (a flame) instead of at the top (an icicle)"));
    search_->setPlaceholderText(tr("Search frames…"));
    search_->setClearButtonEnabled(true);
    back_->setText(tr("Back"));
    back_->setToolTip(tr("Zoom out one step (Escape)"));
    metric_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    groupBy_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    groupBy_->setToolTip(tr("What the top level of the graph is: the stacks themselves, or a key recorded beside them "
                            "(a CUDA snapshot's compile context, user metadata or forward-pass stack)"));
    groupByLabel_->hide();
    groupBy_->hide();
    message_->setWordWrap(true);
    message_->setAlignment(Qt::AlignCenter);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->setMargin(20);
    scroll_->setWidget(graph_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    addFlameExportMenu(graph_);
    treeKind_->addItem(tr("Top-down"));
    treeKind_->addItem(tr("Bottom-up"));
    treeProxy_->setSourceModel(treeModel_);
    treeProxy_->setSortRole(StackTreeModel::SortRole);
    treeView_->setModel(treeProxy_);
    treeView_->setSortingEnabled(true);
    treeView_->sortByColumn(StackTreeModel::Inclusive, Qt::DescendingOrder);
    treeView_->setUniformRowHeights(true);
    // The number columns are as wide as the widest number they can hold ("1023.99 GiB",
    // "999,999,999"), whatever width the pane has; the frame column takes what is left (and
    // the view scrolls sideways when that is nothing).
    {
        QHeaderView* header = treeView_->header();
        const QFontMetrics fm(treeView_->font());
        const int numberWidth = std::max(fm.horizontalAdvance(QStringLiteral("1023.99 GiB")),
                                         fm.horizontalAdvance(QStringLiteral("999,999,999"))) +
                                4 * fm.horizontalAdvance(QLatin1Char(' ')) + 16;
        header->setStretchLastSection(false);
        header->setMinimumSectionSize(std::min(numberWidth, 60));
        for (const int column : {int(StackTreeModel::Inclusive), int(StackTreeModel::Self)}) {
            header->setSectionResizeMode(column, QHeaderView::Fixed);
            treeView_->setColumnWidth(column, std::max(numberWidth, header->sectionSizeHint(column)));
        }
        header->setSectionResizeMode(StackTreeModel::Frame, QHeaderView::Stretch);
        treeView_->setColumnWidth(StackTreeModel::Location, 160);
        treeView_->setColumnWidth(StackTreeModel::Module, 120);
    }
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(treeKind_);
    sideLayout->addWidget(treeView_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    pages_->addWidget(message_);
    pages_->addWidget(split);
    splitPage_ = split;

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Metric:"), this));
    bar->addWidget(metric_);
    bar->addWidget(groupByLabel_);
    bar->addWidget(groupBy_);
    bar->addWidget(fold_);
    bar->addWidget(flame_);
    bar->addWidget(back_);
    bar->addWidget(search_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(pages_, 1);
    layout->addWidget(progressRow_);
    layout->addWidget(status_);
    auto* progressLayout = new QHBoxLayout(progressRow_);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    progressLayout->addWidget(progressLabel_, 1);
    progressLayout->addWidget(progressBar_);
    progressLayout->addWidget(cancel_);
    progressBar_->setMaximumWidth(220);
    progressBar_->setTextVisible(false);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop loading the call stacks"));
    progressRow_->hide();
    progressTimer_->setInterval(100);
    connect(progressTimer_, &QTimer::timeout, this, &FlameView::showProgress);
    connect(cancel_, &QToolButton::clicked, this, &FlameView::cancelLoading);

    const auto onError = [this](const QString& message) {
        loading_ = false;
        finishLoading();
        showMessage(message);
    };
    query_->setErrorHandler(onError);
    searchQuery_->setErrorHandler([this](const QString& message) { status_->setText(message); });
    connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
        if (!loading_) loadTree();
    });
    connect(groupBy_, &QComboBox::currentIndexChanged, this, [this] {
        if (!loading_) loadTree();
    });
    connect(fold_, &QCheckBox::toggled, this, &FlameView::loadTree);
    connect(flame_, &QCheckBox::toggled, graph_, &FlameGraph::setFlame);
    connect(back_, &QToolButton::clicked, graph_, &FlameGraph::zoomOut);
    connect(search_, &QLineEdit::textChanged, this, &FlameView::runSearch);
    connect(graph_, &FlameGraph::zoomChanged, this, &FlameView::updateStatus);
    connect(graph_, &FlameGraph::hoveredChanged, this, &FlameView::updateStatus);
    connect(treeKind_, &QComboBox::currentIndexChanged, this, &FlameView::showTreeKind);
    connect(graph_, &FlameGraph::zoomChanged, this, &FlameView::selectInTree);
    connect(treeView_, &QTreeView::activated, this, [this](const QModelIndex& proxyIndex) {
        const QModelIndex i = treeProxy_->mapToSource(proxyIndex);
        if (!i.isValid()) return;
        const auto node = static_cast<std::int32_t>(i.data(StackTreeModel::NodeRole).toInt());
        if (treeKind_->currentIndex() == 0) graph_->zoomInto(node);
        else setSearch(QString::fromStdString(treeModel_->tree()->frameAt(node).function));
    });
    connect(session_, &TraceSession::traceChanged, this, &FlameView::reload);
    connect(session_, &TraceSession::selectionChanged, this, [this] {
        const StackMetric* m = available_.find(metric_->currentData().toString().toStdString());
        if (m && m->followsRange) loadTree();
    });
    reload();
}

FlameView::~FlameView() {
    // The worker stops at its next check instead of finishing a tree nobody will see.
    if (load_) load_->cancel = true;
}

bool FlameView::isLoading() const { return load_ != nullptr; }

QString FlameView::progressText() const { return isLoading() ? progressLabel_->text() : QString(); }

void FlameView::finishLoading() {
    load_.reset();
    progressTimer_->stop();
    progressRow_->hide();
}

void FlameView::cancelLoading() {
    if (!load_) return;
    load_->cancel = true;
    query_->cancel();
    finishLoading();
    if (!tree_) {
        showMessage(tr("Loading the call stacks was cancelled. Choose a metric or toggle folding to load them again."));
        return;
    }
    // The tree on screen stays; so does the metric it was built for.
    loading_ = true;
    const int i = metric_->findData(treeMetric_);
    if (i >= 0) metric_->setCurrentIndex(i);
    loading_ = false;
    updateStatus();
    status_->setText(tr("Loading cancelled; still showing the previous tree. ") + status_->text());
}

void FlameView::showProgress() {
    if (!load_) return;
    const std::int64_t done = load_->done, total = load_->total;
    QString text;
    switch (load_->step.load()) {
    case FlameLoadState::Waiting: text = tr("Loading call stacks…"); break; // the worker has not started yet
    case FlameLoadState::Reading: text = tr("Loading call stacks: reading the stacks from the store…"); break;
    case FlameLoadState::Building: text = tr("Loading call stacks: building the call tree…"); break;
    case FlameLoadState::BottomUp: text = tr("Loading call stacks: building the bottom-up tree…"); break;
    }
    if (total > 0) {
        text += tr(" %1 of %2").arg(QLocale().toString(static_cast<qlonglong>(done)), QLocale().toString(static_cast<qlonglong>(total)));
        progressBar_->setRange(0, 1000);
        progressBar_->setValue(static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
    } else {
        progressBar_->setRange(0, 0); // busy
    }
    progressLabel_->setText(text);
    progressRow_->show();
}

void FlameView::reload() {
    moment_.reset();
    available_ = {};
    loading_ = true;
    metric_->clear();
    groupBy_->clear();
    groupByLabel_->hide();
    groupBy_->hide();
    loading_ = false;
    loadTree();
}

void FlameView::setMoment(std::optional<std::int64_t> t) {
    moment_ = t;
    const StackMetric* m = available_.find(metric_->currentData().toString().toStdString());
    if (m && m->followsMoment) loadTree();
}

void FlameView::setGroupBy(const QString& id) {
    const int i = groupBy_->findData(id);
    if (i >= 0) groupBy_->setCurrentIndex(i);
}

void FlameView::setMetric(const QString& id) {
    const int i = metric_->findData(id);
    if (i >= 0) metric_->setCurrentIndex(i);
}

void FlameView::setSearch(const QString& text) { search_->setText(text); }

void FlameView::waitForQuery() {
    query_->wait();
    searchQuery_->wait();
}

QString FlameView::message() const { return pages_->currentWidget() == message_ ? message_->text() : QString(); }

QString FlameView::searchSummary() const { return searchSummary_; }

void FlameView::showMessage(const QString& text) {
    message_->setText(text);
    pages_->setCurrentWidget(message_);
    status_->clear();
}

void FlameView::loadTree() {
    if (load_) load_->cancel = true; // a newer request supersedes the running one
    if (!session_->isOpen()) {
        query_->cancel();
        finishLoading();
        tree_.reset();
        graph_->setTree(nullptr, true);
        showMessage(tr("Open a trace to see its call stacks."));
        return;
    }
    const std::int64_t traceId = session_->traceId();
    const std::string wantedMetric = metric_->currentData().toString().toStdString();
    const std::optional<TimeRange> selection = session_->selection();
    const std::optional<std::int64_t> moment = moment_;
    const std::string wantedGroupBy = groupBy_->currentData().toString().toStdString();
    const bool fold = fold_->isChecked();
    // The bottom-up tree costs more than the tree itself on large traces: only when shown.
    const bool wantBottomUp = treeKind_->currentIndex() == 1;
    if (!tree_) showMessage(tr("Loading call stacks…"));
    auto state = std::make_shared<FlameLoadState>();
    load_ = state;
    showProgress();
    progressTimer_->start();
    query_->run(session_->storePath(), [=, this](Database& db, const Progress& cancel) -> BackgroundQuery::Apply {
        // Providers report phases and progress here; either flag stops them: BackgroundQuery's
        // (checked on each report) or this load's own (raised by Cancel or a newer request).
        const Progress progress(
            [state, &cancel](std::int64_t done, std::int64_t total) {
                cancel.checkCancelled();
                state->done = done;
                state->total = total;
            },
            &state->cancel,
            [state](ProgressPhase phase) {
                state->done = 0;
                state->total = 0;
                state->step = phase == ProgressPhase::Reading ? FlameLoadState::Reading : FlameLoadState::Building;
            });
        state->step = FlameLoadState::Reading;
        StackAvailability available = stackAvailability(db, traceId);
        auto tree = std::make_shared<StackTree>();
        auto bottomUp = std::make_shared<StackTree>();
        std::string metricId, groupById;
        if (available.hasStacks()) {
            const StackMetric* m = available.find(wantedMetric);
            if (!m) m = &available.metrics.front();
            metricId = m->id;
            StackRequest r;
            r.metric = m->id;
            if (m->followsRange) r.range = selection;
            if (m->followsMoment) r.at = moment;
            if (fold) r.folder = FrameFolder::fromPresets(defaultFoldPresets());
            for (const StackGrouping& g : available.groupings)
                if (g.id == wantedGroupBy) r.groupBy = g.id;
            groupById = r.groupBy.empty() ? std::string("stack") : r.groupBy;
            *tree = loadStackTree(db, traceId, r, &progress);
            cancel.checkCancelled();
            progress.checkCancelled();
            if (wantBottomUp) {
                state->total = 0;
                state->step = FlameLoadState::BottomUp;
                *bottomUp = invertedStackTree(*tree);
            }
            else bottomUp.reset();
        }
        return [this, state, available = std::move(available), tree = std::move(tree), bottomUp = std::move(bottomUp), metricId, groupById]() mutable {
            if (state != load_) return; // cancelled or superseded meanwhile
            finishLoading();
            available_ = std::move(available);
            if (!available_.hasStacks()) {
                tree_.reset();
                bottomUp_.reset();
                treeModel_->setTree(nullptr, true);
                graph_->setTree(nullptr, true);
                showMessage(QString::fromStdString(available_.howToRecord));
                return;
            }
            loading_ = true;
            bool sameMetrics = metric_->count() == static_cast<int>(available_.metrics.size());
            for (int i = 0; sameMetrics && i < metric_->count(); ++i)
                sameMetrics = metric_->itemData(i).toString().toStdString() == available_.metrics[static_cast<std::size_t>(i)].id;
            if (!sameMetrics) {
                metric_->clear();
                for (const StackMetric& m : available_.metrics)
                    metric_->addItem(QString::fromStdString(m.label), QString::fromStdString(m.id));
            }
            metric_->setCurrentIndex(metric_->findData(QString::fromStdString(metricId)));
            bool sameGroupings = groupBy_->count() == static_cast<int>(available_.groupings.size());
            for (int i = 0; sameGroupings && i < groupBy_->count(); ++i)
                sameGroupings = groupBy_->itemData(i).toString().toStdString() == available_.groupings[static_cast<std::size_t>(i)].id;
            if (!sameGroupings) {
                groupBy_->clear();
                for (const StackGrouping& g : available_.groupings)
                    groupBy_->addItem(QString::fromStdString(g.label), QString::fromStdString(g.id));
            }
            groupBy_->setCurrentIndex(groupBy_->findData(QString::fromStdString(groupById)));
            groupByLabel_->setVisible(available_.groupings.size() > 1);
            groupBy_->setVisible(available_.groupings.size() > 1);
            loading_ = false;
            tree_ = tree;
            bottomUp_ = bottomUp;
            treeMetric_ = QString::fromStdString(metricId);
            const StackMetric* m = available_.find(metricId);
            graph_->setTree(tree_, m ? m->bytes : true);
            showTreeKind();
            if (tree_->total() == 0 && tree_->nodes[0].children.empty())
                showMessage(tr("Nothing to show for this metric here (no stack has a value)."));
            else pages_->setCurrentWidget(splitPage_);
            runSearch();
            updateStatus();
            emit treeLoaded();
        };
    });
}

void FlameView::showTreeKind() {
    if (treeKind_->currentIndex() == 1 && tree_ && !bottomUp_) {
        treeModel_->setTree(nullptr, true);
        loadTree(); // builds the bottom-up tree too, then comes back here
        return;
    }
    const StackMetric* m = available_.find(metric_->currentData().toString().toStdString());
    treeModel_->setTree(treeKind_->currentIndex() == 0 ? tree_ : bottomUp_, m ? m->bytes : true);
    // The largest paths open, as far as it is cheap (a few levels of the largest child).
    QModelIndex i = treeProxy_->index(0, 0);
    for (int depth = 0; depth < 8 && i.isValid(); ++depth, i = treeProxy_->index(0, 0, i)) treeView_->expand(i);
}

void FlameView::selectInTree(std::int32_t node) {
    if (treeKind_->currentIndex() != 0 || node <= 0) return;
    const QModelIndex i = treeProxy_->mapFromSource(treeModel_->indexOfNode(node));
    if (!i.isValid()) return;
    treeView_->setCurrentIndex(i);
    treeView_->scrollTo(i);
}

void FlameView::runSearch() {
    const std::string text = search_->text().trimmed().toStdString();
    if (text.empty() || !tree_) {
        searchQuery_->cancel();
        searchSummary_.clear();
        graph_->setMatches({});
        updateStatus();
        return;
    }
    const std::shared_ptr<const StackTree> tree = tree_;
    searchQuery_->run([=, this](const Progress& cancel) -> BackgroundQuery::Apply {
        auto result = std::make_shared<SearchResult>(searchTree(*tree, text, cancel));
        return [this, result, tree, text] {
            if (tree != tree_) return;
            const double total = static_cast<double>(std::max<std::int64_t>(tree->total(), 1));
            searchSummary_ = tr("%1% of the total is under “%2” (%3)")
                                 .arg(100.0 * static_cast<double>(result->under) / total, 0, 'f', 1)
                                 .arg(QString::fromStdString(text), graph_->valueText(result->under));
            graph_->setMatches(std::move(result->matches));
            updateStatus();
        };
    });
}

void FlameView::updateStatus() {
    if (!tree_) return;
    QStringList parts;
    const double total = static_cast<double>(std::max<std::int64_t>(tree_->total(), 1));
    if (const std::int32_t h = graph_->hovered(); h > 0) {
        const StackNode& n = tree_->nodes[static_cast<std::size_t>(h)];
        parts << tr("%1: %2 (%3%), self %4")
                     .arg(QString::fromStdString(frameLabel(tree_->frameAt(h))), graph_->valueText(n.inclusive))
                     .arg(100.0 * static_cast<double>(n.inclusive) / total, 0, 'f', 1)
                     .arg(graph_->valueText(n.self));
    }
    parts << tr("Total: %1").arg(graph_->valueText(tree_->total()));
    if (graph_->zoomRoot() > 0) {
        const StackNode& z = tree_->nodes[static_cast<std::size_t>(graph_->zoomRoot())];
        parts << tr("zoomed into %1: %2").arg(QString::fromStdString(frameLabel(tree_->frameAt(graph_->zoomRoot()))),
                                               graph_->valueText(z.inclusive));
    }
    if (!searchSummary_.isEmpty()) parts << searchSummary_;
    if (tree_->stacksTruncated > 0)
        parts << tr("%1 stacks deeper than %2 frames: their tails are folded").arg(tree_->stacksTruncated).arg(StackTreeBuilder::kDefaultMaxDepth);
    back_->setEnabled(graph_->zoomRoot() > 0);
    status_->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace memviz
