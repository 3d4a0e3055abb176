// SPDX-License-Identifier: MIT
#pragma once
// `memviz estimate` for planning on GPUs (docs/costmodel.md, "Will it fit"): a Hugging Face
// config.json and/or safetensors header, the sequence length, a GPU from the catalog, several
// GPUs with DDP/ZeRO/FSDP, gradient accumulation; prints the breakdown per device, the peak, the
// largest micro-batch and sequence that fit and the ranked fixes (text or --json). Used by
// EstimateCommand.cpp, which declares the options.
#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include "costmodel/GpuCatalog.h"

namespace memviz::cli {

// `args` with `--device NAME` (a catalog GPU rather than cpu/cuda) turned into `--device cuda`;
// the GPU's name goes to `gpu`.
QStringList splitGpuDevice(const QStringList& args, QString& gpu);

// The built-in catalog, the user's file ($XDG_CONFIG_HOME/memviz/gpus.json) when it exists, then
// --gpu-catalog FILE. Throws UsageError for a bad file.
costmodel::GpuCatalog loadGpuCatalog(const QCommandLineParser& p);
// The path of the user's catalog file, whether or not it exists.
QString userGpuCatalogPath();

// True when the options ask for a plan (--config, --safetensors, --gpus, --shard, --grad-accum,
// or a catalog GPU as --device); --seq alone is the plain estimate's knob.
bool wantsPlan(const QCommandLineParser& p, const QString& gpu);

int listDevicesCommand(const QCommandLineParser& p);
int planCommand(const QCommandLineParser& p, const QString& gpu);

} // namespace memviz::cli
