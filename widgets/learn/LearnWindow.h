// SPDX-License-Identifier: MIT
#pragma once
// The Learn mode: a window with the lessons in a list and one page at a time. Presenter mode
// (F11) goes full screen without the menu and the list, fonts and lines scaled (x1.5 by
// default, up to x2 with Ctrl++),
// High Contrast (Ctrl+Shift+H) switches to white on black, Page Down / Page Up (or
// Alt+Right / Alt+Left) move between lessons, and Ctrl+Shift+D opens the OOM decoder. Every
// plot exports as PNG/SVG/PDF and every table as CSV (right-click, or the Export menu for the
// current lesson).
#include <QList>
#include <QMainWindow>

#include "widgets/learn/Lesson.h"
#include "widgets/learn/LessonStyle.h"

class QAction;
class QListWidget;
class QStackedWidget;

namespace memviz {

class Lesson;
class OomDecoderPage;

class LearnWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit LearnWindow(QWidget* parent = nullptr);
    ~LearnWindow() override;

    const QList<Lesson*>& lessons() const { return lessons_; }
    Lesson* lesson(const QString& id) const;
    Lesson* currentLesson() const;
    int currentIndex() const;
    QListWidget* lessonList() const { return list_; }
    OomDecoderPage* oomDecoder() const { return decoder_; }

    bool showLesson(const QString& id);
    void showLessonAt(int index);
    void nextLesson();
    void previousLesson();

    void setPresenterMode(bool on);
    bool presenterMode() const { return presenter_; }
    void setScale(double scale);
    double scale() const { return style_.scale; }
    void setHighContrast(bool on);
    bool highContrast() const { return style_.highContrast; }
    const LessonStyle& lessonStyle() const { return style_; }

    QAction* presenterAction() const { return presenterAction_; }
    QAction* contrastAction() const { return contrastAction_; }
    QAction* nextAction() const { return nextAction_; }
    QAction* previousAction() const { return previousAction_; }
    QAction* decoderAction() const { return decoderAction_; }

    // Exports the current lesson's first plot / table (file dialog).
    void exportCurrentPlot();
    void exportCurrentTable();

signals:
    // A lesson asks to show its scenario in the main window's what-if panel.
    void whatIfRequested(const memviz::WhatIfScenario& scenario);

private:
    void addLesson(Lesson* lesson);
    void createMenus();
    void applyStyle();
    void fitLessonList();

    QListWidget* list_;
    QStackedWidget* pages_;
    QList<Lesson*> lessons_;
    OomDecoderPage* decoder_ = nullptr;
    LessonStyle style_;
    double scaleBeforePresenting_ = 1.0;
    bool presenter_ = false;
    QAction* presenterAction_ = nullptr;
    QAction* contrastAction_ = nullptr;
    QAction* nextAction_ = nullptr;
    QAction* previousAction_ = nullptr;
    QAction* decoderAction_ = nullptr;
};

} // namespace memviz
