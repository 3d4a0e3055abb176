// SPDX-License-Identifier: MIT
#include "widgets/live/RecordingOptionsWidget.h"

#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>

#include "formats/live/RecordingName.h"

namespace memviz {

QString RecordingOptionsWidget::defaultStorePath(const QString& name) {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recordings";
    // Never a name that starts with '-' (a command line would take it for an option).
    const QString safe = QString::fromStdString(fileNameStem(name.toStdString()));
    return dir + "/" + safe + "-" + QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss") + ".memviz";
}

RecordingOptionsWidget::RecordingOptionsWidget(bool sampling, const QString& suggestedName, QWidget* parent)
    : QWidget(parent), store_(new QLineEdit(defaultStorePath(suggestedName), this)) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    if (sampling) {
        interval_ = new QSpinBox(this);
        interval_->setRange(10, 60000);
        interval_->setSuffix(tr(" ms"));
        interval_->setValue(QSettings().value("live/intervalMs", 100).toInt());
        interval_->setToolTip(tr("How often /proc is read (10 ms at the shortest)."));
        form->addRow(tr("Sample &every:"), interval_);
        children_ = new QCheckBox(tr("Sum the memory of child processes in"), this);
        children_->setToolTip(tr("Descendants are looked up every 500 ms; their RSS is added (shared pages count "
                                 "once per process; PSS counts them fairly)."));
        form->addRow(QString(), children_);
    }
    auto* row = new QHBoxLayout;
    row->addWidget(store_, 1);
    auto* browse = new QPushButton(tr("Browse…"), this);
    row->addWidget(browse);
    // QFormLayout gives a label a buddy only when its field is a widget: this one is a layout.
    auto* saveTo = new QLabel(tr("&Save to:"), this);
    saveTo->setBuddy(store_);
    form->addRow(saveTo, row);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save recording"), store_->text(),
                                                          tr("memviz store (*.memviz)"), nullptr,
                                                          QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) store_->setText(path.endsWith(".memviz") ? path : path + ".memviz");
    });
}

QString RecordingOptionsWidget::storePath() const { return store_->text().trimmed(); }

void RecordingOptionsWidget::remember() const {
    if (interval_) QSettings().setValue("live/intervalMs", interval_->value());
}

void RecordingOptionsWidget::setStorePath(const QString& path) { store_->setText(path); }
int RecordingOptionsWidget::intervalMs() const { return interval_ ? interval_->value() : 0; }
bool RecordingOptionsWidget::children() const { return children_ && children_->isChecked(); }

} // namespace memviz
