// SPDX-License-Identifier: MIT
#pragma once
// The top allocation sites of a native recording (memviz record --native) in the live
// window: function, file:line, bytes held now, their peak, calls; refreshed from
// live_native_sites (at most 20 rows) while heaptrack records.
#include <QTableWidget>

namespace memviz {

class TraceSession;

class NativeSitesView : public QTableWidget {
    Q_OBJECT
public:
    explicit NativeSitesView(TraceSession* trace, QWidget* parent = nullptr);
    void refresh();

private:
    TraceSession* trace_;
};

} // namespace memviz
