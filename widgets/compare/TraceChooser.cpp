// SPDX-License-Identifier: MIT
#include "widgets/compare/TraceChooser.h"

#include <QFileInfo>
#include <QInputDialog>
#include <QStringList>

#include "store/Database.h"
#include "store/TraceQueries.h"

namespace memviz {

std::optional<ChosenTrace> chooseTraceOf(QWidget* parent, const QString& storePath, qint64 openTraceId) {
    std::vector<TraceRecord> traces;
    {
        Database db(storePath.toStdString(), Database::Mode::ReadOnly);
        traces = listTraces(db); // a row per trace: as many as the store holds, a few as a rule
    }
    const QString store = QFileInfo(storePath).fileName();
    auto label = [&](const TraceRecord& t) { return store + "#" + QString::number(t.id); };
    if (traces.empty()) return std::nullopt;
    if (traces.size() == 1) return ChosenTrace{traces.front().id, label(traces.front())};
    QStringList items;
    int current = 0;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        const TraceRecord& t = traces[i];
        items << QStringLiteral("#%1  %2  (%3)").arg(t.id).arg(QFileInfo(QString::fromStdString(t.sourcePath)).fileName(),
                                                          QString::fromStdString(t.format));
        if (t.id != openTraceId && t.id >= traces[static_cast<std::size_t>(current)].id) current = static_cast<int>(i);
    }
    bool ok = false;
    const QString item = QInputDialog::getItem(parent, QObject::tr("Compare with which trace?"),
                                               QObject::tr("%1 holds %2 traces; compare with:").arg(store).arg(traces.size()), items,
                                               current, false, &ok);
    if (!ok) return std::nullopt;
    const TraceRecord& t = traces[static_cast<std::size_t>(items.indexOf(item))];
    return ChosenTrace{t.id, label(t)};
}

} // namespace memviz
