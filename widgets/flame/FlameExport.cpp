// SPDX-License-Identifier: MIT
#include "widgets/flame/FlameExport.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>

#include "widgets/flame/FlameGraph.h"

namespace memviz {

bool saveFlameGraph(FlameGraph* graph, const QString& path, QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    const QSize size = graph->size();
    bool ok = false;
    if (ext == QLatin1String("png")) {
        ok = graph->grab().save(path, "PNG");
    } else if (ext == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("memviz flame graph"));
        QPainter painter;
        if (painter.begin(&svg)) {
            graph->render(&painter);
            ok = painter.end();
        }
    } else {
        if (error) *error = QObject::tr("Unknown image type \"%1\" (png or svg)").arg(ext);
        return false;
    }
    if (!ok || QFileInfo(path).size() == 0) {
        if (error) *error = QObject::tr("Cannot write %1").arg(path);
        return false;
    }
    return true;
}

void addFlameExportMenu(FlameGraph* graph) {
    graph->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(graph, &QWidget::customContextMenuRequested, graph, [graph](const QPoint& at) {
        QMenu menu(graph);
        menu.addAction(QObject::tr("Export Flame Graph…"), graph, [graph] {
            QString path = QFileDialog::getSaveFileName(graph->window(), QObject::tr("Export Flame Graph"), QStringLiteral("flame.png"),
                                                        QObject::tr("PNG image (*.png);;SVG drawing (*.svg)"));
            if (path.isEmpty()) return;
            if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".png");
            QString error;
            if (!saveFlameGraph(graph, path, &error)) QMessageBox::warning(graph->window(), QObject::tr("Export Flame Graph"), error);
        });
        menu.exec(graph->mapToGlobal(at));
    });
}

} // namespace memviz
