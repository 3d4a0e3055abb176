// SPDX-License-Identifier: MIT
#pragma once
// The OOM decoder in the Learn mode: paste a PyTorch out-of-memory message (or pick a real
// example) and read what it means: the numbers in a table, the explanation, tensors of that
// size and the fixes, each linked to its lesson.
#include "widgets/learn/Lesson.h"
#include "words/OomReport.h"

class QCheckBox;
class QComboBox;
class QPlainTextEdit;
class QSpinBox;
class QStandardItemModel;
class QTextBrowser;

namespace memviz {

class OomDecoderPage : public Lesson {
    Q_OBJECT
public:
    explicit OomDecoderPage(QWidget* parent = nullptr);
    QString id() const override { return QStringLiteral("oom-decoder"); }
    QString title() const override { return tr("OOM decoder: what an out-of-memory message says"); }
    QString shortTitle() const override { return tr("OOM decoder"); }

    void setMessage(const QString& text);
    // The model whose fixes are ranked ("" = none: only the fixes that need no model).
    bool selectModel(const QString& presetId);
    QComboBox* modelCombo() const { return model_; }
    QSpinBox* batchSpin() const { return batch_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QComboBox* optimizerCombo() const { return optimizer_; }
    QCheckBox* ampCheck() const { return amp_; }
    QPlainTextEdit* input() const { return input_; }
    QTextBrowser* answer() const { return answer_; }
    QStandardItemModel* factsModel() const { return facts_; }
    const OomReport& report() const { return report_; }
    // Real messages of every form, for the examples list and the tests.
    static QStringList exampleMessages();

signals:
    void lessonRequested(const QString& id);

protected:
    void refresh() override;

private:
    QPlainTextEdit* input_;
    QComboBox* examples_;
    QTextBrowser* answer_;
    QStandardItemModel* facts_;
    QComboBox* model_;
    QSpinBox* batch_;
    QComboBox* dtype_;
    QComboBox* optimizer_;
    QCheckBox* amp_;
    OomReport report_;
};

} // namespace memviz
