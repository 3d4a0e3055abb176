// SPDX-License-Identifier: MIT
#include "widgets/learn/ModelLesson.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "costmodel/Presets.h"
#include "words/CostModelLabels.h"

namespace memviz {

using namespace costmodel;

ModelLesson::ModelLesson(const QString& presetId, int batch, DeviceKind device, QWidget* parent)
    : Lesson(parent), model_(new QComboBox(this)), batch_(new QSpinBox(this)), device_(new QComboBox(this)) {
    row_ = addControlRow();
    row_->addWidget(new QLabel(tr("Model:"), this));
    for (const PresetInfo& p : presets()) {
        model_->addItem(QString::fromStdString(p.title), QString::fromStdString(p.id));
        model_->setItemData(model_->count() - 1, presetDescription(p.description), Qt::ToolTipRole);
    }
    row_->addWidget(model_);
    row_->addWidget(new QLabel(tr("Batch:"), this));
    batch_->setRange(1, 1 << 20);
    batch_->setValue(batch);
    row_->addWidget(batch_);
    row_->addWidget(new QLabel(tr("Device:"), this));
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
    device_->setCurrentIndex(device == DeviceKind::Cuda ? 1 : 0);
    row_->addWidget(device_);
    row_->addStretch(1);
    selectModel(presetId);
    modelChanged();
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        modelChanged();
        refresh();
    });
    connect(batch_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(device_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
}

bool ModelLesson::selectModel(const QString& presetId) {
    const int i = model_->findData(presetId);
    if (i < 0) return false;
    model_->setCurrentIndex(i);
    return true;
}

void ModelLesson::addToModelRow(QWidget* widget) { row_->insertWidget(row_->count() - 1, widget); }

QString ModelLesson::presetId() const { return model_->currentData().toString(); }

void ModelLesson::modelChanged() { resolved_ = resolveModel(presetSpec(presetId().toStdString())); }

QString ModelLesson::modelTitle() const { return model_->currentText(); }

EstimateOptions ModelLesson::baseOptions() const {
    EstimateOptions o;
    o.batch = batch_->value();
    o.device = device_->currentData().toString() == QLatin1String("cuda") ? DeviceKind::Cuda : DeviceKind::Cpu;
    o.timeline = false;
    return o;
}

std::optional<WhatIfScenario> ModelLesson::whatIfScenario() const { return WhatIfScenario{presetId(), scenarioOptions()}; }

bool ModelLesson::showError(const std::exception& e) {
    resultLabel()->setText(tr("The cost model cannot compute this: %1").arg(QString::fromUtf8(e.what())));
    return true;
}

} // namespace memviz
