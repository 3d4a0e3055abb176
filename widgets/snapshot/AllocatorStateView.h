// SPDX-License-Identifier: MIT
#pragma once
// The CUDA caching allocator at the chosen moment (memory_viz's "Allocator State History"):
// its segments drawn with their blocks, the segment table, and fragmentation figures:
// reserved, allocated, pending free, free (reserved - allocated), inactive split bytes (free
// bytes in segments that also hold blocks, which cannot be given back), the largest free gap.
#include <QWidget>
#include <optional>

#include "costmodel/CudaCachingAllocator.h"
#include "trace/AllocatorState.h"
#include "widgets/BackgroundQuery.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace memviz {

class DeviceChooser;
class SegmentMapWidget;
class SegmentsModel;
class SnapshotSession;
class StackPane;

class AllocatorStateView : public QWidget {
    Q_OBJECT
public:
    explicit AllocatorStateView(SnapshotSession* session, QWidget* parent = nullptr);
    ~AllocatorStateView() override;

    const AllocatorState& state() const { return state_; }
    const std::optional<costmodel::ReservedGap>& gap() const { return gap_; }
    SegmentsModel* model() const { return model_; }
    SegmentMapWidget* map() const { return map_; }
    QString figuresText() const;
    // Blocks until a pending rebuild has landed (tests, screenshots).
    void waitForQuery();

private:
    void refresh();
    void applyState();
    void showFigures();
    void selectSegment(std::size_t index);
    void showBlock(std::size_t segment, std::size_t block);

    SnapshotSession* session_;
    AllocatorState state_;
    // reserved - requested taken apart at the moment by the allocator model's replay of the
    // trace (costmodel/AllocatorReplay.h); empty when the device traced no allocations.
    std::optional<costmodel::ReservedGap> gap_;
    SegmentsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    SegmentMapWidget* map_;
    QLabel* moment_;
    DeviceChooser* device_;
    QLabel* figures_;
    StackPane* stack_;
    // Rebuilding the state undoes every entry after the moment: millions in big traces, so
    // it runs off the GUI thread; a newer moment supersedes a running rebuild.
    BackgroundQuery rebuild_;
};

} // namespace memviz
