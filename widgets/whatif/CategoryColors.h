// SPDX-License-Identifier: MIT
#pragma once
// One colour per cost-model category, shared by the what-if charts.
#include <QColor>

#include "costmodel/Types.h"

namespace memviz {

inline QColor categoryColor(costmodel::Category c) {
    static const QColor palette[] = {QColor(31, 119, 180), QColor(44, 160, 44), QColor(255, 127, 14), QColor(148, 103, 189),
                                     QColor(140, 86, 75),  QColor(214, 39, 40), QColor(23, 190, 207),
                                     QColor(170, 170, 170)};
    return palette[static_cast<int>(c)];
}

} // namespace memviz
