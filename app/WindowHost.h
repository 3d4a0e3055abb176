// SPDX-License-Identifier: MIT
#pragma once
// Owns the main window. When the user switches the language, the windows are built again in
// the new language (every text is set at construction), showing the same trace, selection,
// zoom, tab and lesson.
#include <QObject>
#include <memory>

namespace memviz {

class MainWindow;

class WindowHost : public QObject {
    Q_OBJECT
public:
    WindowHost();
    ~WindowHost() override;
    MainWindow* window() const { return window_.get(); }
    // Rebuilds the windows (after language::apply).
    void rebuild();

private:
    void adopt(std::unique_ptr<MainWindow> window);
    std::unique_ptr<MainWindow> window_;
};

} // namespace memviz
