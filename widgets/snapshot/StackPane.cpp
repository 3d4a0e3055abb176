#include "widgets/snapshot/StackPane.h"

#include "trace/StackSite.h"

namespace memviz {

StackPane::StackPane(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setLineWrapMode(QTextEdit::NoWrap);
    setMinimumWidth(240);
    showMessage(tr("Select an allocation to see where it was made."));
}

void StackPane::showMessage(const QString& text) { setHtml(QStringLiteral("<p style='color:#666'>%1</p>").arg(text.toHtmlEscaped())); }

void StackPane::showStack(const QString& title, const std::vector<FrameRow>& frames) {
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(title.toHtmlEscaped());
    if (frames.empty()) {
        html += tr("<p style='color:#666'>No stack was recorded (the allocation is older than the recording, or "
                   "stacks were not recorded).</p>");
        setHtml(html);
        return;
    }
    html += QStringLiteral("<table cellspacing='0' cellpadding='1' style='font-family:monospace'>");
    for (const FrameRow& f : frames) {
        const bool python = isPythonFrame(f.filename);
        const bool unknown = f.filename == "??" || f.filename.empty();
        const QString where = unknown ? QString() : QString::fromStdString(fileAndLine(f.filename, f.line));
        html += QStringLiteral("<tr><td style='color:%1'>%2%3%4</td><td style='color:#666'>&nbsp;&nbsp;%5</td></tr>")
                    .arg(unknown ? QStringLiteral("#888") : QStringLiteral("#000"), python ? QStringLiteral("<b>") : QString(),
                         QString::fromStdString(f.name).toHtmlEscaped(), python ? QStringLiteral("</b>") : QString(),
                         where.toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    setHtml(html);
}

} // namespace memviz
