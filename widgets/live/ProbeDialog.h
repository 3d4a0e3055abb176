// SPDX-License-Identifier: MIT
#pragma once
// "Wait for Probe…": where memviz listens, the command that runs a script under the probe
// (copyable), and where the recording goes.
#include <QDialog>

class QLabel;
class QLineEdit;

namespace memviz {

class RecordingOptionsWidget;

class ProbeDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProbeDialog(QWidget* parent = nullptr);

    QString address() const;
    RecordingOptionsWidget* options() const { return options_; }
    QLineEdit* addressEdit() const { return address_; }
    // What the user runs: PYTHONPATH=... python3 -m memviz_probe --connect ADDRESS script.py
    QString commandHint() const;
    // The folder holding the memviz_probe package: beside the installed app, or the source tree of a build.
    static QString probeDirectory();

private:
    void updateHint();

    QLineEdit* address_;
    QLabel* hint_;
    RecordingOptionsWidget* options_;
};

} // namespace memviz
