// SPDX-License-Identifier: MIT
#include "WindowHost.h"

#include <QTimer>

#include "MainWindow.h"
#include "widgets/learn/LearnWindow.h"
#include "widgets/learn/Lesson.h"

namespace memviz {

WindowHost::WindowHost() { adopt(std::make_unique<MainWindow>()); }

WindowHost::~WindowHost() = default;

void WindowHost::adopt(std::unique_ptr<MainWindow> window) {
    window_ = std::move(window);
    // Queued: the old window's menu action is still running when the signal arrives.
    connect(window_.get(), &MainWindow::languageChangeRequested, this, &WindowHost::rebuild, Qt::QueuedConnection);
}

void WindowHost::rebuild() {
    std::unique_ptr<MainWindow> old = std::move(window_);
    adopt(std::make_unique<MainWindow>());
    window_->restoreGeometry(old->saveGeometry());
    // The same trace, selection, zoom and tab: the store is open already, nothing is imported
    // again (and a file that failed to open is not tried again).
    window_->restoreViewState(old->viewState());
    window_->show();
    if (LearnWindow* learn = old->findChild<LearnWindow*>(); learn && learn->isVisible()) {
        const QString lesson = learn->currentLesson() ? learn->currentLesson()->id() : QString();
        window_->openLearn(lesson);
        window_->learnWindow()->restoreGeometry(learn->saveGeometry());
    }
    old->hide();
    old.release()->deleteLater();
}

} // namespace memviz
