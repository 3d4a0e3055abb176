// SPDX-License-Identifier: MIT
// The Ranks window opened by itself for a job's store (see RanksOpener.h).
#include "widgets/ranks/RanksOpener.h"

#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <memory>

#include "ranks/RankSources.h"
#include "store/Database.h"
#include "widgets/BackgroundQuery.h"
#include "widgets/ranks/RanksWindow.h"

namespace memviz {

RanksOpener::RanksOpener(QWidget* mainWindow) : QObject(mainWindow), main_(mainWindow), query_(new BackgroundQuery(this)) {
    main_->installEventFilter(this);
    query_->setErrorHandler([this](const QString& message) {
        qWarning("memviz: cannot tell whether %s holds a job's ranks: %s", qPrintable(checkedStore_), qPrintable(message));
        emit checked(checkedStore_, false);
    });
}

void RanksOpener::storeOpened(const QString& storePath) {
    if (storePath.isEmpty() || storePath == checkedStore_) return;
    checkedStore_ = storePath;
    query_->run(storePath, [this, storePath](Database& db, const Progress&) -> BackgroundQuery::Apply {
        const std::vector<std::int64_t> ids = jobRankTraces(db);
        QStringList refs;
        for (const std::int64_t id : ids) refs << storePath + "#" + QString::number(id);
        return [this, storePath, refs] {
            if (!refs.isEmpty()) open(refs);
            emit checked(storePath, !refs.isEmpty());
        };
    });
}

RanksWindow* RanksOpener::open(const QStringList& paths) {
    auto* window = new RanksWindow(main_);
    window->setAttribute(Qt::WA_DeleteOnClose);
    connect(window, &RanksWindow::traceRequested, this, &RanksOpener::traceRequested);
    window->open(paths);
    placeBeside(window);
    placed_.start();
    window->show();
    last_ = window;
    return window;
}

// Beside the main window where the screen has room, else as far right as it fits.
void RanksOpener::placeBeside(QWidget* window) {
    const QRect main = main_->frameGeometry();
    const QRect screen = main_->screen() ? main_->screen()->availableGeometry() : QRect();
    QPoint at(main.right() + 1, main.top());
    if (screen.isValid() && at.x() + window->frameGeometry().width() > screen.right())
        at.setX(std::max(screen.left(), screen.right() - window->frameGeometry().width()));
    window->move(at);
}

bool RanksOpener::eventFilter(QObject* watched, QEvent* event) {
    if (watched == main_ && event->type() == QEvent::Move && last_ && placed_.isValid() && placed_.elapsed() < 2000)
        placeBeside(last_);
    return QObject::eventFilter(watched, event);
}

void RanksOpener::waitForCheck() { query_->wait(); }

} // namespace memviz
