// SPDX-License-Identifier: MIT
#include "cli/Cli.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <cstring>

#include "cli/CliSupport.h"
#include "cli/Output.h"
#include "core/Errors.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"

namespace memviz::cli {

namespace {

const char* const kHelpHead = R"(memviz - see where memory went, and what to change

usage:
  memviz [FILE_OR_DB]                 open the window (no file: the last one, or the sample)
  memviz --sample                     open the window on the bundled sample trace
  memviz --learn                      open the window and the Learn mode (lessons, OOM decoder)
)";

const char* const kHelpTail = R"(  memviz --help | --version
  memviz COMMAND --help               the lines above about COMMAND

FILE is any supported trace (sniffed by content, gzip/zstd transparent); DB is a .memviz
store. Errors go to stderr with a non-zero exit status (1: bad input, 2: bad usage).
memviz record exits with 0 when the recording was saved, whatever the program's own exit
status (it is printed, and stored); 1 when nothing could be recorded or recording failed.
The manual: man memviz.
)";

int tracesCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"json", "Print JSON."});
    parseOrThrow(p, args, 1, "memviz traces DB [--json]");
    Database db(p.positionalArguments().first().toStdString(), Database::Mode::ReadOnly);
    const auto traces = listTraces(db);
    if (p.isSet("json")) {
        QJsonArray a;
        for (const auto& t : traces) a.append(summaryJson(loadSummary(db, t.id)));
        printOut(QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Indented)));
        return 0;
    }
    std::vector<QStringList> rows;
    for (const auto& t : traces)
        rows.push_back({QString::number(t.id), QString::fromStdString(t.format), QString::number(t.eventCount),
                        QString::fromStdString(t.importedAt), QString::fromStdString(t.sourcePath)});
    printOut(formatTable({"id", "format", "events", "imported", "source"}, rows));
    return 0;
}

int formatsCommand(const QStringList& args) {
    QCommandLineParser p;
    parseOrThrow(p, args, 0, "memviz formats");
    std::vector<QStringList> rows;
    for (const auto& imp : allImporters()) {
        QStringList patterns;
        for (const auto& pat : imp->filePatterns()) patterns << QString::fromStdString(pat);
        rows.push_back({QString::fromStdString(imp->id()), QString::fromStdString(imp->displayName()), patterns.join(' ')});
    }
    printOut(formatTable({"id", "format", "files"}, rows));
    return 0;
}

// Every subcommand, in the order `memviz --help` lists them: its lines of the help text, and
// what runs it. Help, dispatch and isCommandLineInvocation() read this table; a new
// subcommand is one more row (ARCHITECTURE.md, "Adding a subcommand").
struct Subcommand {
    const char* name;
    const char* usage;                                          // its lines of `memviz --help`
    int (*run)(int argc, char** argv, const QStringList& args); // null: the WindowCommand given to run()
    bool ownApplication; // makes its own QApplication (the others run in a QCoreApplication)
};

