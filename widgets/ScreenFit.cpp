// SPDX-License-Identifier: MIT
#include "ScreenFit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace memviz {

namespace {
constexpr int kTitleBarAllowancePx = 40; // the window manager's frame above the client area
}

QSize sizeFittedToScreen(const QWidget* window, QSize wanted) {
    const QScreen* screen = window && window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) return wanted;
    const QRect area = screen->availableGeometry();
    return {std::min(wanted.width(), area.width()), std::min(wanted.height(), area.height() - kTitleBarAllowancePx)};
}

} // namespace memviz
