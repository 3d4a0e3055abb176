// SPDX-License-Identifier: MIT
#pragma once
// A call stack, innermost frame first, as text people can read and copy: each frame's name,
// and under it its "file:line", elided in the middle to the pane's width (so a long path
// keeps its start and its file name instead of running off the side). C++ frames without
// sources ("??") are dimmed; Python frames stand out.
#include <QTextBrowser>
#include <vector>

#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

class StackPane : public QTextBrowser {
    Q_OBJECT
public:
    explicit StackPane(QWidget* parent = nullptr);
    void showStack(const QString& title, const std::vector<FrameRow>& frames);
    void showMessage(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();

    QString title_;
    std::vector<FrameRow> frames_;
    bool showingStack_ = false;
    int renderedWidth_ = 0;
};

} // namespace memviz
