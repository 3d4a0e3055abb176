// SPDX-License-Identifier: MIT
#include "widgets/EmptyPage.h"

#include <QAction>
#include <QCommandLinkButton>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace memviz {

namespace {
constexpr int kRecentShown = 6;
constexpr int kPageMaxWidth = 900;
} // namespace

EmptyPage::EmptyPage(QWidget* parent)
    : QWidget(parent), notice_(new QLabel(this)), recent_(new QVBoxLayout), record_(new QVBoxLayout) {
    auto* title = new QLabel(tr("<h2>No trace open</h2>"
                                "<p>Open a trace or a memviz store, or drop a file anywhere on this window: a PyTorch "
                                "profiler trace, a CUDA memory snapshot, a memory-timeline export, heaptrack, "
                                "Valgrind massif, or an allocation log.</p>"),
                             this);
    title->setWordWrap(true);
    notice_->setWordWrap(true);
    notice_->setStyleSheet(QStringLiteral("color: #a01010;"));
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    notice_->hide();

    auto* open = new QCommandLinkButton(tr("Open a File…"), tr("A trace or a .memviz store (Ctrl+O)"), this);
    auto* sample = new QCommandLinkButton(tr("Open the Sample"), tr("A small training step, bundled with memviz"), this);
    auto* learn = new QCommandLinkButton(
        tr("Learn"), tr("Lessons on tensor sizes, batch size, optimizers, checkpointing; the OOM decoder (Ctrl+L)"), this);
    connect(open, &QAbstractButton::clicked, this, &EmptyPage::openRequested);
    connect(sample, &QAbstractButton::clicked, this, &EmptyPage::sampleRequested);
    connect(learn, &QAbstractButton::clicked, this, &EmptyPage::learnRequested);

    auto* start = new QVBoxLayout;
    start->addWidget(open);
    start->addWidget(sample);
    start->addWidget(learn);
    start->addStretch(1);
    auto* recentBox = new QGroupBox(tr("Recent files"), this);
    recentBox->setLayout(recent_);
    auto* recordBox = new QGroupBox(tr("Record"), this);
    recordBox->setLayout(record_);
    auto* right = new QVBoxLayout;
    right->addWidget(recentBox);
    right->addWidget(recordBox);
    right->addStretch(1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(start, 1);
    columns->addLayout(right, 1);

    auto* page = new QWidget(this);
    page->setMaximumWidth(kPageMaxWidth);
    auto* inner = new QVBoxLayout(page);
    inner->addWidget(title);
    inner->addWidget(notice_);
    inner->addLayout(columns);
    inner->addStretch(1);
    auto* outer = new QHBoxLayout(this);
    outer->addStretch(1);
    outer->addWidget(page, 4);
    outer->addStretch(1);
    setRecentFiles({});
}

void EmptyPage::setRecentFiles(const QStringList& files) {
    while (QLayoutItem* item = recent_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const QString& f : files.mid(0, kRecentShown)) {
        auto* button = new QPushButton(QFileInfo(f).fileName(), this);
        button->setToolTip(f);
        button->setFlat(true);
        button->setStyleSheet(QStringLiteral("text-align: left;"));
        connect(button, &QPushButton::clicked, this, [this, f] { emit recentRequested(f); });
        recent_->addWidget(button);
    }
    if (files.isEmpty()) recent_->addWidget(new QLabel(tr("None yet."), this));
}

void EmptyPage::setRecordActions(const QList<QAction*>& actions) {
    while (QLayoutItem* item = record_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (QAction* a : actions) {
        if (a->isSeparator() || a->menu()) continue;
        auto* button = new QToolButton(this);
        button->setDefaultAction(a);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(true);
        record_->addWidget(button);
    }
}

void EmptyPage::setNotice(const QString& text) {
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

} // namespace memviz
