// SPDX-License-Identifier: MIT
#include "widgets/learn/OomDecoderPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>
#include <map>

#include "costmodel/OptionNames.h"
#include "costmodel/Presets.h"
#include "words/CostModelLabels.h"

namespace memviz {

QStringList OomDecoderPage::exampleMessages() {
    return {
        QStringLiteral("RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not "
                       "enough memory: you tried to allocate 717574400 bytes."),
        QStringLiteral("RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate "
                       "memory: you tried to allocate 78643200000 bytes. Error code 12 (Cannot allocate memory)"),
        QStringLiteral("RuntimeError: $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM! at "
                       "/pytorch/aten/src/TH/THGeneral.cpp:201"),
        QStringLiteral("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total capacity; 9.78 "
                       "GiB already allocated; 17.69 MiB free; 9.83 GiB reserved in total by PyTorch)"),
        QStringLiteral("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity "
                       "of 79.15 GiB of which 16.81 MiB is free. Including non-PyTorch memory, this process has 79.12 GiB "
                       "memory in use. Of the allocated memory 77.51 GiB is allocated by PyTorch, and 1.07 GiB is reserved "
                       "by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
                       "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
                       "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)"),
        QStringLiteral("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 19.68 GiB. GPU 0 has a total capacity "
                       "of 23.68 GiB of which 11.88 GiB is free. Including non-PyTorch memory, this process has 11.79 GiB "
                       "memory in use. Of the allocated memory 11.44 GiB is allocated by PyTorch, and 43.59 MiB is reserved "
                       "by PyTorch but unallocated."),
        QStringLiteral("RuntimeError: MPS backend out of memory (MPS allocated: 18.09 GB, other allocations: 384.00 KB, max "
                       "allowed: 18.13 GB). Tried to allocate 50.00 MB on private pool. Use "
                       "PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory allocations (may cause system "
                       "failure)."),
        QStringLiteral("RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some "
                       "other API call, so the stacktrace below might be incorrect."),
    };
}

OomDecoderPage::OomDecoderPage(QWidget* parent)
    : Lesson(parent), input_(new QPlainTextEdit(this)), examples_(new QComboBox(this)), answer_(new QTextBrowser(this)),
      facts_(new QStandardItemModel(this)), model_(new QComboBox(this)), batch_(new QSpinBox(this)), dtype_(new QComboBox(this)),
      optimizer_(new QComboBox(this)), amp_(new QCheckBox(tr("AMP"), this)) {
    setIntro(tr("Paste a PyTorch out-of-memory message, or the end of the traceback. The decoder reads the numbers, "
                "converts them to both unit systems, shows tensors of the requested size and how much memory was "
                "missing, and ranks what would fix it."));
    QHBoxLayout* row = addControlRow();
    row->addWidget(new QLabel(tr("Examples:"), this));
    examples_->addItem(tr("Pick a real message…"));
    const QStringList labels = {tr("CPU, Windows: not enough memory"),
                                tr("CPU, Linux: can't allocate memory"),
                                tr("CPU, PyTorch 0.4: Buy new RAM!"),
                                tr("CUDA, PyTorch 1.x: (GPU 0; …)"),
                                tr("CUDA, PyTorch 2.x: fragmentation"),
                                tr("CUDA, PyTorch 2.x: larger than free"),
                                tr("Apple MPS"),
                                tr("CUDA error without numbers")};
    for (const QString& l : labels) examples_->addItem(l);
    row->addWidget(examples_, 1);
    row->addStretch(1);
    // The training setup whose fixes the cost model ranks.
    QHBoxLayout* setup = addControlRow();
    setup->addWidget(new QLabel(tr("Rank the fixes for:"), this));
    model_->addItem(tr("no model (general advice only)"), QString());
    for (const costmodel::PresetInfo& p : costmodel::presets()) {
        model_->addItem(QString::fromStdString(p.title), QString::fromStdString(p.id));
        model_->setItemData(model_->count() - 1, presetDescription(p.description), Qt::ToolTipRole);
    }
    setup->addWidget(model_);
    setup->addWidget(new QLabel(tr("Batch:"), this));
    batch_->setRange(1, 1 << 20);
    batch_->setValue(32);
    setup->addWidget(batch_);
    for (costmodel::DType d : {costmodel::DType::F32, costmodel::DType::BF16, costmodel::DType::F16})
        dtype_->addItem(dtypeLabel(d), QString::fromLatin1(costmodel::dtypeName(d)));
    setup->addWidget(dtype_);
    setup->addWidget(amp_);
    for (const char* o : {"adam", "adamw", "sgd", "momentum", "adagrad", "rmsprop", "lbfgs"})
        optimizer_->addItem(optimizerLabel(costmodel::parseOptimizer(o)), QString::fromLatin1(o));
    setup->addWidget(optimizer_);
    setup->addStretch(1);
    for (QWidget* w : std::initializer_list<QWidget*>{batch_, dtype_, amp_, optimizer_}) w->setEnabled(false);
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        for (QWidget* w : std::initializer_list<QWidget*>{batch_, dtype_, amp_, optimizer_})
            w->setEnabled(!model_->currentData().toString().isEmpty());
        refresh();
    });
    connect(batch_, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(dtype_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(optimizer_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(amp_, &QCheckBox::toggled, this, [this] { refresh(); });

    input_->setPlaceholderText(tr("Paste the message here…"));
    input_->setMaximumHeight(input_->fontMetrics().lineSpacing() * 5 + 12);
    pageLayout()->insertWidget(pageLayout()->indexOf(resultLabel()), input_);
    resultLabel()->hide();

    answer_->setOpenLinks(false);
    body()->addWidget(answer_);
    wrapText(addTable(facts_, QStringLiteral("oom-facts")), {1}); // a value can be a phrase ("between … and …")
    body()->setStretchFactor(0, 3);
    body()->setStretchFactor(1, 2);

    connect(examples_, &QComboBox::activated, this, [this](int i) {
        const QStringList all = exampleMessages();
        if (i >= 1 && i <= all.size()) input_->setPlainText(all[i - 1]);
    });
    connect(input_, &QPlainTextEdit::textChanged, this, [this] { refresh(); });
    connect(answer_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("lesson")) emit lessonRequested(url.path());
    });
    input_->setPlainText(exampleMessages().at(4));
    finishSetup();
}

