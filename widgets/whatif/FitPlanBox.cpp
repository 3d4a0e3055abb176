// SPDX-License-Identifier: MIT
#include "widgets/whatif/FitPlanBox.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>

#include "costmodel/OptionNames.h"
#include "widgets/BackgroundQuery.h"
#include "words/UnitTexts.h"

namespace memviz {

using namespace costmodel;

FitPlanBox::FitPlanBox(QWidget* parent)
    : QGroupBox(tr("Will it fit on GPUs (Hugging Face config)"), parent), catalog_(GpuCatalog::builtin()),
      query_(new BackgroundQuery(this)) {
    setObjectName("fitPlanBox");
    // The user's catalog, as the command line reads it (docs/costmodel.md, "GPU catalog").
    const QString user = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + "/memviz/gpus.json";
    try {
        if (QFileInfo::exists(user)) catalog_.mergeFile(user.toStdString());
    } catch (const GpuCatalogError&) {
        // a broken user file leaves the built-in catalog; the command line reports it
    }
    query_->setErrorHandler([this](const QString& message) {
        error_ = message;
        result_->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(message.toHtmlEscaped()));
        fixes_->clear();
        emit answered();
    });
    auto* form = new QFormLayout(this);
    open_ = new QPushButton(tr("Open config.json…"), this);
    open_->setObjectName("openConfigButton");
    modelLabel_ = new QLabel(tr("no config"), this);
    modelLabel_->setWordWrap(true);
    form->addRow(tr("Model"), open_);
    form->addRow(modelLabel_);
    const auto spin = [this](int lo, int hi, int value, const char* name) {
        auto* s = new QSpinBox(this);
        s->setRange(lo, hi);
        s->setValue(value);
        s->setObjectName(name);
        connect(s, &QSpinBox::valueChanged, this, [this] { recompute(); });
        return s;
    };
    const auto combo = [this](const std::vector<std::string>& words, const char* name) {
        auto* c = new QComboBox(this);
        for (const std::string& w : words) c->addItem(QString::fromStdString(w), QString::fromStdString(w));
        c->setObjectName(name);
        connect(c, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
        return c;
    };
    mode_ = new QComboBox(this);
    mode_->setObjectName("fitMode");
    mode_->addItem(tr("Training step"), QStringLiteral("train"));
    mode_->addItem(tr("Inference (KV cache)"), QStringLiteral("inference"));
    mode_->setToolTip(tr("Inference: the context is what the KV cache holds (the prompt and one generated token, paged in blocks of %1 tokens), the "
                         "micro-batch the sequences served at once, the GPUs split the model by tensor parallelism, and the "
                         "dtype follows the checkpoint's torch_dtype")
                          .arg(kServedKvBlockTokens));
    connect(mode_, &QComboBox::currentIndexChanged, this, [this] { modeChanged(); });
    form->addRow(tr("Job"), mode_);
    seq_ = spin(1, 1 << 20, 2048, "fitSeq");
    form->addRow(tr("Sequence length"), seq_);
    batch_ = spin(1, 1 << 20, 1, "fitBatch");
    accum_ = spin(1, 1 << 16, 1, "fitAccum");
    auto* batchRow = new QHBoxLayout;
    batchRow->addWidget(batch_);
    batchRow->addWidget(new QLabel(tr("×"), this));
    batchRow->addWidget(accum_);
    batchRow->addWidget(new QLabel(tr("steps"), this));
    accum_->setToolTip(tr("Gradient accumulation: micro-batches per optimizer step"));
    form->addRow(tr("Micro-batch"), batchRow);
    dtype_ = combo({"fp32", "bf16", "fp16"}, "fitDtype");
    form->addRow(tr("dtype"), dtype_);
    lora_ = spin(0, 4096, 0, "fitLora");
    lora_->setSpecialValueText(tr("off (full fine-tune)"));
    form->addRow(tr("LoRA rank"), lora_);
    attention_ = combo(attentionNames(), "fitAttention");
    form->addRow(tr("Attention"), attention_);
    checkpoint_ = combo({"none", "per-layer", "selective"}, "fitCheckpoint");
    form->addRow(tr("Checkpointing"), checkpoint_);
    gpu_ = new QComboBox(this);
    gpu_->setObjectName("fitGpu");
    for (const GpuInfo& g : catalog_.gpus())
        gpu_->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(g.name), words::bytes(g.memoryBytes)),
                      QString::fromStdString(g.id));
    gpu_->setCurrentIndex(std::max(0, gpu_->findData("a100-80g")));
    // In the narrow column the combo may be narrower than a GPU's name: it shrinks to a minimum
    // instead of widening the column, its popup is as wide as the longest item, and the tooltip
    // says the whole name.
    gpu_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    gpu_->setMinimumContentsLength(12);
    gpu_->view()->setMinimumWidth(gpu_->view()->sizeHintForColumn(0) + 24);
    gpu_->setToolTip(gpu_->currentText());
    connect(gpu_, &QComboBox::currentTextChanged, gpu_, &QComboBox::setToolTip);
    connect(gpu_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
    form->addRow(tr("GPU"), gpu_);
    gpus_ = spin(1, 1024, 1, "fitGpus");
    shard_ = combo(shardNames(), "fitShard");
    auto* shardRow = new QHBoxLayout;
    shardRow->addWidget(gpus_);
    shardRow->addWidget(shard_, 1);
    form->addRow(tr("GPUs, sharing"), shardRow);
    offload_ = spin(0, 0, 0, "fitOffload");
    offload_->setSpecialValueText(tr("none"));
    offload_->setSuffix(tr(" layers"));
    offload_->setToolTip(tr("Inference on one GPU: transformer layers kept on the CPU, as accelerate's device_map=\"auto\" with "
                            "max_memory does; each forward copies them to the GPU one at a time"));
    offload_->setEnabled(false); // training is the first job
    form->addRow(tr("CPU offload"), offload_);
    notes_ = new QLabel(this);
    notes_->setObjectName("fitModelNotes");
    notes_->setWordWrap(true);
    notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(notes_);
    result_ = new QLabel(this);
    result_->setObjectName("fitResult");
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(result_);
    fixes_ = new QLabel(this);
    fixes_->setObjectName("fitFixes");
    fixes_->setWordWrap(true);
    form->addRow(fixes_);
    connect(open_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a Hugging Face config.json"), QString(),
                                                          tr("Model configs (*.json);;All files (*)"));
        if (!path.isEmpty()) openConfig(path);
    });
    recompute();
}

