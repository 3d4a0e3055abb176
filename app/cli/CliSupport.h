// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the subcommands: opening a store or raw trace, printing, errors.
#include <QCommandLineParser>
#include <QString>
#include <QTemporaryDir>
#include <memory>
#include <optional>

#include "store/SeriesQuery.h"
#include "store/StoreFiles.h"
#include "store/TraceRef.h"
#include "trace/FrameFolder.h"

namespace memviz::cli {

// Thrown for bad command-line usage; run() prints it with the usage hint, exit status 2.
struct UsageError {
    QString message;
};

void printOut(const QString& text);
void printErr(const QString& text);

// Parses `args` (subcommand options only) and throws UsageError on unknown options or a
// wrong number of positional arguments.
void parseOrThrow(QCommandLineParser& parser, const QStringList& args, int positionals, const QString& usage);

// A store or raw trace opened for reading. A raw trace is imported into a temporary store
// that lives as long as this object.
class OpenedSource {
public:
    OpenedSource(const QString& path, qint64 traceId);
    const std::string& storePath() const { return opened_.storePath; }
    std::int64_t traceId() const { return opened_.traceId; }

private:
    std::unique_ptr<QTemporaryDir> tempDir_;
    OpenedTrace opened_;
};

// FILE | STORE | STORE#ID through the one reference parser (store/TraceRef.h); a bad #ID is a
// UsageError.
TraceRef traceRefOrUsage(const QString& arg);

// --range BEGIN:END in ns from the trace start; nullopt when `text` is empty; UsageError
// unless two whole numbers with BEGIN <= END.
std::optional<TimeRange> rangeOption(const QString& text);

// --limit N option value: `fallback` when absent; UsageError unless a whole number >= 0.
qsizetype limitOption(const QCommandLineParser& parser, qsizetype fallback);

// --trace ID option value (0 = latest).
qint64 traceIdOption(const QCommandLineParser& parser);

// --fold PRESETS|none (stacks, report): the window's default presets when not set; an unknown
// preset is a UsageError naming the known ones.
FrameFolder foldOption(const QCommandLineParser& parser);

} // namespace memviz::cli
