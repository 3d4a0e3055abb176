// SPDX-License-Identifier: MIT
#include "widgets/live/ProbeDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "formats/live/ProbeInjector.h"
#include "formats/live/ProbeSocket.h"
#include "widgets/live/RecordingOptionsWidget.h"

namespace memviz {

QString ProbeDialog::probeDirectory() {
    return QString::fromStdString(
        findProbeDirectory(QCoreApplication::applicationDirPath().toStdString(), MEMVIZ_PROBE_SOURCE_DIR));
}

ProbeDialog::ProbeDialog(QWidget* parent)
    : QDialog(parent), address_(new QLineEdit(QString::fromStdString(defaultProbeAddress().text()), this)),
      hint_(new QLabel(this)), options_(new RecordingOptionsWidget(false, "probe", this)) {
    setWindowTitle(tr("Wait for Probe"));
    resize(760, 300);
    auto* form = new QFormLayout;
    form->addRow(tr("&Listen on:"), address_);
    address_->setToolTip(tr("unix:PATH (private to you) or 127.0.0.1:PORT"));
    hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_->setWordWrap(true);
    hint_->setStyleSheet("QLabel { font-family: monospace; background: palette(base); padding: 6px; }");
    auto* copy = new QPushButton(tr("&Copy Command"), this);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(commandHint()); });
    connect(address_, &QLineEdit::textChanged, this, &ProbeDialog::updateHint);
    auto* explain = new QLabel(tr("Run your script under the probe (PyTorch 1.13 or newer). Operators, phases and "
                                  "steps stream in as it runs; add --mode module for lower overhead."),
                               this);
    explain->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Wait for Probe"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(explain);
    layout->addWidget(hint_);
    layout->addWidget(copy, 0, Qt::AlignLeft);
    layout->addWidget(options_);
    layout->addStretch(1);
    layout->addWidget(buttons);
    updateHint();
}

QString ProbeDialog::address() const { return address_->text().trimmed(); }

QString ProbeDialog::commandHint() const {
    const QString dir = probeDirectory();
    const QString path = dir.isEmpty() ? QString() : QStringLiteral("PYTHONPATH=%1 ").arg(dir);
    return QStringLiteral("%1python3 -m memviz_probe --connect %2 your_script.py").arg(path, address());
}

void ProbeDialog::updateHint() { hint_->setText(commandHint()); }

} // namespace memviz
