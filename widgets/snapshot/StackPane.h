#pragma once
// A call stack, innermost frame first, as text people can read and copy: "name  file:line".
// C++ frames without sources ("??") are dimmed; Python frames stand out.
#include <QTextBrowser>
#include <vector>

#include "store/SnapshotRows.h"

namespace memviz {

class StackPane : public QTextBrowser {
    Q_OBJECT
public:
    explicit StackPane(QWidget* parent = nullptr);
    void showStack(const QString& title, const std::vector<FrameRow>& frames);
    void showMessage(const QString& text);
};

} // namespace memviz
