#pragma once
// "Launch and Record…": a command line (split like a shell would, without running one), the
// folder it runs in, and the recording options.
#include <QDialog>
#include <QStringList>

class QLineEdit;

namespace memviz {

class RecordingOptionsWidget;

class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    explicit LaunchDialog(QWidget* parent = nullptr);

    // Program and arguments; empty when the line is empty.
    QStringList command() const;
    QString workingDirectory() const;
    QLineEdit* commandEdit() const { return command_; }
    RecordingOptionsWidget* options() const { return options_; }

private:
    QLineEdit* command_;
    QLineEdit* directory_;
    RecordingOptionsWidget* options_;
};

} // namespace memviz
