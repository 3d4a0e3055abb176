// SPDX-License-Identifier: MIT
#pragma once
// Window-wide shortcuts over text boxes. A QLineEdit claims keys its window uses (Ctrl+E is
// "end of line" on X11), so menu shortcuts did nothing while a filter box had the focus.
// letWindowShortcutsThrough() hands those keys to the window's actions (editing keys such as
// Ctrl+C/V/X/Z/A and the arrows stay with the box) and makes Esc clear the box instead of
// reaching the window's Esc (clear the time selection).
class QLineEdit;

namespace memviz::shortcuts {

void letWindowShortcutsThrough(QLineEdit* edit);

} // namespace memviz::shortcuts
