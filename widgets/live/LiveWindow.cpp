// SPDX-License-Identifier: MIT
#include "widgets/live/LiveWindow.h"

#include <QCloseEvent>
#include <QMessageBox>
#include <QVBoxLayout>

#include "widgets/live/LiveSession.h"
#include "widgets/live/LiveView.h"

namespace memviz {

LiveWindow::LiveWindow(LiveSession* session, const QString& title, QWidget* parent)
    : QWidget(parent, Qt::Window), session_(session), view_(new LiveView(session, this)) {
    session_->setParent(this);
    setWindowTitle(title);
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1200, 760);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(view_);
    session_->start();
}

LiveWindow::~LiveWindow() = default;

void LiveWindow::closeEvent(QCloseEvent* event) {
    if (!session_->isFinished() && ask_) {
        const auto answer = QMessageBox::question(this, tr("Stop recording?"),
                                                  tr("The recording is still running. Stop it and keep what was recorded?"));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
    }
    session_->stop();
    QWidget::closeEvent(event);
}

} // namespace memviz
