// SPDX-License-Identifier: MIT
// memviz ranks PATH...: every rank of a distributed job on its common figure
// (model/ranks/RankSet.h): a store's traces (live probes, one per rank), several files or
// stores, or a folder of rank files.
#include <QTemporaryDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <memory>

#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "cli/RanksSlurm.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "ranks/GatheredRanks.h"
#include "ranks/RankSet.h"
#include "ranks/RankSources.h"
#include "store/Database.h"
#include "store/StoreFiles.h"
#include "store/TraceQueries.h"
#include "words/UnitTexts.h"

namespace memviz::cli {

namespace {

const char* const kUsage = "memviz ranks STORE | FOLDER | FILE_OR_DB... [--json] [--device NAME] | STORE --trace ID[,ID...]\n"
                           "       memviz ranks --slurm FOLDER | FILE... [--out FILE] [--store-dir DIR] [--job-dir DIR] [--partition NAME]\n"
                           "             [--account NAME] [--time LIMIT] [--concurrency N] [--sbatch-arg ARG]... [--no-wait] [--no-submit]\n"
                           "       memviz ranks --collect JOBDIR | --resume JOBDIR [--no-wait] | --gather JOBDIR | --local FILE [--store-dir DIR]";

// A store that holds a gathered rank set (memviz ranks --gather).
bool isGatheredStore(const QStringList& paths) {
    if (paths.size() != 1 || !isStoreFile(paths[0].toStdString())) return false;
    Database db(paths[0].toStdString(), Database::Mode::ReadOnly);
    return hasGatheredRanks(db);
}

// --trace 3,5 --trace 7: the ids in the order given; UsageError for one that is not a positive id.
std::vector<std::int64_t> traceIds(const QCommandLineParser& p) {
    std::vector<std::int64_t> out;
    for (const QString& value : p.values("trace"))
        for (const QString& part : value.split(QLatin1Char(','))) {
            bool ok = false;
            const qint64 id = part.trimmed().toLongLong(&ok);
            if (!ok || id <= 0) throw UsageError{"--trace needs positive trace ids, got \"" + value + "\""};
            out.push_back(id);
        }
    return out;
}

QJsonValue optionalInt(const std::optional<int>& v) { return v ? QJsonValue(*v) : QJsonValue(); }

} // namespace

int ranksCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    p.addOption({"device", "The figure to compare: this device's bytes; cuda: each trace's one CUDA device (the default when "
                           "each has one; else the first device every trace has).",
                 "NAME"});
    p.addOption({"trace", "Exactly these traces of the one STORE given, in this order (ID,ID,... or the option repeated).",
                 "ID[,ID...]"});
    // Past one machine (RanksSlurm.h).
    p.addOption({"slurm", "Import the rank files on a Slurm cluster: one array task per rank, then a gather job."});
    p.addOption({"local", "Import the one rank file given into its own store (what each Slurm task runs)."});
    p.addOption({"gather", "Gather the ranks' stores of the job folder given into its ranks store (what the gather job runs)."});
    p.addOption({"collect", "Wait for the job folder's submitted job, with progress; report failed ranks."});
    p.addOption({"resume", "Submit the job folder's ranks that have no store again, and a new gather."});
    p.addOption({"out", "--slurm: the gathered ranks store (default: ranks.memviz in the folder of rank files).", "FILE"});
    p.addOption({"store-dir", "--slurm, --local: put each rank's store in this folder (default: beside its file).", "DIR"});
    p.addOption({"job-dir", "--slurm: the job folder (default: the ranks store's name with -job).", "DIR"});
    p.addOption({"partition", "--slurm: sbatch --partition.", "NAME"});
    p.addOption({"account", "--slurm: sbatch --account.", "NAME"});
    p.addOption({"time", "--slurm: each task's time limit (sbatch --time).", "LIMIT"});
    p.addOption({"concurrency", "--slurm: at most N tasks at once (the array's %N).", "N"});
    p.addOption({"sbatch-arg", "--slurm: one more sbatch argument (repeat the option for more).", "ARG"});
    p.addOption({"no-wait", "--slurm, --resume: return once submitted; print the command that collects the job."});
    p.addOption({"no-submit", "--slurm: write the job folder and its scripts, submit nothing."});
    p.addPositionalArgument("paths", "A store (a gathered one too), a folder of rank files, or several files or stores.", "PATH...");
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!p.parse(QStringList{QStringLiteral("memviz")} + args)) throw UsageError{p.errorText() + "\nusage: " + kUsage};
    const QStringList paths = p.positionalArguments();
    if (paths.isEmpty()) throw UsageError{QStringLiteral("give a store, a folder of rank files, or several traces\nusage: ") + kUsage};
    if (const int status = runRanksSlurmMode(p, paths); status >= 0) return status;

    QTemporaryDir imports; // raw files are imported here, for this run only
    int imported = 0;
    std::vector<std::string> given;
    for (const QString& path : paths) given.push_back(path.toStdString());
    const std::vector<std::int64_t> ids = traceIds(p);
    if (!ids.empty() && paths.size() != 1)
        throw UsageError{QStringLiteral("--trace picks traces of one store: give exactly one STORE\nusage: ") + kUsage};
    const bool gathered = ids.empty() && isGatheredStore(paths);
    if (gathered && p.isSet("device"))
        throw UsageError{QStringLiteral("a gathered store holds one device's figures; --device goes with --slurm")};
    const std::vector<RankSource> sources =
        gathered ? std::vector<RankSource>{}
        : !ids.empty() ? storeRankTraces(given[0], ids)
                     : resolveRankPaths(
                           given,
                           [&](const std::string&) {
                               return (imports.path() + QStringLiteral("/rank%1.memviz").arg(imported++)).toStdString();
                           },
                           Progress{});
    std::vector<std::unique_ptr<Database>> dbs;
    std::vector<RankInput> inputs;
    for (const RankSource& s : sources) {
        dbs.push_back(std::make_unique<Database>(s.storePath, Database::Mode::ReadOnly));
        inputs.push_back({dbs.back().get(), s.traceId, s.name});
    }
    const RankSet set = gathered ? readGatheredRanks(*std::make_unique<Database>(given[0], Database::Mode::ReadOnly))
                                 : readRankSet(inputs, p.value("device").toStdString(), Progress{}, 0, !ids.empty());
    const RankImbalance& im = set.imbalance;

    if (p.isSet("json")) {
        QJsonArray rows;
        for (const RankRow& r : set.rows)
            rows.append(QJsonObject{{"name", QString::fromStdString(r.name)},
                                    {"rank", optionalInt(r.rank)},
                                    {"source", QString::fromStdString(r.source)},
                                    {"trace_id", static_cast<qint64>(r.traceId)},
                                    {"format", QString::fromStdString(r.format)},
                                    {"device", QString::fromStdString(r.device)},
                                    {"peak_bytes", static_cast<qint64>(r.peakBytes)},
                                    {"peak_time_ns", static_cast<qint64>(r.peakTimeNs)},
                                    {"final_bytes", static_cast<qint64>(r.finalBytes)},
                                    {"top_op", r.topOp.empty() ? QJsonValue() : QString::fromStdString(r.topOp)},
                                    {"top_op_bytes", static_cast<qint64>(r.topOpBytes)},
                                    {"top_op_figure", r.topOpPaired ? "alive_at_peak" : "net_of_calls"},
                                    {"start_offset_ns", set.wallClock ? QJsonValue(static_cast<qint64>(r.startOffsetNs)) : QJsonValue()}});
        const QJsonObject imbalance{{"max_rank", QString::fromStdString(set.rows[im.maxRow].name)},
                                    {"min_rank", QString::fromStdString(set.rows[im.minRow].name)},
                                    {"ratio", im.ratio ? QJsonValue(*im.ratio) : QJsonValue()},
                                    {"spread_bytes", static_cast<qint64>(im.spreadBytes)},
                                    {"op", im.op.empty() ? QJsonValue() : QString::fromStdString(im.op)},
                                    {"op_delta_bytes", static_cast<qint64>(im.opDeltaBytes)},
                                    {"op_figure", im.opPaired ? "alive_at_peak" : "net_of_calls"}};
        printOut(QString::fromUtf8(QJsonDocument(QJsonObject{{"device", QString::fromStdString(set.device)},
                                                             {"ranks", rows},
                                                             {"imbalance", imbalance}})
                                       .toJson(QJsonDocument::Indented)));
        return 0;
    }
    std::vector<QStringList> rows;
    for (const RankRow& r : set.rows)
        rows.push_back({QString::fromStdString(r.name), QString::fromStdString(r.device), words::bytes(r.peakBytes), words::duration(r.peakTimeNs),
                        words::bytes(r.finalBytes),
                        r.topOp.empty() ? QStringLiteral("-")
                                        : QString::fromStdString(r.topOp) + " (" + words::bytes(r.topOpBytes) +
                                              (r.topOpPaired ? ")" : ", net of its calls)"),
                        QString::fromStdString(r.source)});
    QString text = QStringLiteral("%1 ranks, %2 bytes\n")
                       .arg(set.rows.size())
                       .arg(set.device == "cuda" ? QStringLiteral("each rank's own CUDA device's") : QString::fromStdString(set.device));
    text += formatTable({"rank", "device", "peak", "peak at", "final", "top operator at the peak", "source"}, rows);
    text += QStringLiteral("\nimbalance: %1 peaks highest (%2), %3 lowest (%4): ")
                .arg(QString::fromStdString(set.rows[im.maxRow].name), words::bytes(set.rows[im.maxRow].peakBytes),
                     QString::fromStdString(set.rows[im.minRow].name), words::bytes(set.rows[im.minRow].peakBytes));
    text += im.ratio ? QStringLiteral("max/min %1x").arg(*im.ratio, 0, 'f', 2) : QStringLiteral("max/min undefined (a peak of 0)");
    text += ", " + words::bytes(im.spreadBytes) + " apart\n";
    if (!im.op.empty())
        text += QStringLiteral("  most of it: %1, %2 more at %3's peak than at %4's%5\n")
                    .arg(QString::fromStdString(im.op), words::bytes(im.opDeltaBytes),
                         QString::fromStdString(set.rows[im.maxRow].name), QString::fromStdString(set.rows[im.minRow].name),
                         im.opPaired ? QString() : QStringLiteral(" (nets of its calls: these files do not pair frees with allocations)"));
    printOut(text);
    return 0;
}

} // namespace memviz::cli
