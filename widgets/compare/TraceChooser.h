// SPDX-License-Identifier: MIT
#pragma once
// Which trace of a store to compare with, when the store holds several (File › Compare With…
// on a store, File › Compare With a Trace of This Store…): a list of "#id name (format)" to
// pick from, the newest other than the open one chosen first.
#include <QString>
#include <optional>

class QWidget;

namespace memviz {

struct ChosenTrace {
    qint64 id = 0;
    QString label; // "est.memviz#2"
};

// nullopt when the user cancels. A store with one trace returns it without asking; a store
// that cannot be read throws (Database's error), for the caller to show.
std::optional<ChosenTrace> chooseTraceOf(QWidget* parent, const QString& storePath, qint64 openTraceId);

} // namespace memviz
