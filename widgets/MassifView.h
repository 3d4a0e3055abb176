// SPDX-License-Identifier: MIT
#pragma once
// The massif tab: the detailed snapshots (the peak first selected) and the heap tree of the
// chosen one, expandable and sorted by bytes. A click on the timeline picks the detailed
// snapshot nearest to it. The list and the trees are read on a worker (BackgroundQuery): a
// line says so meanwhile, and a newer trace or snapshot supersedes a read still running.
#include <QWidget>
#include <vector>

#include "formats/FormatIds.h"
#include "formats/massif/MassifQueries.h"
#include "widgets/BackgroundQuery.h"

class QComboBox;
class QLabel;
class QTreeView;

namespace memviz {

class MassifTreeModel;
class TraceSession;

class MassifView : public QWidget {
    Q_OBJECT
public:
    explicit MassifView(TraceSession* session, QWidget* parent = nullptr);

    static bool appliesTo(const std::string& format) { return format == format_id::kMassif; }

    MassifTreeModel* treeModel() const { return model_; }
    QTreeView* treeView() const { return view_; }
    QComboBox* snapshotBox() const { return box_; }
    // The snapshot whose tree is shown; -1 when none.
    std::int64_t currentSnapshot() const;
    // Shows the detailed snapshot nearest to x (a timeline position); false when none.
    bool showSnapshotNear(std::int64_t x);
    bool showSnapshot(std::int64_t number);
    // The list or a tree is being read on the worker.
    bool isLoading() const { return list_.isPending() || tree_.isPending(); }
    // "Reading the heap tree of snapshot 2…", an error, or "" when the tree shown is current.
    QString statusText() const;
    // Blocks until the list and the chosen tree have landed (tests, screenshots).
    void waitForQuery();

signals:
    // The snapshot was chosen (its tree is being read).
    void snapshotShown(std::int64_t number);
    // The tree of this snapshot landed in the model.
    void treeShown(std::int64_t number);

private:
    void reload();
    void applyList(std::vector<MassifSnapshot> snapshots);
    void showIndex(int boxIndex);
    void showStatus(const QString& text, bool error = false);

    TraceSession* session_;
    MassifTreeModel* model_;
    QTreeView* view_;
    QComboBox* box_;
    QLabel* info_;
    QLabel* status_;
    std::vector<MassifSnapshot> detailed_;
    BackgroundQuery list_;
    BackgroundQuery tree_;
};

} // namespace memviz
