// SPDX-License-Identifier: MIT
#pragma once
// What the timeline shows instead of a chart when a trace has no memory series (issue 30): a
// PyTorch profiler trace recorded without profile_memory=True (46 of the wild corpus's 61
// traces), a snapshot taken with nothing allocated and no history. It says why there is no
// curve, what the trace does have (the tabs below) and how to record memory next time, instead
// of an empty chart squeezed into a corner.
#include <QLabel>

namespace memviz {

struct TraceSummary;

class NoMemoryNotice : public QLabel {
    Q_OBJECT
public:
    explicit NoMemoryNotice(QWidget* parent = nullptr);
    // The text for this trace (rich text).
    static QString textFor(const TraceSummary& summary);
    void showFor(const TraceSummary& summary);
};

} // namespace memviz