const Subcommand kSubcommands[] = {
    {"import",
     R"(  memviz import FILE [--db OUT] [--format ID] [--json]
                                      import a trace into a .memviz store
)",
     [](int, char**, const QStringList& args) { return importCommand(args); }, false},
    {"summary",
     R"(  memviz summary FILE_OR_DB [--json] [--trace ID]
                                      peak, final bytes and counts per device
)",
     [](int, char**, const QStringList& args) { return summaryCommand(args); }, false},
    {"ops",
     R"(  memviz ops FILE_OR_DB [--json] [--limit N] [--device NAME] [--range BEGIN:END]
             [--group-by-shapes] [--trace ID]
                                      memory per operator (times in ns from the trace start;
                                      profiler traces: key_averages semantics)
)",
     [](int, char**, const QStringList& args) { return opsCommand(args); }, false},
    {"traces",
     R"(  memviz traces DB [--json]           the traces a store holds
)",
     [](int, char**, const QStringList& args) { return tracesCommand(args); }, false},
    {"formats",
     R"(  memviz formats                      the trace formats memviz reads
)",
     [](int, char**, const QStringList& args) { return formatsCommand(args); }, false},
    {"diff",
     R"(  memviz diff A B [--json] [--limit N] [--device NAME]
             [--align auto|start|peak|step:N|marker:NAME]
                                      compare two traces (files, stores or STORE#ID): peak,
                                      time of peak and final bytes per device, operators and
                                      heaptrack allocation sites, with B - A; B lined up
                                      with A at a step, the starts, the peaks or a marker
)",
     [](int, char**, const QStringList& args) { return diffCommand(args); }, false},
    {"ranks",
     R"(  memviz ranks STORE | FOLDER | FILE_OR_DB... [--json] [--device NAME] [--trace ID[,ID...]]
                                      every rank of a distributed job (a store's probe
                                      recordings, a folder of rank files, or several traces):
                                      peak, time of peak, final bytes and top operator at the
                                      peak per rank; the imbalance (max/min peak, which op);
                                      --trace: exactly these traces of one STORE, in this order;
                                      STORE may be a gathered ranks store (--gather)
  memviz ranks --slurm FOLDER | FILE... [--out FILE] [--store-dir DIR] [--job-dir DIR]
             [--partition NAME] [--account NAME] [--time LIMIT] [--concurrency N]
             [--sbatch-arg ARG]... [--device NAME] [--no-wait] [--no-submit]
  memviz ranks --collect JOBDIR | --resume JOBDIR [--no-wait] | --gather JOBDIR
  memviz ranks --local FILE [--store-dir DIR]
                                      on a Slurm cluster: one array task per rank file imports
                                      it into its own store (--local), a gather job writes one
                                      small ranks store (--gather); waits with progress, or
                                      --no-wait and --collect later; failed ranks are reported
                                      with their error and --resume submits them again
)",
     [](int, char**, const QStringList& args) { return ranksCommand(args); }, false},
    {"check",
     R"(  memviz check FILE|STORE[#ID] [--baseline FILE|STORE#ID] [--max-peak [DEVICE=]SIZE]
             [--max-growth [DEVICE=]N%] [--max category=NAME:SIZE] [--max op=NAME:SIZE]
             [--max site=PATTERN:SIZE] [--max-leaked [DEVICE=]SIZE] [--budgets FILE.json]
             [--json] [--junit FILE]
                                      memory budgets for CI: status 0 within every budget,
                                      1 over one, 2 for usage or input errors; --junit writes
                                      one JUnit test case per budget
)",
     [](int, char**, const QStringList& args) { return checkCommand(args); }, false},
    {"report",
     R"(  memviz report FILE|STORE[#ID] [--baseline FILE|STORE#ID] [--fold PRESETS|none] -o REPORT.html
                                      one self-contained HTML page: timeline per device with
                                      the peak, categories at the peak, operator and site
                                      tables, flame graph; with --baseline, the comparison
                                      lined up at the peaks
)",
     [](int, char**, const QStringList& args) { return reportCommand(args); }, false},
    {"estimate",
     R"(  memviz estimate (--model PRESET | --spec FILE.json) --batch N [--dtype fp32|fp16|bf16|fp64|int8]
             [--amp] [--optimizer sgd|momentum|adam|adamw|adagrad|rmsprop|lbfgs|adam8bit|adafactor]
             [--lbfgs-history H] [--optimizer-impl auto|for-loop|foreach|fused] [--torch 2.x|1.13]
             [--checkpoint none|sqrt|K|per-layer|selective] [--inference] [--seq N]
             [--lora-rank R] [--lora-targets attn|mlp|all] [--frozen-layers N] [--attention eager|flash]
             [--weights fp|int8|nf4] [--kv-cache CONTEXT] [--kv-block TOKENS]
             [--device cpu|cuda] [--cuda-context BYTES] [--step N] [--fit BYTES] [--savings]
             [--timeline] [--save STORE.memviz] [--json]
  memviz estimate --model PRESET --print-spec | --list-models
  memviz estimate (--config config.json [--safetensors FILE|INDEX] | --model P | --spec F) [--seq N]
             [--batch MICRO] [--grad-accum K] [--device GPU] [--gpus N --shard ddp|zero1|zero2|zero3|fsdp]
             [--tp N] [--kv-cache-dtype fp8] [--offload-layers N] [--with-mtp]
             [--gpu-catalog FILE] [knobs as above] [--json] | --list-devices
                                      will it fit: the peak per GPU by category (with the CUDA
                                      context), the largest micro-batch and sequence that fit
                                      the GPU, and the changes that make it fit, cheapest first
                                      predicted peak memory of one training step and its breakdown
                                      (--fit: the largest batch that fits; --list-models: the presets;
                                      --save: keep the step as a trace, to diff two estimates)
)",
     [](int, char**, const QStringList& args) { return estimateCommand(args); }, false},
    {"screenshot",
     R"(  memviz screenshot FILE_OR_DB --out PNG [--size WxH] [--trace ID] [--tab NAME] [--lang CODE]
  memviz screenshot [FILE_OR_DB] --whatif [--calibrate] --out PNG [--model PRESET | --spec FILE.json]
             [--batch N] [--dtype D] [--amp] [--optimizer O] [--checkpoint C] [--inference]
             [--device cpu|cuda] [--limit SIZE]
  memviz screenshot --learn LESSON --out PNG [--size WxH] [--lang CODE] [--presenter] [--scale X]
             [--message TEXT]
                                      render the main window, the what-if panel or a lesson
                                      offscreen to a PNG
)",
     nullptr, true},
    {"record",
     R"(  memviz record --out DB [--interval-ms N] [--duration S] [--children] [--progress] [--json]
             -- CMD ARGS...
  memviz record --pid PID --out DB [--interval-ms N] [--duration S] [--children] [--progress]
             [--json]
                                      sample a process' memory from /proc (launched, or
                                      attached); Ctrl+C stops; the program's exit status is
                                      stored and reported
  memviz record --listen [ADDRESS] --out DB [--duration S] [--wait S] [--grace S] [--progress]
             [--json]
                                      record the PyTorch probe's stream (python3 -m memviz_probe;
                                      --address ADDRESS is the same as --listen ADDRESS); several
                                      probes at once (a distributed job's ranks) each become a
                                      trace; ends when all have gone and none came for --grace S
  memviz record --pid PID --probe --out DB [--mode op|module] [--duration S] [--wait S]
             [--progress] [--json]
                                      attach the PyTorch probe to a running Python (through
                                      gdb); Ctrl+C or --duration detaches it, the script runs on
  memviz record --native [--out DB] [--interval-ms N] [--duration S] [--progress] [--json]
             -- CMD ARGS...
  memviz record --native --pid PID [--out DB] [--interval-ms N] [--duration S] [--progress]
             [--json]
                                      native allocations through heaptrack beside /proc: heap
                                      consumed, allocation rate, top sites live; heaptrack's
                                      file imported at the end
)",
     [](int, char**, const QStringList& args) { return recordCommand(args); }, false},
    {"explain",
     R"(  memviz explain MESSAGE... | --file LOG | - [--json] [--model PRESET | --spec FILE.json]
             [--batch N] [--dtype D] [--amp] [--optimizer O] [--checkpoint C] [--device cpu|cuda]
                                      decode a PyTorch out-of-memory message; with a model, the
                                      fixes ranked by what they save (status 1: not a message)
)",
     [](int, char**, const QStringList& args) { return explainCommand(args); }, false},
    {"allocator-replay",
     R"(  memviz allocator-replay FILE_OR_DB [--json] [--device NAME] [--at ENTRY] [--card SIZE] [--steps]
             [--trace ID]
                                      a CUDA snapshot's requests through the caching-allocator
                                      model: predicted segments and reserved bytes beside the
                                      recorded ones; why reserved exceeds allocated at an entry
                                      and at each OOM; which request fails on a card of SIZE
)",
     [](int, char**, const QStringList& args) { return allocatorReplayCommand(args); }, false},
    {"stacks",
     R"(  memviz stacks FILE_OR_DB [--metric M] [--at T] [--range BEGIN:END] [--fold PRESETS|none]
             [--group-by stack|compile-context|user-metadata|forward-stack]
             [--format collapsed|json] [--trace ID]
                                      call stacks as collapsed stacks (flamegraph.pl) or JSON;
                                      status 1: the trace has no stacks (and how to record them)
)",
     [](int, char**, const QStringList& args) { return stacksCommand(args); }, false},
};

