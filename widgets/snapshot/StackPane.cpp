// SPDX-License-Identifier: MIT
#include "widgets/snapshot/StackPane.h"

#include <QFontDatabase>
#include <QFontMetrics>
#include <QResizeEvent>
#include <QScrollBar>

#include "trace/StackSite.h"

namespace memviz {

namespace {
// The file:line line is indented under the frame's name by this many pixels.
constexpr int kWhereIndent = 16;
// Room kept for the document margins and a vertical scroll bar.
constexpr int kSideRoom = 12;
} // namespace

StackPane::StackPane(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setLineWrapMode(QTextEdit::WidgetWidth);
    setMinimumWidth(260);
    showMessage(tr("Select an allocation to see where it was made."));
}

void StackPane::showMessage(const QString& text) {
    showingStack_ = false;
    setHtml(QStringLiteral("<p style='color:#666'>%1</p>").arg(text.toHtmlEscaped()));
}

void StackPane::showStack(const QString& title, const std::vector<FrameRow>& frames) {
    title_ = title;
    frames_ = frames;
    showingStack_ = true;
    render();
}

void StackPane::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    if (showingStack_ && event->size().width() != renderedWidth_) render();
}

void StackPane::render() {
    renderedWidth_ = width();
    QString html = QStringLiteral("<p><b>%1</b></p>").arg(title_.toHtmlEscaped());
    if (frames_.empty()) {
        html += tr("<p style='color:#666'>No stack was recorded (the allocation is older than the recording, or "
                   "stacks were not recorded).</p>");
        setHtml(html);
        return;
    }
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QFontMetrics metrics(mono);
    const int room = std::max(80, viewport()->width() - kWhereIndent - kSideRoom - verticalScrollBar()->sizeHint().width());
    html += QStringLiteral("<div style='font-family:monospace'>");
    for (const FrameRow& f : frames_) {
        const bool python = isPythonFrame(f.filename);
        const bool unknown = f.filename == "??" || f.filename.empty();
        const QString name = QString::fromStdString(f.name).toHtmlEscaped();
        html += QStringLiteral("<div style='color:%1'>%2</div>")
                    .arg(unknown ? QStringLiteral("#888") : QStringLiteral("#000"),
                         python ? QStringLiteral("<b>%1</b>").arg(name) : name);
        if (unknown) continue;
        const QString where = QString::fromStdString(fileAndLine(f.filename, f.line)); // a line of 2^64-1 shows as unknown
        html += QStringLiteral("<div style='color:#666; margin-left:%1px; white-space:pre'>%2</div>")
                    .arg(kWhereIndent)
                    .arg(metrics.elidedText(where, Qt::ElideMiddle, room).toHtmlEscaped());
    }
    html += QStringLiteral("</div>");
    setHtml(html);
}

} // namespace memviz
