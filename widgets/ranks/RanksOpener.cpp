// SPDX-License-Identifier: MIT
// The Ranks window opened by itself for a job's store (see RanksOpener.h).
#include "widgets/ranks/RanksOpener.h"

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
    window->open(paths);
    // Beside the main window where the screen has room, else over its right half.
    const QRect main = main_->frameGeometry();
    QRect screen = main_->screen() ? main_->screen()->availableGeometry() : QRect();
    QPoint at(main.right() + 1, main.top());
    if (screen.isValid() && at.x() + window->width() > screen.right())
        at.setX(std::max(screen.left(), screen.right() - window->width()));
    window->move(at);
    window->show();
    last_ = window;
    return window;
}

void RanksOpener::waitForCheck() { query_->wait(); }

} // namespace memviz
