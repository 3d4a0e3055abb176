// SPDX-License-Identifier: MIT
#include "cli/CliSupport.h"

#include <QTextStream>
#include <cstdio>
#include <stdexcept>

#include "core/Progress.h"

namespace memviz::cli {

void printOut(const QString& text) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
    std::fflush(stdout);
}

void printErr(const QString& text) {
    // Every message ends its line, so a shell prompt never follows it on the same line.
    QByteArray bytes = text.toUtf8();
    if (!bytes.isEmpty() && !bytes.endsWith('\n')) bytes += '\n';
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
    std::fflush(stderr);
}

void parseOrThrow(QCommandLineParser& parser, const QStringList& args, int positionals, const QString& usage) {
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(QStringList{QStringLiteral("memviz")} + args)) throw UsageError{parser.errorText() + "\nusage: " + usage};
    if (parser.positionalArguments().size() != positionals)
        throw UsageError{QStringLiteral("expected %1 file argument(s), got %2\nusage: %3")
                             .arg(positionals)
                             .arg(parser.positionalArguments().size())
                             .arg(usage)};
}

OpenedSource::OpenedSource(const QString& path, qint64 traceId) {
    const std::string file = path.toStdString();
    std::string importStore;
    if (!isStoreFile(file)) {
        tempDir_ = std::make_unique<QTemporaryDir>();
        importStore = (tempDir_->path() + "/import.memviz").toStdString();
    }
    opened_ = openTrace(file, importStore, Progress{}, traceId);
}

TraceRef traceRefOrUsage(const QString& arg) {
    try {
        return parseTraceRef(arg.toStdString());
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
}

std::optional<TimeRange> rangeOption(const QString& text) {
    if (text.isEmpty()) return std::nullopt;
    const QStringList parts = text.split(':');
    bool ok1 = false, ok2 = false;
    const qint64 begin = parts.size() == 2 ? parts[0].toLongLong(&ok1) : 0;
    const qint64 end = parts.size() == 2 ? parts[1].toLongLong(&ok2) : 0;
    if (!ok1 || !ok2 || end < begin) throw UsageError{"--range needs BEGIN_NS:END_NS with BEGIN <= END, got \"" + text + "\""};
    return TimeRange{begin, end};
}

qsizetype limitOption(const QCommandLineParser& parser, qsizetype fallback) {
    if (!parser.isSet("limit")) return fallback;
    bool ok = false;
    const qsizetype limit = parser.value("limit").toLongLong(&ok);
    if (!ok || limit < 0) throw UsageError{"--limit needs a non-negative number, got \"" + parser.value("limit") + "\""};
    return limit;
}

qint64 traceIdOption(const QCommandLineParser& parser) {
    if (!parser.isSet("trace")) return 0;
    bool ok = false;
    const qint64 id = parser.value("trace").toLongLong(&ok);
    if (!ok || id <= 0) throw UsageError{"--trace needs a positive trace id, got \"" + parser.value("trace") + "\""};
    return id;
}

FrameFolder foldOption(const QCommandLineParser& p) {
    if (!p.isSet("fold")) return FrameFolder::fromPresets(defaultFoldPresets());
    std::vector<std::string> ids;
    for (const QString& id : p.value("fold").split(',', Qt::SkipEmptyParts))
        if (id.trimmed() != "none") ids.push_back(id.trimmed().toStdString());
    try {
        return FrameFolder::fromPresets(ids);
    } catch (const std::invalid_argument& e) {
        throw UsageError{QString::fromUtf8(e.what())};
    }
}

} // namespace memviz::cli
