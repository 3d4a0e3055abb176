// SPDX-License-Identifier: MIT
#pragma once
// The Flame tab: a FlameGraph beside a top-down / bottom-up tree (sortable; a row of the
// top-down tree zooms the graph there, a row of the bottom-up tree searches its frame), with
// its controls (metric, group by — shown when the trace records keys beside its stacks, such as
// a CUDA snapshot's compile contexts —, fold presets on/off, flame/icicle,
// search with the share of the total under the matches, Back) over the open trace. It loads
// the call tree through BackgroundQuery (never on the GUI thread), follows the timeline's
// range selection (metrics that count a range) and moment clicks (metrics of a moment), and,
// for a trace without stacks, says so and how to record them. While a tree loads, a progress
// line says what the worker is doing (reading the stacks, building the tree, the bottom-up
// tree) with a Cancel button; a newer request (another metric, range, moment) supersedes the
// running one, whose worker is told to stop.
#include <QWidget>
#include <memory>
#include <optional>

#include "formats/StackSources.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTimer;
class QScrollArea;
class QSortFilterProxyModel;
class QTreeView;
class QStackedWidget;
class QToolButton;

namespace memviz {

class BackgroundQuery;
class FlameGraph;
class StackTreeModel;
class TraceSession;
struct FlameLoadState;

class FlameView : public QWidget {
    Q_OBJECT
public:
    explicit FlameView(TraceSession* session, QWidget* parent = nullptr);
    ~FlameView() override;

    // Reloads for the session's trace (its metrics, then the tree).
    void reload();
    // A moment for metrics of a moment (ns from the trace start); nullopt: the default.
    void setMoment(std::optional<std::int64_t> t);
    void setMetric(const QString& id);
    // The root level: "stack", or a key of availability().groupings ("compile-context", ...).
    void setGroupBy(const QString& id);
    void setSearch(const QString& text);
    // Blocks until the newest tree and search are applied (tests, screenshots).
    void waitForQuery();
    // Stops the running load (its worker is told to stop and its result dropped); the tree
    // shown before stays, with its metric.
    void cancelLoading();
    // A tree is being loaded; what the progress line says meanwhile ("" when idle).
    bool isLoading() const;
    QString progressText() const;
    QWidget* progressRow() const { return progressRow_; }

    FlameGraph* graph() const { return graph_; }
    QComboBox* metricBox() const { return metric_; }
    QComboBox* groupByBox() const { return groupBy_; }
    QComboBox* treeKindBox() const { return treeKind_; }
    QTreeView* treeView() const { return treeView_; }
    StackTreeModel* treeModel() const { return treeModel_; }
    QCheckBox* foldBox() const { return fold_; }
    QLineEdit* searchBox() const { return search_; }
    // What the view says instead of a graph ("" while it shows the graph).
    QString message() const;
    // "37.0% of the total is under “checkpoint”", or "" without a search.
    QString searchSummary() const;
    const StackAvailability& availability() const { return available_; }

signals:
    // A newly loaded tree is shown (not emitted for superseded or cancelled loads).
    void treeLoaded();

private:
    void loadTree();
    void runSearch();
    void showMessage(const QString& text);
    void showProgress();
    void finishLoading();
    void updateStatus();
    void showTreeKind();
    void selectInTree(std::int32_t node);

    TraceSession* session_;
    BackgroundQuery* query_;
    BackgroundQuery* searchQuery_;
    QComboBox* metric_;
    QLabel* groupByLabel_;
    QComboBox* groupBy_;
    QCheckBox* fold_;
    QCheckBox* flame_;
    QLineEdit* search_;
    QToolButton* back_;
    QLabel* status_;
    QWidget* progressRow_;
    QLabel* progressLabel_;
    QProgressBar* progressBar_;
    QToolButton* cancel_;
    QTimer* progressTimer_;
    std::shared_ptr<FlameLoadState> load_; // the running load; null when idle
    QStackedWidget* pages_;
    QLabel* message_;
    QScrollArea* scroll_;
    QWidget* splitPage_ = nullptr;
    FlameGraph* graph_;
    QComboBox* treeKind_;
    QTreeView* treeView_;
    StackTreeModel* treeModel_;
    QSortFilterProxyModel* treeProxy_;
    StackAvailability available_;
    std::shared_ptr<const StackTree> tree_;
    std::shared_ptr<const StackTree> bottomUp_;
    std::optional<std::int64_t> moment_;
    QString searchSummary_;
    QString treeMetric_; // the metric of tree_
    bool loading_ = false;
};

} // namespace memviz
