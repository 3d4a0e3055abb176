// SPDX-License-Identifier: MIT
#pragma once
// The options every recording dialog asks for: where to save it, and for /proc sampling the
// interval and whether to sum the children in.
#include <QWidget>

class QCheckBox;
class QLineEdit;
class QSpinBox;

namespace memviz {

class RecordingOptionsWidget : public QWidget {
    Q_OBJECT
public:
    // `sampling`: show the interval and children options (not for the probe stream).
    RecordingOptionsWidget(bool sampling, const QString& suggestedName, QWidget* parent = nullptr);

    QString storePath() const;
    // Keeps the interval for the next dialog.
    void remember() const;
    void setStorePath(const QString& path);
    int intervalMs() const;
    bool children() const;
    QSpinBox* intervalBox() const { return interval_; }
    QCheckBox* childrenBox() const { return children_; }
    QLineEdit* storeEdit() const { return store_; }

    // ~/.local/share/memviz/recordings/NAME-yyyyMMdd-HHmmss.memviz
    static QString defaultStorePath(const QString& name);

private:
    QLineEdit* store_;
    QSpinBox* interval_ = nullptr;
    QCheckBox* children_ = nullptr;
};

} // namespace memviz
