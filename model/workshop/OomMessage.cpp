// SPDX-License-Identifier: MIT
#include "workshop/OomMessage.h"

#include <cctype>
#include <cmath>

namespace memviz::workshop {

const char* oomFormId(OomForm form) {
    switch (form) {
    case OomForm::Unrecognized: return "unrecognized";
    case OomForm::CpuNotEnoughMemory: return "cpu-not-enough-memory";
    case OomForm::CpuCannotAllocate: return "cpu-cannot-allocate";
    case OomForm::TorchLegacy: return "torch-legacy";
    case OomForm::GpuSemicolons: return "gpu-semicolons";
    case OomForm::GpuSentences: return "gpu-sentences";
    case OomForm::MpsBackend: return "mps-backend";
    case OomForm::GpuNoNumbers: return "gpu-no-numbers";
    }
    return "unrecognized";
}

namespace {

constexpr std::size_t npos = std::string::npos;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// The message with every run of whitespace as one space (logs wrap long lines), and a
// lower-case copy with the same offsets for case-insensitive searching.
struct Text {
    std::string norm, low;

    explicit Text(std::string_view raw) {
        norm.reserve(raw.size());
        bool space = false;
        for (char c : raw) {
            if (isSpace(c)) {
                space = true;
                continue;
            }
            if (space && !norm.empty()) norm += ' ';
            space = false;
            norm += c;
        }
        low = norm;
        for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }

