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

void StackPane::showStack(const QString& title, const std::vector<FrameRow>& frames, const EntryContext& context) {
    title_ = title;
    frames_ = frames;
    context_ = context;
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
    const auto multiline = [](const std::string& text) {
        return QString::fromStdString(text).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    };
    if (!context_.compileContext.empty())
        html += QStringLiteral("<p>%1 %2</p>").arg(tr("<b>Compile context:</b>"), multiline(context_.compileContext));
    if (!context_.userMetadata.empty())
        html += QStringLiteral("<p>%1 %2</p>").arg(tr("<b>User metadata:</b>"), multiline(context_.userMetadata));
    if (frames_.empty()) {
        html += tr("<p style='color:#666'>No stack was recorded (the allocation is older than the recording, or "
                   "stacks were not recorded).</p>");
        renderForward(html);
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
    renderForward(html);
    setHtml(html);
}

// The forward pass's traceback (for an allocation of the backward pass), outermost first as
// Python prints it.
void StackPane::renderForward(QString& html) const {
    if (context_.forwardFrames.empty()) return;
    html += tr("<p><b>Forward-pass stack</b> (where this tensor was created):</p>");
    html += QStringLiteral("<div style='font-family:monospace; white-space:pre'>%1</div>")
                .arg(QString::fromStdString(context_.forwardFrames).toHtmlEscaped());
}

} // namespace memviz
