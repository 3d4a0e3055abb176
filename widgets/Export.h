// SPDX-License-Identifier: MIT
#pragma once
// Exporting what the user sees: a plot as PNG, SVG or PDF (by the file's extension), a table
// as CSV. Tables export their raw values where a model provides them under kExportRole (bytes
// as integers rather than "684.3 MiB"), else the displayed text. Context menus ("Export…") can
// be attached to any plot or table view.
#include <QString>
#include <optional>

class QAbstractItemModel;
class QCustomPlot;
class QTableView;
class QWidget;

namespace memviz::exporting {

inline constexpr int kExportRole = 0x0100 + 77; // Qt::UserRole + 77

// The header of an exported column of plain numbers names their unit: "Peak (bytes)".
inline QString headerWithUnit(const QString& title, const QString& unit) { return QStringLiteral("%1 (%2)").arg(title, unit); }
// Units of exported columns: bytes, and times in nanoseconds from the trace start.
inline QString bytesUnit() { return QStringLiteral("bytes"); }
inline QString nsUnit() { return QStringLiteral("ns"); }

enum class PlotFormat { Png, Svg, Pdf };
std::optional<PlotFormat> plotFormatFor(const QString& path);

// Writes the plot at its current size (or width x height when given). On failure returns
// false and sets *error.
bool savePlot(QCustomPlot* plot, const QString& path, QString* error = nullptr, int width = 0, int height = 0);

// RFC 4180 CSV of a model: one header line, then one line per row.
QString csvText(const QAbstractItemModel* model);
bool saveCsv(const QAbstractItemModel* model, const QString& path, QString* error = nullptr);

// Asks for a file name and saves; returns the path written ("" when cancelled or failed, with
// a message box on failure).
QString exportPlotInteractively(QCustomPlot* plot, QWidget* parent, const QString& suggestedName);
QString exportTableInteractively(const QAbstractItemModel* model, QWidget* parent, const QString& suggestedName);

// Right-click menus with the export actions.
void addExportMenu(QCustomPlot* plot, const QString& suggestedName);
void addExportMenu(QTableView* view, const QString& suggestedName);

} // namespace memviz::exporting
