// SPDX-License-Identifier: MIT
// memviz check FILE|STORE[#ID] [--baseline FILE|STORE#ID] budgets...: memory budgets for CI
// (model/budget/). Exit 0 within every budget, 1 over one, 2 for usage or input errors (a
// missing baseline, different devices, an unknown unit, an empty trace, a category the format
// does not have): never a pass by accident.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <memory>

#include "budget/BudgetCheck.h"
#include "budget/BudgetFile.h"
#include "budget/BudgetJUnit.h"
#include "cli/Cli.h"
#include "cli/CliSupport.h"
#include "store/Database.h"

namespace memviz::cli {

namespace {

const char* kUsage = "memviz check FILE|STORE[#ID] [--baseline FILE|STORE#ID] [--max-peak [DEVICE=]SIZE] "
                     "[--max-growth [DEVICE=]N%] [--max category|op|site=NAME:SIZE] [--max-leaked [DEVICE=]SIZE] "
                     "[--budgets FILE.json] [--json] [--junit FILE]";

// One trace opened from a reference, and its figures.
struct Loaded {
    explicit Loaded(const QString& arg, const FactsWanted& wanted) {
        const TraceRef ref = traceRefOrUsage(arg);
        source = std::make_unique<OpenedSource>(QString::fromStdString(ref.path), ref.traceId);
        Database db(source->storePath(), Database::Mode::ReadOnly);
        facts = loadTraceFacts(db, source->traceId(), wanted);
    }
    std::unique_ptr<OpenedSource> source;
    TraceFacts facts;
};

std::vector<Budget> budgetsOf(const QCommandLineParser& p) {
    std::vector<Budget> out;
    if (p.isSet("budgets")) {
        QFile f(p.value("budgets"));
        if (!f.open(QIODevice::ReadOnly)) throw UsageError{p.value("budgets") + ": " + f.errorString()};
        const QByteArray text = f.readAll();
        out = parseBudgetFile(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                              p.value("budgets").toStdString());
    }
    for (const QString& v : p.values("max-peak")) out.push_back(parseBudget(BudgetKind::Peak, v.toStdString(), "--max-peak"));
    for (const QString& v : p.values("max-growth")) out.push_back(parseBudget(BudgetKind::Growth, v.toStdString(), "--max-growth"));
    for (const QString& v : p.values("max")) out.push_back(parseMaxBudget(v.toStdString(), "--max"));
    for (const QString& v : p.values("max-leaked")) out.push_back(parseBudget(BudgetKind::Leaked, v.toStdString(), "--max-leaked"));
    return out;
}

FactsWanted wantedFor(const std::vector<Budget>& budgets) {
    FactsWanted w{false, false, false};
    for (const Budget& b : budgets) {
        w.categories = w.categories || b.kind == BudgetKind::Category;
        w.ops = w.ops || b.kind == BudgetKind::Op;
        w.sites = w.sites || b.kind == BudgetKind::Site;
    }
    return w;
}

QString q(const std::string& s) { return QString::fromStdString(s); }

QJsonObject resultsJson(const std::vector<BudgetResult>& results) {
    QJsonArray budgets;
    bool passed = true;
    for (const BudgetResult& r : results) {
        QJsonArray measures;
        for (const BudgetMeasure& m : r.measures) {
            QJsonObject o{{"subject", q(m.subject)}, {"value_bytes", static_cast<qint64>(m.value)},
                          {"limit_bytes", static_cast<qint64>(m.limit)}, {"over", m.over}};
            if (m.baseline) o.insert("baseline_bytes", static_cast<qint64>(*m.baseline));
            measures.append(o);
        }
        passed = passed && r.passed();
        budgets.append(QJsonObject{{"budget", q(budgetText(r.budget))},
                                   {"name", q(budgetName(r.budget))},
                                   {"what", q(r.what)},
                                   {"passed", r.passed()},
                                   {"measures", measures}});
    }
    return {{"passed", passed}, {"budgets", budgets}};
}

QString resultsText(const std::vector<BudgetResult>& results) {
    QString text;
    int failed = 0;
    for (const BudgetResult& r : results) {
        failed += r.passed() ? 0 : 1;
        text += QStringLiteral("%1  %2  (%3)\n").arg(r.passed() ? "PASS" : "FAIL", q(budgetText(r.budget)), q(r.what));
        for (const BudgetMeasure& m : r.measures) text += "      " + q(measureText(m)) + (m.over ? "   OVER BUDGET\n" : "\n");
    }
    text += QStringLiteral("%1 budget(s): %2 within, %3 over\n").arg(results.size()).arg(results.size() - failed).arg(failed);
    return text;
}

} // namespace

int checkCommand(const QStringList& args) {
    QCommandLineParser p;
    p.addOption({"baseline", "The trace to compare with (--max-growth).", "FILE|STORE#ID"});
    p.addOption({"max-peak", "Largest allowed peak (per device: DEVICE=SIZE).", "SIZE"});
    p.addOption({"max-growth", "Largest allowed peak growth over the baseline.", "N%"});
    p.addOption({"max", "category=NAME:SIZE, op=NAME:SIZE or site=PATTERN:SIZE.", "BUDGET"});
    p.addOption({"max-leaked", "Largest allowed bytes alive at the end.", "SIZE"});
    p.addOption({"budgets", "Read budgets from a JSON file.", "FILE"});
    p.addOption({"json", "Print JSON."});
    p.addOption({"junit", "Write JUnit XML, one test case per budget.", "FILE"});
    parseOrThrow(p, args, 1, kUsage);
    std::vector<BudgetResult> results;
    const QString target = p.positionalArguments().first();
    try {
        const std::vector<Budget> budgets = budgetsOf(p);
        if (budgets.empty()) throw BudgetError("no budgets given (--max-peak, --max-growth, --max, --max-leaked or --budgets FILE)");
        const FactsWanted wanted = wantedFor(budgets);
        Loaded trace(target, wanted);
        std::unique_ptr<Loaded> baseline;
        if (p.isSet("baseline")) baseline = std::make_unique<Loaded>(p.value("baseline"), FactsWanted{false, false, false});
        results = checkBudgets(budgets, trace.facts, baseline ? &baseline->facts : nullptr);
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& e) { // the budgets or the traces cannot be checked: exit 2, never a pass
        throw UsageError{QString::fromUtf8(e.what())};
    }
    bool passed = true;
    for (const BudgetResult& r : results) passed = passed && r.passed();
    if (p.isSet("junit")) {
        QFile f(p.value("junit"));
        const std::string xml = budgetJUnit(results, "memviz check " + target.toStdString());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            f.write(xml.data(), static_cast<qint64>(xml.size())) != static_cast<qint64>(xml.size()))
            throw UsageError{p.value("junit") + ": cannot write: " + f.errorString()};
    }
    if (p.isSet("json")) {
        QJsonObject o = resultsJson(results);
        o.insert("source", target);
        if (p.isSet("baseline")) o.insert("baseline", p.value("baseline"));
        printOut(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    } else {
        printOut("memviz check " + target + (p.isSet("baseline") ? " against " + p.value("baseline") : QString()) + "\n" +
                 resultsText(results));
    }
    return passed ? 0 : 1;
}

} // namespace memviz::cli