const Subcommand* findSubcommand(const QString& name) {
    for (const Subcommand& c : kSubcommands)
        if (name == QLatin1String(c.name)) return &c;
    return nullptr;
}

QString helpText() {
    QString text = QString::fromUtf8(kHelpHead);
    for (const Subcommand& c : kSubcommands) text += QString::fromUtf8(c.usage);
    return text + QString::fromUtf8(kHelpTail);
}

// `memviz COMMAND --help`: the lines of the help text about COMMAND (its usage lines, their
// continuations and its description).
QString commandHelp(const QString& command) {
    const Subcommand* c = findSubcommand(command);
    return "usage:\n" + (c ? QString::fromUtf8(c->usage) : QStringLiteral("\n"));
}

} // namespace

bool isCommandLineInvocation(int argc, char** argv) {
    if (argc < 2) return false;
    const char* a = argv[1];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--version") || !std::strcmp(a, "-v")) return true;
    for (const Subcommand& c : kSubcommands)
        if (!std::strcmp(a, c.name)) return true;
    // A first word that is neither a subcommand nor an existing file is a mistyped command
    // (`memviz compare A B`): run() answers it with a usage error instead of opening the window
    // on a file that is not there. Options (--sample, Qt's -platform ...) go to the window.
    return a[0] != '-' && !QFileInfo::exists(QString::fromLocal8Bit(a));
}