FitPlanBox::~FitPlanBox() = default;

bool FitPlanBox::openConfig(const QString& path) {
    try {
        const HfModel hf = readHfConfigFile(path.toStdString());
        model_ = fitModelFromHf(hf, 16);
        modelLabel_->setText(tr("%1: %2 parameters").arg(QFileInfo(path).fileName(), words::count(hf.parameterCount)));
        modelLabel_->setToolTip(path);
        // The family the config was read as, the dtype's source and what the reader assumed.
        QStringList notes;
        notes << (hf.generic ? tr("Family: %1, read as a generic decoder (no table knows it).")
                             : tr("Family: %1 (its model_type table).")).arg(QString::fromStdString(hf.modelType));
        const QString dtype = QString::fromStdString(hf.torchDtype);
        notes << (dtype.isEmpty() ? tr("Dtype: the config names no torch_dtype; this plan trains in the dtype chosen below.")
                                  : tr("Dtype: the checkpoint is %1 (torch_dtype): inference loads it so (the dtype box follows "
                                       "it when the job is inference); training uses the dtype chosen below (fp32 unless changed).")
                                        .arg(dtype));
        for (const std::string& w : model_->hf->warnings) notes << tr("Note: %1").arg(QString::fromStdString(w));
        updating_ = true;
        offload_->setMaximum(static_cast<int>(std::min<std::int64_t>(offloadableLayers(*model_), 1 << 20)));
        updating_ = false;
        notes_->setText(notes.join('\n'));
        error_.clear();
        modeChanged(); // inference: the checkpoint's dtype; then recomputes
        return true;
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        result_->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(error_.toHtmlEscaped()));
        return false;
    }
}

