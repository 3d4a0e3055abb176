// SPDX-License-Identifier: MIT
#pragma once
// The memory limit to check against: this machine's RAM (/proc/meminfo), a GPU size, or a
// typed size ("24GiB", "80GB", bytes).
#include <QWidget>
#include <cstdint>
#include <optional>

class QComboBox;
class QLineEdit;

namespace memviz {

class MemoryLimitPicker : public QWidget {
    Q_OBJECT
public:
    explicit MemoryLimitPicker(QWidget* parent = nullptr);

    std::optional<std::int64_t> limit() const { return limit_; }
    QString limitName() const;
    // Selects the typed entry with this text ("16GiB"); false if it does not parse.
    bool setTypedLimit(const QString& text);
    void selectIndex(int index);
    QComboBox* combo() const { return combo_; }

signals:
    void limitChanged();

private:
    void update();

    QComboBox* combo_;
    QLineEdit* typed_;
    std::optional<std::int64_t> limit_;
};

} // namespace memviz
