// SPDX-License-Identifier: MIT
#include "widgets/learn/LearnWindow.h"

#include <QAction>
#include <QApplication>
#include <QListWidget>
#include <QMenuBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>

#include "widgets/Export.h"
#include "widgets/ScreenFit.h"
#include "widgets/learn/BatchSizeLesson.h"
#include "widgets/learn/CheckpointLesson.h"
#include "widgets/learn/DTypeLesson.h"
#include "widgets/learn/FreeingLesson.h"
#include "widgets/learn/Lesson.h"
#include "widgets/learn/MixedPrecisionLesson.h"
#include "widgets/learn/OomDecoderPage.h"
#include "widgets/learn/OptimizerLesson.h"
#include "widgets/learn/SparseLesson.h"
#include "widgets/learn/TensorSizeLesson.h"
#include "widgets/learn/ViewsLesson.h"

namespace memviz {

LearnWindow::LearnWindow(QWidget* parent) : QMainWindow(parent), list_(new QListWidget(this)), pages_(new QStackedWidget(this)) {
    setWindowFlag(Qt::Window);
    setWindowTitle(tr("memviz – Learn"));
    setObjectName(QStringLiteral("LearnWindow"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(list_);
    split->addWidget(pages_);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    setCentralWidget(split);

    // Numbered as in the workshop handout; the decoder comes last.
    addLesson(new TensorSizeLesson(pages_));
    addLesson(new BatchSizeLesson(pages_));
    addLesson(new DTypeLesson(pages_));
    addLesson(new OptimizerLesson(pages_));
    addLesson(new CheckpointLesson(pages_));
    addLesson(new MixedPrecisionLesson(pages_));
    addLesson(new ViewsLesson(pages_));
    addLesson(new SparseLesson(pages_));
    addLesson(new FreeingLesson(pages_));
    decoder_ = new OomDecoderPage(pages_);
    addLesson(decoder_);
    connect(decoder_, &OomDecoderPage::lessonRequested, this, [this](const QString& id) { showLesson(id); });

    connect(list_, &QListWidget::currentRowChanged, pages_, &QStackedWidget::setCurrentIndex);
    createMenus();
    list_->setCurrentRow(0);
    fitLessonList();
    // 1280×820 at most, and never taller or wider than the screen (with its title bar): at
    // 1280×800 the bottom of every lesson was off screen.
    resize(sizeFittedToScreen(this, {1280, 820}));
}

LearnWindow::~LearnWindow() = default;

void LearnWindow::addLesson(Lesson* lesson) {
    const bool isDecoder = lesson == decoder_;
    const QString label = isDecoder ? lesson->shortTitle()
                                    : QStringLiteral("%1. %2").arg(lessons_.size() + 1).arg(lesson->shortTitle());
    auto* item = new QListWidgetItem(label, list_);
    item->setData(Qt::UserRole, lesson->id());
    item->setToolTip(lesson->title());
    pages_->addWidget(lesson);
    lessons_ << lesson;
    connect(lesson, &Lesson::whatIfRequested, this, &LearnWindow::whatIfRequested);
}

void LearnWindow::createMenus() {
    QMenu* lessonMenu = menuBar()->addMenu(tr("&Lesson"));
    previousAction_ = lessonMenu->addAction(tr("&Previous Lesson"), this, &LearnWindow::previousLesson);
    previousAction_->setShortcuts({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::ALT | Qt::Key_Left)});
    nextAction_ = lessonMenu->addAction(tr("&Next Lesson"), this, &LearnWindow::nextLesson);
    nextAction_->setShortcuts({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::ALT | Qt::Key_Right)});
    // The main window's Learn › OOM Decoder shortcut, here too (its shortcut is that window's).
    decoderAction_ = lessonMenu->addAction(tr("&OOM Decoder"), this, [this] { showLesson(QStringLiteral("oom-decoder")); });
    decoderAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    lessonMenu->addSeparator();
    QAction* plot = lessonMenu->addAction(tr("Export &Plot (PNG, SVG, PDF)…"), this, &LearnWindow::exportCurrentPlot);
    plot->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    QAction* table = lessonMenu->addAction(tr("Export &Table as CSV…"), this, &LearnWindow::exportCurrentTable);
    table->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    lessonMenu->addSeparator();
    QAction* close = lessonMenu->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcut(QKeySequence::Close);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    presenterAction_ = view->addAction(tr("&Presenter Mode"), this, [this](bool on) { setPresenterMode(on); });
    presenterAction_->setCheckable(true);
    presenterAction_->setShortcut(Qt::Key_F11);
    contrastAction_ = view->addAction(tr("&High Contrast"), this, [this](bool on) { setHighContrast(on); });
    contrastAction_->setCheckable(true);
    contrastAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    view->addSeparator();
    QAction* larger = view->addAction(tr("&Larger"), this, [this] { setScale(style_.scale + 0.25); });
    larger->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    QAction* smaller = view->addAction(tr("&Smaller"), this, [this] { setScale(style_.scale - 0.25); });
    smaller->setShortcut(QKeySequence::ZoomOut);
    QAction* normal = view->addAction(tr("&Normal Size"), this, [this] { setScale(1.0); });
    normal->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    // The shortcuts keep working in full screen, where the menu bar is hidden.
    addActions(lessonMenu->actions());
    addActions(view->actions());
}

Lesson* LearnWindow::lesson(const QString& id) const {
    for (Lesson* l : lessons_)
        if (l->id() == id) return l;
    return nullptr;
}

Lesson* LearnWindow::currentLesson() const { return qobject_cast<Lesson*>(pages_->currentWidget()); }
int LearnWindow::currentIndex() const { return pages_->currentIndex(); }

bool LearnWindow::showLesson(const QString& id) {
    const int i = int(lessons_.indexOf(lesson(id)));
    if (i < 0) return false;
    showLessonAt(i);
    return true;
}

void LearnWindow::showLessonAt(int index) {
    if (index < 0 || index >= lessons_.size()) return;
    list_->setCurrentRow(index);
}

void LearnWindow::nextLesson() { showLessonAt(std::min(currentIndex() + 1, int(lessons_.size()) - 1)); }
void LearnWindow::previousLesson() { showLessonAt(std::max(currentIndex() - 1, 0)); }

void LearnWindow::setPresenterMode(bool on) {
    if (on == presenter_) return;
    presenter_ = on;
    presenterAction_->setChecked(on);
    if (on) {
        scaleBeforePresenting_ = style_.scale;
        style_.scale = std::max(style_.scale, LessonStyle::kPresenterScale);
        menuBar()->hide();
        list_->hide(); // Page Down / Page Up move on; the lesson gets the whole width
        showFullScreen();
    } else {
        style_.scale = scaleBeforePresenting_;
        menuBar()->show();
        list_->show();
        showNormal();
    }
    applyStyle();
}

void LearnWindow::setScale(double scale) {
    const double s = std::clamp(scale, LessonStyle::kMinScale, LessonStyle::kMaxScale);
    if (s == style_.scale) return;
    style_.scale = s;
    applyStyle();
    statusBar()->showMessage(tr("Scale ×%1").arg(s), 2000);
}

void LearnWindow::setHighContrast(bool on) {
    style_.highContrast = on;
    contrastAction_->setChecked(on);
    applyStyle();
}

void LearnWindow::applyStyle() {
    setFont(style_.font(QApplication::font()));
    setPalette(style_.palette(QApplication::palette()));
    for (Lesson* l : lessons_) l->setLessonStyle(style_);
    fitLessonList();
}

void LearnWindow::fitLessonList() {
    // As wide as the longest title at the current scale: the rest is the lesson's.
    int titles = 0;
    for (int i = 0; i < list_->count(); ++i)
        titles = std::max(titles, list_->fontMetrics().horizontalAdvance(list_->item(i)->text()));
    const int width = titles + 2 * list_->frameWidth() + 3 * list_->fontMetrics().averageCharWidth();
    list_->setMinimumWidth(width);
    if (auto* split = qobject_cast<QSplitter*>(centralWidget())) {
        QList<int> sizes = split->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        split->setSizes({width, total > width ? total - width : 4000});
    }
}

void LearnWindow::exportCurrentPlot() {
    Lesson* l = currentLesson();
    if (!l || l->plots().isEmpty()) {
        statusBar()->showMessage(tr("This page has no plot."), 3000);
        return;
    }
    const QString path = exporting::exportPlotInteractively(l->plots().first(), this, l->id());
    if (!path.isEmpty()) statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

void LearnWindow::exportCurrentTable() {
    Lesson* l = currentLesson();
    if (!l || l->tables().isEmpty()) {
        statusBar()->showMessage(tr("This page has no table."), 3000);
        return;
    }
    const QString path = exporting::exportTableInteractively(l->tables().first()->model(), this, l->id());
    if (!path.isEmpty()) statusBar()->showMessage(tr("Wrote %1").arg(path), 4000);
}

} // namespace memviz
