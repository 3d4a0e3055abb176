// SPDX-License-Identifier: MIT
#pragma once
// Saving a flame graph as the user sees it: PNG or SVG by the file's extension (like the
// plots' exports in widgets/Export.h), and the right-click "Export Flame Graph…" menu.
#include <QString>

namespace memviz {

class FlameGraph;

// Writes the graph at its current size. On failure returns false and sets *error.
bool saveFlameGraph(FlameGraph* graph, const QString& path, QString* error = nullptr);
void addFlameExportMenu(FlameGraph* graph);

} // namespace memviz
