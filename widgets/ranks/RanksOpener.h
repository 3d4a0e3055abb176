// SPDX-License-Identifier: MIT
#pragma once
// Opens the Ranks window by itself (issue 13) when the main window opens a store that holds
// the probe recordings of one distributed job (`memviz record --listen` with several ranks:
// model/ranks/RankSources.h, jobRankTraces): next to the main window, not modal, once per
// store. The store's trace metadata is read on a worker (BackgroundQuery).
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include "widgets/ranks/RanksWindow.h"

class QWidget;

namespace memviz {

class BackgroundQuery;


class RanksOpener : public QObject {
    Q_OBJECT
public:
    // `mainWindow` is the parent of the windows it opens, and where they go beside.
    explicit RanksOpener(QWidget* mainWindow);
    // The main window shows a trace of `storePath`: open the Ranks window when the store is a
    // job's ranks (not again for the same store).
    void storeOpened(const QString& storePath);
    // A Ranks window on `paths` (File › Open Ranks…, Ranks of This Store), beside the main window.
    RanksWindow* open(const QStringList& paths);
    // The window it opened last (null once closed).
    RanksWindow* lastWindow() const { return last_; }
    // Blocks until the check of the last store is done (tests).
    void waitForCheck();

protected:
    // The main window moved soon after the Ranks window was placed (a window manager placing
    // a window just shown): place it beside again.
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    // The check of `storePath` is done; `opened`: a Ranks window was opened for it.
    void checked(const QString& storePath, bool opened);
    // A Ranks window's rank was chosen: open trace `traceId` of `storePath` in the main window.
    void traceRequested(const QString& storePath, qint64 traceId);

private:
    void placeBeside(QWidget* window);

    QWidget* main_;
    QElapsedTimer placed_;
    BackgroundQuery* query_;
    QString checkedStore_;
    QPointer<RanksWindow> last_;
};

} // namespace memviz
