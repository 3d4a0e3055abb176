// SPDX-License-Identifier: MIT
#pragma once
// What the window shows when no trace is open (first start without a file, a file that could
// not be opened, a cancelled import): the ways to get a trace in — open a file, drop one,
// a recent file, the bundled sample, start a recording — and the lessons.
#include <QStringList>
#include <QWidget>

class QAction;
class QLabel;
class QVBoxLayout;

namespace memviz {

class EmptyPage : public QWidget {
    Q_OBJECT
public:
    explicit EmptyPage(QWidget* parent = nullptr);
    // The recent files, newest first (the first few are shown).
    void setRecentFiles(const QStringList& files);
    // The window's recording actions (Record menu), shown as buttons.
    void setRecordActions(const QList<QAction*>& actions);
    // A line about why nothing is open ("Could not open x: ..."), or "" for none.
    void setNotice(const QString& text);

signals:
    void openRequested();
    void sampleRequested();
    void recentRequested(const QString& path);
    void learnRequested();

private:
    QLabel* notice_;
    QVBoxLayout* recent_;
    QVBoxLayout* record_;
};

} // namespace memviz
