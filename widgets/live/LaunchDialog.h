// SPDX-License-Identifier: MIT
#pragma once
// "Launch and Record…": a command line (split like a shell would, without running one:
// splitCommandLine), the folder it runs in, and the recording options. The last command is
// offered, selected; the recording is named after the program (live/RecordingName).
#include <QDialog>
#include <QStringList>

class QCheckBox;
class QLineEdit;

namespace memviz {

class RecordingOptionsWidget;

class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchDialog(QWidget* parent = nullptr);

    // Program and arguments; empty when the line is empty or has an unterminated quote.
    QStringList command() const;
    QString workingDirectory() const;
    QLineEdit* commandEdit() const { return command_; }
    RecordingOptionsWidget* options() const { return options_; }
    // Record native allocations through heaptrack (enabled only when it is installed).
    bool nativeChosen() const;
    QCheckBox* nativeBox() const { return native_; }

private:
    void suggestStorePath();

    QLineEdit* command_;
    QLineEdit* directory_;
    RecordingOptionsWidget* options_;
    QCheckBox* native_;
    QString suggestedStore_; // the store path last suggested (replaced only while unchanged)
};

} // namespace memviz
