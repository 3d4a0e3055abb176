// SPDX-License-Identifier: MIT
#pragma once
// `memviz ranks` past one machine (issue 55): --slurm submits one array task per rank file
// and a gather job, --local is what a task runs (one rank's file into its own store), --gather
// what the gather job runs, --collect waits for a submitted job and reports its failed ranks,
// --resume submits those again. The job folder and Slurm's text: model/ranks/SlurmJob.h; the
// gathered store: model/ranks/GatheredRanks.h. Runs sbatch and scontrol (no slurmdbd needed).
#include <QCommandLineParser>
#include <QStringList>

namespace memviz::cli {

// The options are added by ranksCommand (RanksCommand.cpp). When one of --slurm, --local, --gather, --collect, --resume is set: runs it and returns its
// exit status; else -1 (the plain `memviz ranks`).
int runRanksSlurmMode(const QCommandLineParser& p, const QStringList& paths);

} // namespace memviz::cli
