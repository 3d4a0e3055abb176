// SPDX-License-Identifier: MIT
#include "widgets/Export.h"

#include <qcustomplot.h>

#include <QAbstractItemModel>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QSvgGenerator>
#include <QTableView>
#include <QTextStream>

namespace memviz::exporting {

std::optional<PlotFormat> plotFormatFor(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png")) return PlotFormat::Png;
    if (ext == QLatin1String("svg")) return PlotFormat::Svg;
    if (ext == QLatin1String("pdf")) return PlotFormat::Pdf;
    return std::nullopt;
}

bool savePlot(QCustomPlot* plot, const QString& path, QString* error, int width, int height) {
    const auto fail = [&](const QString& message) {
        if (error) *error = message;
        return false;
    };
    const auto format = plotFormatFor(path);
    if (!format) return fail(QObject::tr("Unknown image format for %1 (use .png, .svg or .pdf)").arg(path));
    const int w = width > 0 ? width : plot->width();
    const int h = height > 0 ? height : plot->height();
    bool ok = false;
    switch (*format) {
    case PlotFormat::Png: ok = plot->savePng(path, w, h); break;
    case PlotFormat::Pdf: ok = plot->savePdf(path, w, h); break;
    case PlotFormat::Svg: {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(w, h));
        svg.setViewBox(QRect(0, 0, w, h));
        svg.setTitle(QStringLiteral("memviz"));
        QCPPainter painter;
        if (painter.begin(&svg)) {
            plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
        break;
    }
    }
    if (!ok || QFileInfo(path).size() == 0) return fail(QObject::tr("Cannot write %1").arg(path));
    return true;
}

namespace {

QString csvField(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')) ||
        s.contains(QLatin1Char('\r'))) {
        s.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + s + QLatin1Char('"');
    }
    return s;
}

QString cellText(const QAbstractItemModel* model, const QModelIndex& index) {
    const QVariant raw = model->data(index, kExportRole);
    return (raw.isValid() ? raw : model->data(index, Qt::DisplayRole)).toString();
}

} // namespace

QString csvText(const QAbstractItemModel* model) {
    QString out;
    const int columns = model->columnCount();
    QStringList header;
    for (int c = 0; c < columns; ++c) {
        const QVariant raw = model->headerData(c, Qt::Horizontal, kExportRole);
        header << csvField((raw.isValid() ? raw : model->headerData(c, Qt::Horizontal, Qt::DisplayRole)).toString().remove('&'));
    }
    out += header.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList fields;
        for (int c = 0; c < columns; ++c) fields << csvField(cellText(model, model->index(r, c)));
        out += fields.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

bool saveCsv(const QAbstractItemModel* model, const QString& path, QString* error) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) *error = QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    f.write(csvText(model).toUtf8());
    return true;
}

namespace {

QString askPath(QWidget* parent, const QString& title, const QString& suggestedName, const QString& filters) {
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("exportDir"), QDir::homePath()).toString();
    QString selected;
    const QString path = QFileDialog::getSaveFileName(parent, title, dir + QLatin1Char('/') + suggestedName, filters, &selected);
    if (!path.isEmpty()) settings.setValue(QStringLiteral("exportDir"), QFileInfo(path).absolutePath());
    return path;
}

} // namespace

QString exportPlotInteractively(QCustomPlot* plot, QWidget* parent, const QString& suggestedName) {
    QString path = askPath(parent, QObject::tr("Export Plot"), suggestedName + QStringLiteral(".png"),
                           QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return {};
    if (!plotFormatFor(path)) path += QStringLiteral(".png");
    QString error;
    if (!savePlot(plot, path, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export Plot"), error);
        return {};
    }
    return path;
}

QString exportTableInteractively(const QAbstractItemModel* model, QWidget* parent, const QString& suggestedName) {
    QString path = askPath(parent, QObject::tr("Export Table"), suggestedName + QStringLiteral(".csv"),
                           QObject::tr("CSV table (*.csv)"));
    if (path.isEmpty()) return {};
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".csv");
    QString error;
    if (!saveCsv(model, path, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export Table"), error);
        return {};
    }
    return path;
}

void addExportMenu(QCustomPlot* plot, const QString& suggestedName) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot, suggestedName](const QPoint& at) {
        QMenu menu(plot);
        menu.addAction(QObject::tr("Export Plot (PNG, SVG, PDF)…"), plot,
                       [plot, suggestedName] { exportPlotInteractively(plot, plot->window(), suggestedName); });
        menu.exec(plot->mapToGlobal(at));
    });
}

void addExportMenu(QTableView* view, const QString& suggestedName) {
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, suggestedName](const QPoint& at) {
        QMenu menu(view);
        menu.addAction(QObject::tr("Export Table as CSV…"), view,
                       [view, suggestedName] { exportTableInteractively(view->model(), view->window(), suggestedName); });
        menu.exec(view->viewport()->mapToGlobal(at));
    });
}

} // namespace memviz::exporting