int run(int argc, char** argv, WindowCommand screenshot) {
    const QString command = QString::fromLocal8Bit(argv[1]);
    if (command == "--help" || command == "-h") {
        printOut(helpText());
        return 0;
    }
    if (command == "--version" || command == "-v") {
        printOut(QStringLiteral("memviz %1\n").arg(MEMVIZ_VERSION));
        return 0;
    }
    QStringList args;
    for (int i = 2; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    const QStringList ownArgs = args.mid(0, args.indexOf("--")); // what follows -- is the recorded program's
    if (ownArgs.contains("--help") || ownArgs.contains("-h")) {
        printOut(commandHelp(command));
        return 0;
    }
    try {
        if (const Subcommand* c = findSubcommand(command)) {
            const auto runIt = c->run ? c->run : screenshot;
            if (!runIt) throw UsageError{QStringLiteral("this build of memviz has no window to render")};
            if (c->ownApplication) return runIt(argc, argv, args);
            QCoreApplication app(argc, argv);
            return runIt(argc, argv, args);
        }
    } catch (const UsageError& e) {
        printErr("memviz " + command + ": " + e.message + "\n");
        return 2;
    } catch (const Cancelled&) {
        printErr("memviz " + command + ": cancelled\n");
        return 1;
    } catch (const std::exception& e) {
        printErr("memviz " + command + ": " + QString::fromUtf8(e.what()) + "\n");
        return 1;
    }
    QStringList commands;
    for (const Subcommand& c : kSubcommands) commands << QString::fromLatin1(c.name);
    printErr("memviz: \"" + command + "\" is neither a command nor an existing file\n" + "commands: " + commands.join(", ") +
             "\n" + "usage: memviz COMMAND ARGS... | memviz [FILE_OR_DB] (see memviz --help)\n");
    return 2;
}

} // namespace memviz::cli
