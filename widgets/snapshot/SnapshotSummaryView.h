// SPDX-License-Identifier: MIT
#pragma once
// The snapshot as numbers: per device the summary (peak, final, counts per action), the
// pre-existing baseline of a truncated trace, the consistency check (allocated bytes replayed
// to the end against the blocks the final segments show allocated), reserved bytes, OOMs,
// annotations and the allocator settings.
#include <QTextBrowser>

namespace memviz {

class SnapshotSession;

class SnapshotSummaryView : public QTextBrowser {
    Q_OBJECT
public:
    explicit SnapshotSummaryView(SnapshotSession* session, QWidget* parent = nullptr);

    // The HTML shown (also for tests).
    QString html() const { return html_; }

private:
    void refresh();

    SnapshotSession* session_;
    QString html_;
};

} // namespace memviz
