// SPDX-License-Identifier: MIT
#include "widgets/NoMemoryNotice.h"

#include "formats/FormatIds.h"
#include "store/TraceQueries.h"
#include "words/UnitTexts.h"

namespace memviz {

NoMemoryNotice::NoMemoryNotice(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("noMemoryNotice"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setAlignment(Qt::AlignCenter);
    setMargin(24);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

QString NoMemoryNotice::textFor(const TraceSummary& summary) {
    const std::string& format = summary.trace.format;
    const QString span = summary.trace.durationNs > 0
                             ? tr("It spans %1.").arg(words::duration(summary.trace.durationNs))
                             : QString();
    QString why, has, how;
    if (format == format_id::kProfiler) {
        why = tr("This PyTorch profiler trace has no memory events: it was recorded without "
                 "<code>profile_memory=True</code>, so there is no memory curve to draw.");
        has = tr("What it has is in the tabs below: its operators and their calls (Operators) and, "
                 "when recorded <code>with_stack=True</code>, their call stacks (Flame). %1")
                  .arg(span);
        how = tr("To record memory: <code>torch.profiler.profile(activities=[...], profile_memory=True, "
                 "record_shapes=True, with_stack=True)</code>.");
    } else if (format == format_id::kSnapshot) {
        why = tr("This CUDA memory snapshot holds no allocations: no segments, and no trace entries to "
                 "draw a curve from.");
        has = tr("The Snapshot tab shows what the file does hold (its settings, annotations).");
        how = tr("To record the history of allocations, call "
                 "<code>torch.cuda.memory._record_memory_history()</code> before the code you want to "
                 "see, and <code>torch.cuda.memory._dump_snapshot(\"snapshot.pickle\")</code> after it.");
    } else {
        why = tr("This trace has no memory events, so there is no memory curve to draw.");
        has = span;
    }
    QString text = QStringLiteral("<p style=\"font-size: large\"><b>%1</b></p><p>%2</p>").arg(tr("No memory in this trace"), why);
    if (!has.trimmed().isEmpty()) text += QStringLiteral("<p>%1</p>").arg(has.trimmed());
    if (!how.isEmpty()) text += QStringLiteral("<p>%1</p>").arg(how);
    return text;
}

void NoMemoryNotice::showFor(const TraceSummary& summary) {
    setText(textFor(summary));
    show();
}

} // namespace memviz
