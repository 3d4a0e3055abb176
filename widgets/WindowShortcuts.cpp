// SPDX-License-Identifier: MIT
#include "widgets/WindowShortcuts.h"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>

namespace memviz::shortcuts {

namespace {

// Keys a text box needs for editing, whatever the window binds them to.
bool isEditingKey(const QKeyEvent* key) {
    static const QKeySequence::StandardKey editing[] = {QKeySequence::Copy,
                                                        QKeySequence::Cut,
                                                        QKeySequence::Paste,
                                                        QKeySequence::Undo,
                                                        QKeySequence::Redo,
                                                        QKeySequence::SelectAll,
                                                        QKeySequence::Delete,
                                                        QKeySequence::Backspace,
                                                        QKeySequence::DeleteStartOfWord,
                                                        QKeySequence::DeleteEndOfWord,
                                                        QKeySequence::MoveToNextWord,
                                                        QKeySequence::MoveToPreviousWord,
                                                        QKeySequence::SelectNextWord,
                                                        QKeySequence::SelectPreviousWord,
                                                        QKeySequence::SelectStartOfLine,
                                                        QKeySequence::SelectEndOfLine};
    for (QKeySequence::StandardKey k : editing)
        if (key->matches(k)) return true;
    // Plain keys (letters, Home, End, arrows) type or move the cursor; F-keys do not.
    const bool functionKey = key->key() >= Qt::Key_F1 && key->key() <= Qt::Key_F35;
    return !functionKey && !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier));
}

bool isWindowShortcut(const QWidget* widget, const QKeyEvent* key) {
    const QKeySequence pressed(key->keyCombination());
    for (const QAction* action : widget->window()->findChildren<QAction*>())
        if (action->isEnabled() && action->shortcuts().contains(pressed)) return true;
    return false;
}

class Filter : public QObject {
public:
    explicit Filter(QLineEdit* edit) : QObject(edit), edit_(edit) {}

    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched != edit_) return false;
        if (event->type() == QEvent::ShortcutOverride) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
                event->accept(); // the box's own Esc, below
                return true;
            }
            if (!isEditingKey(key) && isWindowShortcut(edit_, key)) {
                event->ignore(); // the box does not claim it: the window's action runs
                return true;
            }
        } else if (event->type() == QEvent::KeyPress) {
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier) {
                edit_->clear();
                return true;
            }
        }
        return false;
    }

private:
    QLineEdit* edit_;
};

} // namespace

void letWindowShortcutsThrough(QLineEdit* edit) { edit->installEventFilter(new Filter(edit)); }

} // namespace memviz::shortcuts
