// SPDX-License-Identifier: MIT
#pragma once
// The what-if panel's "Will it fit on GPUs" box: a Hugging Face config.json (Open config.json…),
// the sequence length, micro-batch, gradient accumulation, dtype, LoRA rank, attention,
// checkpointing, a GPU of the catalog, GPUs and sharding, and for inference the layers offloaded to
// the CPU; shows the peak per GPU, whether it
// fits, the largest micro-batch and sequence that fit and the ranked fixes — the numbers
// `memviz estimate --config … --device …` prints (costmodel/FitPlan.h: answerFit). A recompute
// runs the simulation dozens of times (the searches), so it runs on a worker (BackgroundQuery).
#include <QGroupBox>
#include <optional>

#include "costmodel/FitPlan.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace memviz {

class BackgroundQuery;

class FitPlanBox : public QGroupBox {
    Q_OBJECT
public:
    explicit FitPlanBox(QWidget* parent = nullptr);
    ~FitPlanBox() override;

    // Reads a config.json; on error shows it and returns false.
    bool openConfig(const QString& path);
    void setSequence(int tokens);
    void setMicroBatch(int batch);
    void setGradAccumulation(int steps);
    void setDtype(const QString& dtype);  // "fp32", "bf16", ...
    void setLoraRank(int rank);
    void setGpu(const QString& id);       // a catalog id
    void setGpus(int n, const QString& shard);
    // Training (one optimizer step) or inference with the KV cache of the sequence: the GPUs then
    // split the model by tensor parallelism, and the dtype follows the checkpoint's torch_dtype.
    void setInference(bool inference);
    // Inference: how many transformer layers accelerate's device_map keeps on the CPU (0: none).
    void setOffloadLayers(int layers);

    costmodel::PlanOptions planOptions() const;
    // Blocks until the newest recompute is shown (tests, screenshots).
    void waitForResult();
    const std::optional<costmodel::FitAnswer>& answer() const { return answer_; }
    QString errorText() const { return error_; }
    QString resultText() const;
    QString fixesText() const;
    QString notesText() const; // the config's family, where the dtype comes from, the reader's warnings

signals:
    void answered();

private:
    void recompute();
    void modeChanged();
    bool inference() const;
    void show(const costmodel::FitAnswer& a);

    costmodel::GpuCatalog catalog_;
    std::optional<costmodel::FitModel> model_;
    std::optional<costmodel::FitAnswer> answer_;
    QString error_;
    bool updating_ = false;
    BackgroundQuery* query_;
    QPushButton* open_;
    QLabel* modelLabel_;
    QLabel* notes_ = nullptr;
    QComboBox* mode_;
    QSpinBox* seq_;
    QSpinBox* batch_;
    QSpinBox* accum_;
    QComboBox* dtype_;
    QSpinBox* lora_;
    QComboBox* attention_;
    QComboBox* checkpoint_;
    QComboBox* gpu_;
    QSpinBox* gpus_;
    QComboBox* shard_;
    QSpinBox* offload_;
    QLabel* result_;
    QLabel* fixes_;
};

} // namespace memviz
