#include "widgets/learn/Lesson.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/Export.h"

namespace memviz {

Lesson::Lesson(QWidget* parent)
    : QWidget(parent), layout_(new QVBoxLayout(this)), title_(new QLabel(this)),
      whatIfButton_(new QPushButton(tr("Open in the What-If Panel"), this)), intro_(new QLabel(this)),
      controls_(new QVBoxLayout), result_(new QLabel(this)), body_(new QSplitter(Qt::Horizontal, this)) {
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
    plot->setMinimumSize(320, 240);
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
        t->resizeColumnsToContents();
        t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
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