void FitPlanBox::setSequence(int tokens) { seq_->setValue(tokens); }
void FitPlanBox::setMicroBatch(int batch) { batch_->setValue(batch); }
void FitPlanBox::setGradAccumulation(int steps) { accum_->setValue(steps); }
void FitPlanBox::setDtype(const QString& dtype) { dtype_->setCurrentIndex(std::max(0, dtype_->findData(dtype))); }
void FitPlanBox::setLoraRank(int rank) { lora_->setValue(rank); }
void FitPlanBox::setGpu(const QString& id) { gpu_->setCurrentIndex(std::max(0, gpu_->findData(id))); }
void FitPlanBox::setGpus(int n, const QString& shard) {
    updating_ = true;
    gpus_->setValue(n);
    updating_ = false;
    shard_->setCurrentIndex(std::max(0, shard_->findData(shard)));
    recompute();
}

void FitPlanBox::setOffloadLayers(int layers) { offload_->setValue(layers); }

void FitPlanBox::setInference(bool inference) { mode_->setCurrentIndex(std::max(0, mode_->findData(inference ? "inference" : "train"))); }

bool FitPlanBox::inference() const { return mode_->currentData().toString() == QLatin1String("inference"); }

// The knobs of the other job are disabled, not hidden, so that the form does not jump; inference
// takes the checkpoint's dtype as the command line does (the dtype box still overrides it).
void FitPlanBox::modeChanged() {
    const bool infer = inference();
    for (QWidget* w : std::initializer_list<QWidget*>{accum_, lora_, checkpoint_}) w->setEnabled(!infer);
    offload_->setEnabled(infer);
    if (auto* form = qobject_cast<QFormLayout*>(layout()))
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(seq_)))
            label->setText(infer ? tr("Context (tokens)") : tr("Sequence length"));
    if (infer && model_ && model_->hf)
        if (const std::optional<DType> d = checkpointDType(*model_->hf)) {
            updating_ = true;
            setDtype(QString::fromLatin1(dtypeName(*d)));
            updating_ = false;
        }
    recompute();
}

PlanOptions FitPlanBox::planOptions() const {
    PlanOptions o;
    o.estimate.batch = batch_->value();
    o.estimate.dtype = parseDType(dtype_->currentData().toString().toStdString());
    o.estimate.lora.rank = lora_->value();
    o.estimate.attention = parseAttention(attention_->currentData().toString().toStdString());
    o.estimate.checkpoint = parseCheckpoint(checkpoint_->currentData().toString().toStdString());
    o.estimate.device = DeviceKind::Cuda;
    o.sequence = seq_->value();
    o.gradAccumulation = accum_->value();
    o.devices = gpus_->value();
    o.shard = o.devices > 1 ? parseShard(shard_->currentData().toString().toStdString()) : ShardStrategy::None;
    if (inference()) { // as `memviz estimate --config ... --kv-cache SEQ --tp GPUS` plans it
        o.estimate.training = false;
        // The sequence is the context the cache holds: the prompt and the one token generated.
        o.estimate.kvCacheTokens = o.sequence;
        o.sequence = std::max<std::int64_t>(1, o.sequence - 1);
        o.estimate.kvBlockTokens = kServedKvBlockTokens;
        o.estimate.lora.rank = 0;
        o.estimate.checkpoint = Checkpointing{};
        o.gradAccumulation = 1;
        o.tensorParallel = o.devices;
        o.devices = 1;
        o.shard = ShardStrategy::None;
        o.offloadLayers = offload_->value();
        if (model_ && model_->hf)
            if (const std::optional<WeightFormat> q = simulatedQuantizedWeights(*model_->hf)) o.estimate.weights = *q;
    }
    if (const GpuInfo* g = catalog_.find(gpu_->currentData().toString().toStdString())) {
        o.memoryBytes = g->memoryBytes;
        o.contextBytes = g->contextBytes;
        o.gpu = g->id;
    }
    return o;
}

