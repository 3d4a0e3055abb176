// SPDX-License-Identifier: MIT
// JUnit XML of budget results (see BudgetJUnit.h).
#include "budget/BudgetJUnit.h"

#include "words/Units.h"
#include "report/Markup.h"

namespace memviz {

std::string measureText(const BudgetMeasure& m) {
    std::string s = m.subject + ": " + formatBytes(static_cast<double>(m.value)) + " (" + std::to_string(m.value) + " B) " +
                    (m.over ? "> " : "<= ") + formatBytes(static_cast<double>(m.limit));
    if (m.baseline) s += " (baseline peak " + formatBytes(static_cast<double>(*m.baseline)) + ")";
    return s;
}

std::string budgetJUnit(const std::vector<BudgetResult>& results, const std::string& suite) {
    std::size_t failures = 0;
    for (const BudgetResult& r : results) failures += r.passed() ? 0 : 1;
    const std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" + std::to_string(failures) + "\"";
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"memviz check\"" + counts + ">\n";
    x += "  <testsuite name=\"" + escapeMarkup(suite) + "\"" + counts + " errors=\"0\" skipped=\"0\">\n";
    for (const BudgetResult& r : results) {
        x += "    <testcase classname=\"memviz.check\" name=\"" + escapeMarkup(budgetName(r.budget)) + "\" time=\"0\">\n";
        std::string lines = budgetText(r.budget) + " (" + r.what + ")\n";
        std::string firstOver;
        for (const BudgetMeasure& m : r.measures) {
            lines += measureText(m) + "\n";
            if (m.over && firstOver.empty()) firstOver = measureText(m);
        }
        if (!r.passed())
            x += "      <failure type=\"over budget\" message=\"" + escapeMarkup(firstOver) + "\">" + escapeMarkup(lines) +
                 "</failure>\n";
        x += "      <system-out>" + escapeMarkup(lines) + "</system-out>\n";
        x += "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

} // namespace memviz
