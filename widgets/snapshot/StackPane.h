// SPDX-License-Identifier: MIT
#pragma once
// A call stack, innermost frame first, as text people can read and copy: each frame's name,
// and under it its "file:line", elided in the middle to the pane's width (so a long path
// keeps its start and its file name instead of running off the side). C++ frames without
// sources ("??") are dimmed; Python frames stand out. A CUDA snapshot entry's compile
// context and user metadata are shown above the frames, its forward-pass stack below them.
#include <QTextBrowser>
#include <vector>

#include "formats/snapshot/SnapshotContext.h"
#include "formats/snapshot/SnapshotRows.h"

namespace memviz {

class StackPane : public QTextBrowser {
    Q_OBJECT
public:
    explicit StackPane(QWidget* parent = nullptr);
    void showStack(const QString& title, const std::vector<FrameRow>& frames, const EntryContext& context = {});
    void showMessage(const QString& text);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void render();
    void renderForward(QString& html) const;

    QString title_;
    std::vector<FrameRow> frames_;
    EntryContext context_;
    bool showingStack_ = false;
    int renderedWidth_ = 0;
};

} // namespace memviz
