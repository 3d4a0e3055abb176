// SPDX-License-Identifier: MIT
#include "widgets/learn/Lesson.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include "widgets/ChartFit.h"
#include "widgets/Export.h"

namespace memviz {

Lesson::Lesson(QWidget* parent)
    : QWidget(parent), layout_(new QVBoxLayout(this)), title_(new QLabel(this)),
      whatIfButton_(new QPushButton(tr("Open in the What-If Panel"), this)), intro_(new QLabel(this)), controls_(new QVBoxLayout),
      result_(new QLabel(this)), body_(new QSplitter(Qt::Horizontal, this)) {
    title_->setWordWrap(true);
    intro_->setWordWrap(true);
    intro_->setTextFormat(Qt::RichText);
    intro_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    intro_->setOpenExternalLinks(true);
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    body_->setChildrenCollapsible(false);
    auto* header = new QHBoxLayout;
    header->addWidget(title_, 1);
    header->addWidget(whatIfButton_, 0, Qt::AlignTop);
    layout_->addLayout(header);
    whatIfButton_->setToolTip(tr("Show this lesson's model and settings in the main window's what-if panel (Ctrl+E)."));
    connect(whatIfButton_, &QPushButton::clicked, this, [this] {
        if (auto s = whatIfScenario()) emit whatIfRequested(*s);
    });
    layout_->addWidget(intro_);
    layout_->addLayout(controls_);
    layout_->addWidget(result_);
    layout_->addWidget(body_, 1);
}

void Lesson::finishSetup() {
    title_->setText(title());
    applyFonts();
    refresh();
    whatIfButton_->setVisible(offersWhatIf());
    whatIfButton_->setEnabled(whatIfScenario().has_value());
}

void Lesson::setIntro(const QString& html) { intro_->setText(html); }

QHBoxLayout* Lesson::addControlRow() {
    auto* row = new QHBoxLayout;
    controls_->addLayout(row);
    return row;
}

QCustomPlot* Lesson::addPlot(const QString& exportName) {
    auto* plot = new QCustomPlot(body_);
    plot->setMinimumSize(280, 240);
    keepTextFitted(plot, plot->xAxis, false); // bar labels turned when they would run together
    exporting::addExportMenu(plot, exportName);
    body_->addWidget(plot);
    plots_ << plot;
    return plot;
}

QTableView* Lesson::addTable(QAbstractItemModel* model, const QString& exportName) {
    if (!tableColumn_) {
        tableColumn_ = new QSplitter(Qt::Vertical, body_);
        tableColumn_->setChildrenCollapsible(false);
        body_->addWidget(tableColumn_);
        // The plot gets the larger share.
        const int plotsIndex = body_->indexOf(tableColumn_);
        for (int i = 0; i < body_->count(); ++i) body_->setStretchFactor(i, i == plotsIndex ? 4 : 5);
    }
    auto* view = new QTableView(tableColumn_);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->verticalHeader()->setVisible(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    exporting::addExportMenu(view, exportName);
    tableColumn_->addWidget(view);
    tables_ << view;
    return view;
}

void Lesson::setLessonStyle(const LessonStyle& style) {
    style_ = style;
    applyFonts();
    refresh();
}

void Lesson::applyFonts() {
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    title_->setFont(big);
    QFont numbers = font();
    numbers.setPointSizeF(numbers.pointSizeF() * 1.15);
    result_->setFont(numbers);
    for (QTableView* t : tables_) {
        t->horizontalHeader()->setFont(font()); // the style's header font does not follow the scale
        t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    }
    fitTables();
}

namespace {

// The width of `text` broken into two lines at the space nearest its middle (its own width
// when it has no space).
int twoLineWidth(const QString& text, const QFontMetrics& metrics) {
    int best = metrics.horizontalAdvance(text);
    for (qsizetype i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1))
        best = std::min(best, std::max(metrics.horizontalAdvance(text.left(i)), metrics.horizontalAdvance(text.mid(i + 1))));
    return best;
}

} // namespace

void Lesson::fitTables() {
    int wanted = 0; // the table column's width that shows every column whole
    for (QTableView* t : tables_) {
        const QList<int> sentences = wrapped_.value(t);
        QHeaderView* header = t->horizontalHeader();
        const QFontMetrics headerMetrics(header->font());
        const int padding = 2 * headerMetrics.averageCharWidth() + 8;
        int width = 2 * t->frameWidth() + t->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, t) + 4;
        bool twoLineHeader = false;
        for (int c = 0; c < t->model()->columnCount(); ++c) {
            if (sentences.contains(c)) {
                header->setSectionResizeMode(c, QHeaderView::Stretch);
                width += 14 * t->fontMetrics().averageCharWidth(); // a few words a line at the least
                continue;
            }
            header->setSectionResizeMode(c, QHeaderView::Interactive);
            // As wide as the cells; a title much wider than its numbers takes two lines.
            const QString title = t->model()->headerData(c, Qt::Horizontal).toString();
            int cells = 0;
            for (int r = 0; r < t->model()->rowCount(); ++r)
                cells = std::max(cells, t->sizeHintForIndex(t->model()->index(r, c)).width());
            cells += 2 * t->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, t) + 2;
            const int full = headerMetrics.horizontalAdvance(title) + padding;
            const int folded = twoLineWidth(title, headerMetrics) + padding;
            int column = std::max(cells, full);
            if (full > cells + 2 * headerMetrics.averageCharWidth() && folded < full) {
                column = std::max(cells, folded);
                twoLineHeader = twoLineHeader || column < full;
            }
            t->setColumnWidth(c, column);
            width += column;
        }
        // Qt::TextWordWrap is a text flag that QHeaderView passes on with the alignment.
        header->setDefaultAlignment(twoLineHeader ? Qt::AlignCenter | Qt::Alignment::fromInt(Qt::TextWordWrap) : Qt::AlignCenter);
        header->setMinimumHeight(twoLineHeader ? 2 * headerMetrics.lineSpacing() + 8 : 0);
        wanted = std::max(wanted, width);
    }
    if (!tableColumn_ || body_->width() <= 0) return;
    // Widen the table column to that when the plots can spare it (each keeps its minimum); a
    // table that still does not fit scrolls. Only ever wider: a split the user chose stays.
    const int at = body_->indexOf(tableColumn_);
    QList<int> sizes = body_->sizes();
    if (at < 0 || sizes.value(at) >= wanted) return;
    int spare = 0;
    for (int i = 0; i < body_->count(); ++i)
        if (i != at)
            spare += std::max(0,
                              sizes[i] - std::max(body_->widget(i)->minimumSizeHint().width(), body_->widget(i)->minimumWidth()));
    int grow = std::min(wanted - sizes[at], spare);
    if (grow <= 0) return;
    sizes[at] += grow;
    for (int i = 0; i < body_->count() && grow > 0; ++i) {
        if (i == at) continue;
        const int floor = std::max(body_->widget(i)->minimumSizeHint().width(), body_->widget(i)->minimumWidth());
        const int take = std::min(grow, std::max(0, sizes[i] - floor));
        sizes[i] -= take;
        grow -= take;
    }
    body_->setSizes(sizes);
}

void Lesson::wrapText(QTableView* table, const QList<int>& columns) {
    wrapped_[table] = columns;
    table->setWordWrap(true);
    table->horizontalHeader()->setStretchLastSection(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents); // rows grow with their lines
    fitTables();
}

void Lesson::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The room the tables may take follows the page, once its layout has placed the splitter.
    if (!fitQueued_) {
        fitQueued_ = true;
        QTimer::singleShot(0, this, [this] {
            fitQueued_ = false;
            fitTables();
        });
    }
}

void Lesson::changeEvent(QEvent* event) {
    // The window scales its font for presenter mode: follow it.
    if (event->type() == QEvent::FontChange) applyFonts();
    QWidget::changeEvent(event);
}

void setCell(QStandardItemModel* model, int row, int column, const QString& text, const QVariant& raw) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    if (raw.isValid()) item->setData(raw, exporting::kExportRole);
    const bool numeric = raw.isValid() && raw.canConvert<double>() && raw.typeId() != QMetaType::QString;
    if (numeric) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    model->setItem(row, column, item);
}

} // namespace memviz
