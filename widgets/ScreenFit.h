// SPDX-License-Identifier: MIT
#pragma once
// A top-level window's first size: what it asks for, but never wider or taller than the screen
// it opens on (less room for the window manager's title bar). At 1280×800 a 1280×820 window hid
// its status bar below the screen's edge.
#include <QSize>

class QWidget;

namespace memviz {

// `wanted`, shrunk to fit the available geometry of `window`'s screen (the primary screen when
// it has none yet).
QSize sizeFittedToScreen(const QWidget* window, QSize wanted);

} // namespace memviz
