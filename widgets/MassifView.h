// SPDX-License-Identifier: MIT
#pragma once
// The massif tab: the detailed snapshots (the peak first selected) and the heap tree of the
// chosen one, expandable and sorted by bytes. A click on the timeline picks the detailed
// snapshot nearest to it.
#include <QWidget>
#include <vector>

#include "formats/FormatIds.h"
#include "formats/massif/MassifQueries.h"

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

signals:
    void snapshotShown(std::int64_t number);

private:
    void reload();
    void showIndex(int boxIndex);

    TraceSession* session_;
    MassifTreeModel* model_;
    QTreeView* view_;
    QComboBox* box_;
    QLabel* info_;
    std::vector<MassifSnapshot> detailed_;
};

} // namespace memviz
