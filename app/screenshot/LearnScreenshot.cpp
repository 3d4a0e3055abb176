// SPDX-License-Identifier: MIT
// memviz screenshot --learn LESSON: the Learn window rendered offscreen, for the docs and for
// checking the lessons, presenter mode and the translations by eye.
#include <QApplication>
#include <QListWidget>
#include <QPlainTextEdit>

#include "cli/CliSupport.h"
#include "screenshot/Screenshot.h"
#include "widgets/learn/LearnWindow.h"
#include "widgets/learn/Lesson.h"
#include "widgets/learn/OomDecoderPage.h"

namespace memviz::cli {

int learnScreenshot(const QCommandLineParser& p, QSize size) {
    LearnWindow window;
    window.resize(size);
    const QString lesson = p.value("learn");
    if (!window.showLesson(lesson)) {
        QStringList ids;
        for (Lesson* l : window.lessons()) ids << l->id();
        throw UsageError{"no lesson \"" + lesson + "\" (lessons: " + ids.join(", ") + ")"};
    }
    if (p.isSet("message")) window.oomDecoder()->setMessage(p.value("message"));
    if (p.isSet("scale")) {
        bool ok = false;
        const double scale = p.value("scale").toDouble(&ok);
        if (!ok || scale < 1.0 || scale > 2.0) throw UsageError{"--scale needs a number from 1 to 2"};
        window.setScale(scale);
    }
    if (p.isSet("presenter")) {
        window.setScale(std::max(window.scale(), 1.5));
        window.setHighContrast(true);
    }
    window.show();
    QApplication::processEvents();
    window.resize(size); // after show: full-screen-free geometry for the picture
    QApplication::processEvents();
    window.currentLesson()->update();
    QApplication::processEvents();
    return saveScreenshot(window, p.value("out"));
}

} // namespace memviz::cli