    std::size_t find(std::string_view what, std::size_t from = 0) const { return low.find(what, from); }
    std::size_t rfind(std::string_view what) const { return low.rfind(what); }
};

// Bytes per unit; PyTorch's messages print powers of 1024, also where they write "GB" (the TH
// and MPS allocators), so every unit is binary here.
double unitBytes(std::string_view unit) {
    if (unit == "b" || unit == "byte" || unit == "bytes") return 1.0;
    if (unit == "kib" || unit == "kb" || unit == "k") return 1024.0;
    if (unit == "mib" || unit == "mb" || unit == "m") return 1048576.0;
    if (unit == "gib" || unit == "gb" || unit == "g") return 1073741824.0;
    if (unit == "tib" || unit == "tb" || unit == "t") return 1099511627776.0;
    return 0.0;
}

struct ParsedSize {
    PrintedSize size;
    std::size_t end = 0; // offset just after the unit
    double value = 0;
    double unit = 0;
};

// "20.00 MiB", "717574400 bytes", "22GB" at `at` (leading spaces skipped).
std::optional<ParsedSize> sizeAt(const Text& t, std::size_t at) {
    std::size_t i = at;
    while (i < t.low.size() && t.low[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < t.low.size() && isDigit(t.low[i])) ++i;
    if (i == start || i - start > 19) return std::nullopt;
    int decimals = 0;
    if (i + 1 < t.low.size() && t.low[i] == '.' && isDigit(t.low[i + 1])) {
        ++i;
        while (i < t.low.size() && isDigit(t.low[i])) {
            ++i;
            ++decimals;
        }
    }
    const std::string number = t.low.substr(start, i - start);
    std::size_t u = i;
    while (u < t.low.size() && t.low[u] == ' ') ++u;
    const std::size_t unitStart = u;
    while (u < t.low.size() && isAlpha(t.low[u])) ++u;
    const double unit = unitBytes(std::string_view(t.low).substr(unitStart, u - unitStart));
    if (unit == 0.0) return std::nullopt;
    ParsedSize p;
    p.value = std::strtod(number.c_str(), nullptr);
    p.unit = unit;
    const double bytes = p.value * unit;
    if (!(bytes < 9.0e18)) return std::nullopt; // beyond int64: not a real message
    p.size.bytes = std::llround(bytes);
    // Printed with `decimals` decimals: the value was rounded to half of the last digit.
    const double half = unit == 1.0 && decimals == 0 ? 0.0 : 0.5 * std::pow(10.0, -decimals) * unit;
    p.size.low = std::max<std::int64_t>(0, std::llround(std::ceil(bytes - half)));
    p.size.high = std::llround(std::floor(bytes + half));
    if (half == 0.0) p.size.low = p.size.high = p.size.bytes;
    p.size.text = t.norm.substr(start, u - start);
    p.end = u;
    return p;
}

// The size that follows `phrase` (searched in [from, to)).
std::optional<ParsedSize> sizeAfter(const Text& t, std::string_view phrase, std::size_t from, std::size_t to = npos) {
    const std::size_t at = t.find(phrase, from);
    if (at == npos || (to != npos && at >= to)) return std::nullopt;
    return sizeAt(t, at + phrase.size());
}

// The size right before offset `at` ("1.77 GiB allowed"): back over the unit and the number.
std::optional<ParsedSize> sizeBefore(const Text& t, std::size_t at) {
    std::size_t i = at;
    while (i > 0 && t.low[i - 1] == ' ') --i;
    while (i > 0 && isAlpha(t.low[i - 1])) --i;
    while (i > 0 && t.low[i - 1] == ' ') --i;
    while (i > 0 && (isDigit(t.low[i - 1]) || t.low[i - 1] == '.')) --i;
    return sizeAt(t, i);
}

std::optional<int> integerAt(const Text& t, std::size_t at, std::size_t* end = nullptr) {
    std::size_t i = at;
    while (i < t.low.size() && t.low[i] == ' ') ++i;
    const std::size_t start = i;
    long long v = 0;
    while (i < t.low.size() && isDigit(t.low[i]) && i - start < 9) v = v * 10 + (t.low[i++] - '0');
    if (i == start) return std::nullopt;
    if (end) *end = i;
    return static_cast<int>(v);
}

// The word before " out of memory" ("CUDA", "HIP", "XPU").
std::string backendBefore(const Text& t, std::size_t at) {
    std::size_t i = at;
    while (i > 0 && (isAlpha(t.norm[i - 1]) || isDigit(t.norm[i - 1]))) --i;
    std::string word = t.norm.substr(i, at - i);
    for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return word.empty() ? "GPU" : word;
}

void noteAdvice(const Text& t, OomMessage& m) {
    m.suggestsExpandableSegments = t.find("expandable_segments") != npos;
    m.suggestsMaxSplitSize = t.find("max_split_size_mb") != npos;
}

std::string excerpt(const Text& t, std::size_t from, std::size_t to) {
    to = std::min(to, t.norm.size());
    return from < to ? t.norm.substr(from, to - from) : std::string();
}

// "... ; 9.78 GiB already allocated; ..." inside the parentheses.
void parseSemicolonItems(const Text& t, std::size_t open, std::size_t close, OomMessage& m) {
    std::size_t item = open + 1;
    while (item < close) {
        std::size_t end = t.low.find(';', item);
        if (end == npos || end > close) end = close;
        const std::string_view text = std::string_view(t.low).substr(item, end - item);
        const auto has = [&](std::string_view w) { return text.find(w) != std::string_view::npos; };
        if (text.find("gpu") == 1 || text.find("gpu") == 0) {
            if (auto d = integerAt(t, item + text.find("gpu") + 3)) m.device = *d;
        } else if (auto s = sizeAt(t, item)) {
            if (has("total capacity")) m.total = s->size;
            else if (has("already allocated")) m.allocated = s->size;
            else if (has("reserved in total")) m.reserved = s->size;
            else if (has("cached")) m.reservedUnallocated = s->size;
            else if (has("allowed")) m.allowed = s->size;
            else if (has("free")) m.free = s->size;
        }
        item = end + 1;
    }
    if (m.reserved && m.allocated && !m.reservedUnallocated) {
        PrintedSize r;
        r.bytes = std::max<std::int64_t>(0, m.reserved->bytes - m.allocated->bytes);
        r.low = std::max<std::int64_t>(0, m.reserved->low - m.allocated->high);
        r.high = std::max<std::int64_t>(0, m.reserved->high - m.allocated->low);
        m.reservedUnallocated = r;
    }
    if (m.allocated && m.reservedUnallocated && !m.reserved) {
        PrintedSize r;
        r.bytes = m.allocated->bytes + m.reservedUnallocated->bytes;
        r.low = m.allocated->low + m.reservedUnallocated->low;
        r.high = m.allocated->high + m.reservedUnallocated->high;
        m.reserved = r;
    }
}

void parseSentences(const Text& t, std::size_t from, OomMessage& m, std::size_t& last) {
    const auto track = [&last](const std::optional<ParsedSize>& p) {
        if (p) last = std::max(last, p->end);
    };
    std::size_t cap = t.find(" has a total capacity of ", from);
    std::size_t capLen = 25;
    if (cap == npos) {
        cap = t.find(" has a total capacty of ", from); // PyTorch 2.1's spelling
        capLen = 24;
    }
    if (cap != npos) {
        // "GPU 0 has", "Device 0 has", "MLU 0 has": the index is the word before " has".
        std::size_t i = cap;
        while (i > from && isDigit(t.low[i - 1])) --i;
        if (auto d = integerAt(t, i)) m.device = *d;
        auto total = sizeAt(t, cap + capLen);
        if (total) {
            m.total = total->size;
            track(total);
            auto free = sizeAfter(t, " of which ", total->end, total->end + 12);
            if (free) {
                m.free = free->size;
                track(free);
            }
        }
    }
    for (std::size_t at = t.find("this process has ", from); at != npos; at = t.find("this process has ", at + 1)) {
        if (auto s = sizeAt(t, at + 17)) {
            m.processes.push_back({-1, s->size});
            track(s);
        }
    }
    for (std::size_t at = t.find("process ", from); at != npos; at = t.find("process ", at + 1)) {
        std::size_t end = 0;
        auto pid = integerAt(t, at + 8, &end);
        if (!pid || t.low.compare(end, 5, " has ") != 0) continue;
        if (auto s = sizeAt(t, end + 5)) {
            m.processes.push_back({*pid, s->size});
            track(s);
        }
    }
    const std::size_t allowed = t.find(" allowed;", from);
    if (allowed != npos)
        if (auto s = sizeBefore(t, allowed)) m.allowed = s->size;
    auto allocated = sizeAfter(t, "of the allocated memory ", from);
    if (allocated) {
        m.allocated = allocated->size;
        track(allocated);
        auto pools = sizeAfter(t, "with ", allocated->end, allocated->end + 40);
        if (pools && t.low.compare(pools->end, 29, " allocated in private pools (") == 0) m.privatePools = pools->size;
        auto unallocated = sizeAfter(t, "and ", allocated->end, allocated->end + 160);
        if (unallocated) {
            m.reservedUnallocated = unallocated->size;
            last = std::max(last, t.find("unallocated", unallocated->end) == npos ? unallocated->end
                                                                                  : t.find("unallocated", unallocated->end) + 11);
            PrintedSize r;
            r.bytes = m.allocated->bytes + unallocated->size.bytes;
            r.low = m.allocated->low + unallocated->size.low;
            r.high = m.allocated->high + unallocated->size.high;
            m.reserved = r;
        }
    }
}

bool parseGpu(const Text& t, OomMessage& m) {
    const std::size_t anchor = t.rfind("out of memory. tried to allocate ");
    if (anchor == npos) return false;
    auto request = sizeAt(t, anchor + 33);
    if (!request) return false;
    m.backend = backendBefore(t, anchor > 0 ? anchor - 1 : 0);
    const std::size_t start = anchor >= m.backend.size() + 1 ? anchor - m.backend.size() - 1 : anchor;
    m.request = request->size;
    std::size_t last = request->end;
    std::size_t i = request->end;
    while (i < t.low.size() && t.low[i] == ' ') ++i;
    if (i < t.low.size() && t.low[i] == '(') {
        m.form = OomForm::GpuSemicolons;
        std::size_t close = t.low.find(')', i);
        if (close == npos) close = t.low.size();
        parseSemicolonItems(t, i, close, m);
        last = std::min(close + 1, t.low.size());
    } else {
        m.form = OomForm::GpuSentences;
        parseSentences(t, request->end, m, last);
        if (last < t.low.size() && t.low[last] == '.') ++last;
    }
    noteAdvice(t, m);
    m.excerpt = excerpt(t, start, last);
    return true;
}

bool parseMps(const Text& t, OomMessage& m) {
    const std::size_t anchor = t.rfind("mps backend out of memory");
    if (anchor == npos) return false;
    m.form = OomForm::MpsBackend;
    m.backend = "MPS";
    std::size_t last = anchor + 25;
    const auto take = [&](std::string_view phrase, std::optional<PrintedSize>& into) {
        if (auto s = sizeAfter(t, phrase, anchor, anchor + 400)) {
            into = s->size;
            last = std::max(last, s->end);
        }
    };
    take("mps allocated: ", m.allocated);
    take("other allocations: ", m.otherAllocations);
    take("max allowed: ", m.allowed);
    take("tried to allocate ", m.request);
    const std::size_t pool = t.find(" on private pool", last);
    if (pool == last) last += 16;
    if (last < t.low.size() && t.low[last] == '.') ++last;
    noteAdvice(t, m);
    m.excerpt = excerpt(t, anchor, last);
    return true;
}

bool parseCpu(const Text& t, OomMessage& m) {
    const std::size_t anchor = t.rfind("you tried to allocate ");
    if (anchor == npos) return false;
    auto request = sizeAt(t, anchor + 22);
    if (!request) return false;
    m.backend = "CPU";
    std::size_t start = anchor;
    const std::size_t legacy = t.rfind("torch: not enough memory");
    const std::size_t cannot = t.rfind("can't allocate memory");
    const std::size_t allocator = t.rfind("defaultcpuallocator");
    if (cannot != npos && cannot < anchor) {
        m.form = OomForm::CpuCannotAllocate;
        start = cannot;
    } else if (legacy != npos && legacy < anchor) {
        m.form = OomForm::TorchLegacy;
        start = legacy;
    } else {
        m.form = OomForm::CpuNotEnoughMemory;
        const std::size_t nem = t.rfind("not enough memory");
        if (nem != npos && nem < anchor) start = nem;
    }
    if (allocator != npos && allocator < start && start - allocator < 25) start = allocator;
    m.request = request->size;
    if (m.form == OomForm::TorchLegacy && request->unit > 1.0) {
        // TH printed size / 2^30 as an integer: the true size is up to 1 unit more.
        m.request->low = request->size.bytes;
        m.request->high = request->size.bytes + static_cast<std::int64_t>(request->unit) - 1;
    }
    std::size_t last = request->end;
    const std::size_t code = t.find("error code ", request->end);
    if (code != npos && code < request->end + 8) {
        std::size_t end = 0;
        if (auto c = integerAt(t, code + 11, &end)) {
            m.errorCode = *c;
            last = end;
            if (end + 1 < t.norm.size() && t.norm.compare(end, 2, " (") == 0) {
                const std::size_t close = t.norm.find(')', end);
                if (close != npos && close - end < 80) {
                    m.errorText = t.norm.substr(end + 2, close - end - 2);
                    last = close + 1;
                }
            }
        }
    }
    const std::size_t ram = t.find("buy new ram", request->end);
    if (ram != npos && ram < request->end + 8) {
        m.buyNewRam = true;
        last = ram + 11;
        if (last < t.low.size() && t.low[last] == '!') ++last;
    } else if (last < t.low.size() && t.low[last] == '.') {
        ++last;
    }
    m.excerpt = excerpt(t, start, last);
    return true;
}

bool parseNoNumbers(const Text& t, OomMessage& m) {
    for (const char* phrase : {"cuda error: out of memory", "hip error: out of memory", "cudaerrormemoryallocation",
                               "cublas_status_alloc_failed", "cuda out of memory"}) {
        const std::size_t at = t.rfind(phrase);
        if (at == npos) continue;
        m.form = OomForm::GpuNoNumbers;
        m.backend = t.low.compare(at, 3, "hip") == 0 ? "HIP" : "CUDA";
        m.excerpt = excerpt(t, at, at + std::string_view(phrase).size());
        return true;
    }
    return false;
}

} // namespace

OomMessage parseOomMessage(std::string_view text) {
    // A pasted log can be long; the message is at most a few hundred characters, so only the
    // last megabyte is read (the last message is the one that stopped the program).
    constexpr std::size_t kMaxText = 1 << 20;
    if (text.size() > kMaxText) text = text.substr(text.size() - kMaxText);
    const Text t(text);
    OomMessage m;
    if (parseMps(t, m) || parseGpu(t, m) || parseCpu(t, m) || parseNoNumbers(t, m)) return m;
    return OomMessage{};
}

} // namespace memviz::workshop