void FitPlanBox::recompute() {
    if (updating_ || !result_) return;
    shard_->setEnabled(gpus_->value() > 1 && !inference());
    if (!model_) {
        result_->setText(tr("Open a config.json to plan a language model on GPUs."));
        return;
    }
    result_->setText(tr("Computing…"));
    const FitModel model = *model_;
    const PlanOptions o = planOptions();
    const GpuCatalog catalog = catalog_;
    query_->run([this, model, o, catalog](const Progress&) -> BackgroundQuery::Apply {
        auto a = std::make_shared<FitAnswer>(answerFit(model, o, catalog));
        return [this, a] { show(*a); };
    });
}

QString FitPlanBox::resultText() const { return result_->text(); }
QString FitPlanBox::fixesText() const { return fixes_->text(); }
QString FitPlanBox::notesText() const { return notes_->text(); }

void FitPlanBox::show(const FitAnswer& a) {
    answer_ = a;
    error_.clear();
    const Plan& p = a.plan;
    const PlanOptions o = planOptions();
    QString text = tr("Peak per GPU %1 (%2 phase): ").arg(words::bytes(p.peakBytes), QString::fromLatin1(phaseName(p.peakPhase)));
    text += p.fits ? tr("fits in %1 (%2 to spare).").arg(words::bytes(o.memoryBytes), words::bytes(o.memoryBytes - p.peakBytes))
                   : tr("does not fit in %1: over by %2.").arg(words::bytes(o.memoryBytes), words::bytes(p.peakBytes - o.memoryBytes));
    text += "\n" + (a.largestMicroBatch > 0 ? tr("Largest micro-batch that fits: %1.").arg(a.largestMicroBatch)
                                            : tr("Not even micro-batch 1 fits."));
    if (a.largestSequence > 0) text += "\n" + tr("Longest sequence at micro-batch %1: %2 tokens.").arg(o.estimate.batch).arg(a.largestSequence);
    if (p.offloadedLayers > 0)
        text += "\n" + tr("CPU offload: %1 layers on the CPU, %2 of weights copied to the GPU per forward (each generated token).")
                           .arg(p.offloadedLayers)
                           .arg(words::bytes(p.offloadCopyBytes));
    QStringList parts;
    for (int i = 0; i < kPlanPartCount; ++i)
        if (p.perDevice[static_cast<std::size_t>(i)] > 0)
            parts << QStringLiteral("%1 %2").arg(QString::fromLatin1(planPartName(static_cast<PlanPart>(i))),
                                                  words::bytes(p.perDevice[static_cast<std::size_t>(i)]));
    result_->setText(text + "\n" + tr("Per GPU: %1").arg(parts.join(QStringLiteral(" · "))));
    // The column is narrow: one short line per change (what, new peak, a check mark when it fits);
    // each change's full words and what it costs are the label's tooltip.
    QStringList fixes, details;
    int rank = 0;
    for (const Fix& f : a.fixes) {
        ++rank;
        fixes << tr("%1. %2 → %3%4")
                     .arg(rank)
                     .arg(QString::fromStdString(f.description).remove(QRegularExpression(QStringLiteral("\\s*\\([^)]*\\)"))),
                          words::bytes(f.peakBytes), f.fits ? tr(" ✓ fits") : QString());
        details << tr("%1. %2 → %3 (%4; %5)")
                       .arg(rank)
                       .arg(QString::fromStdString(f.description), words::bytes(f.peakBytes),
                            f.fits ? tr("fits") : tr("not enough alone"), QString::fromStdString(f.cost));
    }
    fixes_->setText(fixes.isEmpty() ? QString()
                                    : tr("Changes that make it fit, cheapest first (hover for details):\n%1").arg(fixes.join('\n')));
    fixes_->setToolTip(details.join('\n'));
    emit answered();
}

void FitPlanBox::waitForResult() { query_->wait(); }

} // namespace memviz