void OomDecoderPage::setMessage(const QString& text) { input_->setPlainText(text); }

bool OomDecoderPage::selectModel(const QString& presetId) {
    const int i = model_->findData(presetId);
    if (i < 0) return false;
    model_->setCurrentIndex(i);
    return true;
}

namespace {

const costmodel::ResolvedModel& resolvedPreset(const std::string& id) {
    static std::map<std::string, costmodel::ResolvedModel> cache;
    auto it = cache.find(id);
    if (it == cache.end()) it = cache.emplace(id, costmodel::resolveModel(costmodel::presetSpec(id))).first;
    return it->second;
}

} // namespace

void OomDecoderPage::refresh() {
    report_ = OomReportBuilder::build(input_->toPlainText());
    const QString preset = model_->currentData().toString();
    if (report_.message.recognized() && !preset.isEmpty()) {
        costmodel::EstimateOptions o;
        o.batch = batch_->value();
        o.dtype = costmodel::parseDType(dtype_->currentData().toString().toStdString());
        o.amp = amp_->isChecked() && o.dtype == costmodel::DType::F32;
        o.optimizer = costmodel::parseOptimizer(optimizer_->currentData().toString().toStdString());
        o.device = OomReportBuilder::deviceOf(report_);
        try {
            OomReportBuilder::addModelFixes(report_, model_->currentText(), resolvedPreset(preset.toStdString()), o);
        } catch (const std::exception& e) {
            report_.explanation << tr("The cost model cannot rank fixes for this setup: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    answer_->setHtml(OomReportBuilder::html(report_, false));
    facts_->clear();
    facts_->setHorizontalHeaderLabels({tr("quantity"), tr("value"), tr("bytes")});
    int row = 0;
    for (const OomFact& f : report_.facts) {
        setCell(facts_, row, 0, f.label, f.label);
        setCell(facts_, row, 1, f.value, f.value);
        ++row;
    }
    // The raw byte counts beside the facts that have one, for the CSV.
    const auto& m = report_.message;
    const auto rawFor = [&](const QString& label) -> QVariant {
        const auto pick = [](const std::optional<workshop::PrintedSize>& s) {
            return s ? QVariant(qint64(s->bytes)) : QVariant();
        };
        if (label == OomReportBuilder::tr("Requested")) return pick(m.request);
        if (label == OomReportBuilder::tr("Total capacity")) return pick(m.total);
        if (label == OomReportBuilder::tr("Free on the device")) return pick(m.free);
        if (label == OomReportBuilder::tr("Allocated by PyTorch")) return pick(m.allocated);
        if (label == OomReportBuilder::tr("Reserved by PyTorch")) return pick(m.reserved);
        if (label == OomReportBuilder::tr("Reserved but unallocated")) return pick(m.reservedUnallocated);
        if (label == OomReportBuilder::tr("Missing for this allocation") && report_.diagnosis.shortfallBytes)
            return qint64(*report_.diagnosis.shortfallBytes);
        if (label == OomReportBuilder::tr("Capacity that would have fit it") && report_.diagnosis.capacityNeeded)
            return qint64(*report_.diagnosis.capacityNeeded);
        return {};
    };
    for (int r = 0; r < facts_->rowCount(); ++r) {
        const QVariant raw = rawFor(facts_->item(r, 0)->text());
        setCell(facts_, r, 2, raw.isValid() ? raw.toString() : QString(), raw.isValid() ? raw : QVariant(QString()));
    }
    fitTables();
}

} // namespace memviz
