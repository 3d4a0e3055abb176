// SPDX-License-Identifier: MIT
#include "widgets/whatif/MemoryLimitPicker.h"

#include <QComboBox>
#include <QLineEdit>
#include <QVBoxLayout>
#include <stdexcept>

#include "core/SystemMemory.h"
#include "words/Units.h"
#include "costmodel/OptionNames.h"

namespace memviz {

namespace {
constexpr std::int64_t GiB = std::int64_t{1} << 30;
struct GpuPreset {
    const char* name;
    std::int64_t bytes;
};
// Usable memory as the drivers report it, rounded to whole GiB.
const GpuPreset kGpus[] = {{"8 GiB GPU (RTX 3070, 4060)", 8 * GiB},    {"12 GiB GPU (RTX 3060, 4070)", 12 * GiB},
                           {"16 GiB GPU (T4, V100 16GB)", 16 * GiB},   {"24 GiB GPU (RTX 3090, 4090, A10)", 24 * GiB},
                           {"40 GiB GPU (A100 40GB)", 40 * GiB},       {"48 GiB GPU (A6000, L40S)", 48 * GiB},
                           {"80 GiB GPU (A100 80GB, H100)", 80 * GiB}, {"141 GiB GPU (H200)", 141 * GiB}};
} // namespace

MemoryLimitPicker::MemoryLimitPicker(QWidget* parent)
    : QWidget(parent), combo_(new QComboBox(this)), typed_(new QLineEdit(this)) {
    // One above the other: side by side in the knobs column, the combo's text was cut
    // ("This machine: 23.54 Gi"). The size field shows only for "Typed size".
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(combo_);
    layout->addWidget(typed_);
    combo_->setObjectName("limitCombo");
    typed_->setObjectName("limitTyped");
    typed_->setPlaceholderText(tr("e.g. 24GiB"));

    if (const auto ram = totalPhysicalMemory())
        combo_->addItem(tr("This machine: %1 RAM").arg(QString::fromStdString(formatBytes(static_cast<double>(*ram)))),
                        QVariant::fromValue<qint64>(*ram));
    for (const GpuPreset& g : kGpus) combo_->addItem(tr(g.name), QVariant::fromValue<qint64>(g.bytes));
    combo_->addItem(tr("Typed size"), QVariant());
    combo_->addItem(tr("No limit"), QVariant::fromValue<qint64>(-1));
    connect(combo_, &QComboBox::currentIndexChanged, this, [this] { update(); });
    connect(typed_, &QLineEdit::textChanged, this, [this] {
        if (combo_->currentData().isNull()) update();
    });
    update();
}

QString MemoryLimitPicker::limitName() const {
    if (!limit_) return tr("no limit");
    return QString::fromStdString(formatBytes(static_cast<double>(*limit_)));
}

bool MemoryLimitPicker::setTypedLimit(const QString& text) {
    combo_->setCurrentIndex(combo_->findText(tr("Typed size")));
    typed_->setText(text);
    return limit_.has_value();
}

void MemoryLimitPicker::selectIndex(int index) { combo_->setCurrentIndex(index); }

void MemoryLimitPicker::update() {
    const QVariant choice = combo_->currentData();
    const bool typed = choice.isNull();
    typed_->setEnabled(typed);
    typed_->setVisible(typed);
    std::optional<std::int64_t> next;
    if (typed) {
        try {
            next = parseByteSize(typed_->text().trimmed().toStdString());
            typed_->setStyleSheet({});
        } catch (const std::invalid_argument&) {
            typed_->setStyleSheet(typed_->text().isEmpty() ? QString() : QStringLiteral("color: #b00"));
        }
    } else if (choice.toLongLong() > 0) {
        next = choice.toLongLong();
    }
    if (next == limit_) return;
    limit_ = next;
    emit limitChanged();
}

} // namespace memviz
