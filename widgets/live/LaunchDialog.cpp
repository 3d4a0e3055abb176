// SPDX-License-Identifier: MIT
#include "widgets/live/LaunchDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "formats/live/HeaptrackSession.h"
#include "formats/live/Launcher.h"
#include "formats/live/RecordingName.h"
#include "widgets/live/RecordingOptionsWidget.h"

namespace memviz {

bool LaunchDialog::nativeChosen() const { return native_->isEnabled() && native_->isChecked(); }

LaunchDialog::LaunchDialog(QWidget* parent)
    : QDialog(parent), command_(new QLineEdit(QSettings().value("live/lastCommand").toString(), this)),
      directory_(new QLineEdit(QSettings().value("live/lastDirectory", QDir::currentPath()).toString(), this)),
      options_(new RecordingOptionsWidget(true, "launch", this)),
      native_(new QCheckBox(tr("Also record &native allocation sites through heaptrack"), this)),
      suggestedStore_(options_->storePath()) {
    const HeaptrackTools heaptrack = findHeaptrack();
    native_->setEnabled(heaptrack.found);
    native_->setToolTip(heaptrack.found ? tr("The program runs under heaptrack: heap consumed, allocation rate and the top "
                                             "allocation sites live beside RSS, and heaptrack's complete recording is "
                                             "imported when it ends (Stop ends the program)")
                                        : QString::fromStdString(heaptrack.problem));
    setWindowTitle(tr("Launch and Record"));
    resize(720, 260);
    command_->setPlaceholderText(tr("e.g. python3 train.py --epochs 1"));
    auto* form = new QFormLayout;
    form->addRow(tr("&Command:"), command_);
    auto* dirRow = new QHBoxLayout;
    dirRow->addWidget(directory_, 1);
    auto* browse = new QPushButton(tr("Browse…"), this);
    dirRow->addWidget(browse);
    // A row whose field is a layout gets no buddy from QFormLayout: name it, so that the
    // label's mnemonic (Alt+R) works and its '&' is not shown.
    auto* runIn = new QLabel(tr("&Run in:"), this);
    runIn->setBuddy(directory_);
    form->addRow(runIn, dirRow);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Run in"), directory_->text());
        if (!dir.isEmpty()) directory_->setText(dir);
    });
    auto* note = new QLabel(tr("The program is sampled from its first moment until it exits. The line is split "
                               "into words as a shell would ('…' and \"…\" group, \\ escapes), but no shell runs it "
                               "(use sh -c '…' for pipes)."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Launch"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (command().isEmpty()) return;
        QSettings().setValue("live/lastCommand", command_->text());
        QSettings().setValue("live/lastDirectory", directory_->text());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(command_, &QLineEdit::textChanged, this, [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!command().isEmpty());
        suggestStorePath();
    });
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!command().isEmpty());
    suggestStorePath();
    // The last command is offered selected: typing replaces it, End or a click keeps it.
    command_->selectAll();
    command_->setFocus();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(options_);
    layout->addWidget(native_);
    if (!heaptrack.found) {
        auto* why = new QLabel(tr("Native allocations unavailable: %1.").arg(QString::fromStdString(heaptrack.problem)), this);
        why->setWordWrap(true);
        layout->addWidget(why);
    }
    layout->addWidget(note);
    layout->addStretch(1);
    layout->addWidget(buttons);
}

QStringList LaunchDialog::command() const {
    QStringList out;
    try {
        for (const std::string& word : splitCommandLine(command_->text().toStdString())) out << QString::fromStdString(word);
    } catch (const std::invalid_argument&) {
        return {}; // an unterminated quote: nothing to run yet
    }
    return out;
}

QString LaunchDialog::workingDirectory() const { return directory_->text().trimmed(); }

void LaunchDialog::suggestStorePath() {
    // Named after the program; a path the user chose stays.
    if (options_->storePath() != suggestedStore_) return;
    std::vector<std::string> argv;
    for (const QString& a : command()) argv.push_back(a.toStdString());
    if (argv.empty()) return;
    suggestedStore_ = RecordingOptionsWidget::defaultStorePath(QString::fromStdString(recordingName(argv)));
    options_->setStorePath(suggestedStore_);
}

} // namespace memviz
