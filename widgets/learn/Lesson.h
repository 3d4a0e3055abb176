// SPDX-License-Identifier: MIT
#pragma once
// One page of the Learn mode: a title, a short explanation, a row or two of inputs, the key
// numbers, and live plots and tables. Subclasses compute everything in refresh() from the
// model's formulas (or the cost model) and draw with style(), so a change of the presenter
// style redraws them too.
#include <QHash>
#include <QList>
#include <QWidget>
#include <optional>

#include "costmodel/CostModel.h"
#include "widgets/learn/LessonStyle.h"

class QAbstractItemModel;
class QBoxLayout;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QSplitter;
class QStandardItemModel;
class QPushButton;
class QTableView;

namespace memviz {

// What a lesson opens in the what-if panel: a preset model and the knobs.
struct WhatIfScenario {
    QString presetId;
    costmodel::EstimateOptions options;
};

class Lesson : public QWidget {
    Q_OBJECT
public:
    // Stable id for links and tests: "tensor-size", "views", "sparse", "oom-decoder", ...
    virtual QString id() const = 0;
    virtual QString title() const = 0;
    // For the lesson list: a few words.
    virtual QString shortTitle() const = 0;

    const QList<QCustomPlot*>& plots() const { return plots_; }
    const QList<QTableView*>& tables() const { return tables_; }
    QLabel* resultLabel() const { return result_; }

    void setLessonStyle(const LessonStyle& style);
    const LessonStyle& lessonStyle() const { return style_; }
    // Recomputes the numbers and redraws (inputs changed).
    void update() { refresh(); }
    // The lesson's current scenario for the what-if panel; none for lessons without a model.
    virtual std::optional<WhatIfScenario> whatIfScenario() const { return std::nullopt; }
    // Whether the lesson shows the button at all (it is disabled while there is no scenario).
    virtual bool offersWhatIf() const { return false; }
    QPushButton* whatIfButton() const { return whatIfButton_; }

signals:
    void whatIfRequested(const memviz::WhatIfScenario& scenario);

protected:
    explicit Lesson(QWidget* parent = nullptr);
    // Call at the end of the subclass constructor: builds the title and draws once.
    void finishSetup();
    void setIntro(const QString& html);
    // A new row of inputs under the explanation.
    QHBoxLayout* addControlRow();
    // Plots fill the lower left, tables stack on the lower right.
    QCustomPlot* addPlot(const QString& exportName);
    QTableView* addTable(QAbstractItemModel* model, const QString& exportName);
    QSplitter* body() const { return body_; }
    QBoxLayout* pageLayout() const { return layout_; }
    virtual void refresh() = 0;
    // Sizes the tables to their contents (call at the end of refresh()): the table column widens
    // to show every column whole as far as the plots can spare (beyond that it scrolls), and
    // sentences in the columns given to wrapText() wrap instead of being cut.
    void fitTables();
    // `columns` of `table` hold sentences: they share the width left by the other columns and
    // wrap, and the rows grow to fit them.
    void wrapText(QTableView* table, const QList<int>& columns);

    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyFonts();

    LessonStyle style_;
    QBoxLayout* layout_;
    QLabel* title_;
    QPushButton* whatIfButton_;
    QLabel* intro_;
    QBoxLayout* controls_;
    QLabel* result_;
    QSplitter* body_;
    QSplitter* tableColumn_ = nullptr; // tables stack on the right of the plots
    QList<QCustomPlot*> plots_;
    QList<QTableView*> tables_;
    QHash<QTableView*, QList<int>> wrapped_; // the sentence columns of each table
    bool fitQueued_ = false;
};

// Sets a read-only cell: `text` shown, `raw` exported to CSV (bytes as an integer).
void setCell(QStandardItemModel* model, int row, int column, const QString& text, const QVariant& raw = {});

} // namespace memviz
