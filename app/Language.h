// SPDX-License-Identifier: MIT
#pragma once
// The user-interface language: English (the source texts) or Simplified Chinese. memviz
// follows the system locale unless the user picked a language in View > Language (saved in
// the settings). Switching installs the translators (memviz's and Qt's own, for standard
// buttons and dialogs); windows built afterwards come up in the new language.
#include <QString>
#include <QStringList>

namespace memviz::language {

// "en" and "zh_CN".
QStringList available();
// The language's own name: "English", "简体中文".
QString nativeName(const QString& code);
// The saved choice: "" (follow the system), "en" or "zh_CN".
QString saved();
void save(const QString& code);
// What to use for a choice ("" = the system locale, mapped to the closest available).
QString resolve(const QString& choice);
// Installs the translators for `code` (replacing earlier ones); returns false when the
// translation cannot be loaded (English needs none and always succeeds).
bool apply(const QString& code);
// The language currently installed.
QString current();

} // namespace memviz::language
