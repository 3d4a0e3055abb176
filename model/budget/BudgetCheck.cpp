// SPDX-License-Identifier: MIT
// Budgets against a trace (see BudgetCheck.h).
#include "budget/BudgetCheck.h"

#include <algorithm>
#include <cmath>
#include <fnmatch.h>
#include <strings.h>

namespace memviz {

namespace {

bool sameName(const std::string& a, const std::string& b) { return strcasecmp(a.c_str(), b.c_str()) == 0; }

std::string deviceList(const TraceSummary& s) {
    std::string out;
    for (const DeviceSummary& d : s.devices) out += (out.empty() ? "" : ", ") + d.name;
    return out.empty() ? "none" : out;
}

// The devices a budget covers; BudgetError when it names one the trace does not have.
std::vector<const DeviceSummary*> devicesOf(const Budget& b, const TraceSummary& s) {
    std::vector<const DeviceSummary*> out;
    for (const DeviceSummary& d : s.devices)
        if (b.device.empty() || sameName(b.device, d.name)) out.push_back(&d);
    if (out.empty())
        throw BudgetError(budgetText(b) + ": the trace has no device \"" + b.device + "\" (it has " + deviceList(s) + ")");
    return out;
}

const DeviceSummary* findDevice(const TraceSummary& s, const std::string& name) {
    for (const DeviceSummary& d : s.devices)
        if (sameName(d.name, name)) return &d;
    return nullptr;
}

void checkSameDevices(const TraceSummary& a, const TraceSummary& base) {
    bool same = a.devices.size() == base.devices.size();
    for (const DeviceSummary& d : a.devices) same = same && findDevice(base, d.name);
    if (!same)
        throw BudgetError("the trace and its baseline record different devices (trace: " + deviceList(a) +
                          "; baseline: " + deviceList(base) + ")");
}

BudgetMeasure measure(std::string subject, std::int64_t value, std::int64_t limit) {
    return {std::move(subject), value, limit, std::nullopt, value > limit};
}

std::string fewNames(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 8; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > 8) out += ", ...";
    return out.empty() ? "none" : out;
}

} // namespace

bool BudgetResult::passed() const {
    return std::none_of(measures.begin(), measures.end(), [](const BudgetMeasure& m) { return m.over; });
}

bool globMatch(const std::string& pattern, const std::string& text) { return fnmatch(pattern.c_str(), text.c_str(), 0) == 0; }

std::vector<BudgetResult> checkBudgets(const std::vector<Budget>& budgets, const TraceFacts& trace, const TraceFacts* baseline) {
    if (budgets.empty()) throw BudgetError("no budgets given (--max-peak, --max-growth, --max, --max-leaked or --budgets FILE)");
    if (emptyTrace(trace.summary)) throw BudgetError("the trace records no memory events; there is nothing to check");
    if (baseline) {
        if (emptyTrace(baseline->summary)) throw BudgetError("the baseline records no memory events");
        checkSameDevices(trace.summary, baseline->summary);
    }
    std::vector<BudgetResult> out;
    for (const Budget& b : budgets) {
        BudgetResult r{b, "", {}};
        switch (b.kind) {
        case BudgetKind::Peak:
            r.what = "peak of live bytes";
            for (const DeviceSummary* d : devicesOf(b, trace.summary)) r.measures.push_back(measure(d->name, d->peakBytes, b.maxBytes));
            break;
        case BudgetKind::Growth: {
            if (!baseline) throw BudgetError(budgetText(b) + ": a growth budget needs --baseline FILE|STORE#ID");
            r.what = "peak over the baseline's peak";
            for (const DeviceSummary* d : devicesOf(b, trace.summary)) {
                const DeviceSummary* base = findDevice(baseline->summary, d->name);
                if (!base) throw BudgetError(budgetText(b) + ": the baseline has no device \"" + d->name + "\"");
                const long double allowed = static_cast<long double>(base->peakBytes) * (1.0L + b.maxPercent / 100.0L);
                BudgetMeasure m{d->name, d->peakBytes, static_cast<std::int64_t>(std::floor(allowed)), base->peakBytes,
                                static_cast<long double>(d->peakBytes) > allowed};
                r.measures.push_back(m);
            }
            break;
        }
        case BudgetKind::Leaked:
            r.what = trace.heaptrackLeaked ? "bytes leaked, as heaptrack_print counts them" : "bytes alive at the end of the trace";
            for (const DeviceSummary* d : devicesOf(b, trace.summary))
                r.measures.push_back(measure(d->name, trace.heaptrackLeaked.value_or(d->finalBytes), b.maxBytes));
            break;
        case BudgetKind::Category: {
            if (!trace.hasCategories)
                throw BudgetError(budgetText(b) + ": a " + trace.summary.trace.format +
                                  " trace has no memory categories (memory-timeline exports, massif and estimates do)");
            r.what = "bytes of the category at its device's peak";
            std::vector<std::string> names;
            for (const CategoryFact& c : trace.categories) {
                if (std::find(names.begin(), names.end(), c.name) == names.end()) names.push_back(c.name);
                if (sameName(c.name, b.name)) r.measures.push_back(measure(c.device, c.bytesAtPeak, b.maxBytes));
            }
            if (r.measures.empty())
                throw BudgetError(budgetText(b) + ": the trace has no category \"" + b.name + "\" (it has " + fewNames(names) + ")");
            break;
        }
        case BudgetKind::Op: {
            r.what = "bytes the operator allocated (every device)";
            std::vector<std::string> names;
            for (const OpRow& o : trace.ops) {
                names.push_back(o.name);
                if (o.name == b.name) r.measures.push_back(measure(o.name, o.bytesAllocated, b.maxBytes));
            }
            if (r.measures.empty())
                throw BudgetError(budgetText(b) + ": the trace has no operator \"" + b.name + "\" (largest: " + fewNames(names) + ")");
            break;
        }
        case BudgetKind::Site: {
            if (!trace.hasSites)
                throw BudgetError(budgetText(b) + ": a " + trace.summary.trace.format +
                                  " trace has no allocation sites (heaptrack and massif recordings do)");
            r.what = trace.sitesWhat;
            for (const SiteFact& s : trace.sites) {
                const std::string location = s.file + (s.line > 0 ? ":" + std::to_string(s.line) : std::string());
                if (globMatch(b.name, s.function) || (!s.file.empty() && globMatch(b.name, location)) ||
                    (!s.module.empty() && globMatch(b.name, s.module)))
                    r.measures.push_back(measure(s.label(), s.bytes, b.maxBytes));
            }
            if (r.measures.empty()) throw BudgetError(budgetText(b) + ": no allocation site matches \"" + b.name + "\"");
            break;
        }
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace memviz
