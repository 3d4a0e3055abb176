// SPDX-License-Identifier: MIT
#include "formats/memtimeline/MemoryTimelineImporter.h"

#include <simdjson.h>

#include <array>
#include <limits>
#include <optional>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatIds.h"
#include "io/InputFile.h"
#include "io/JsonError.h"
#include "store/TraceWriter.h"

namespace memviz {

const char* const kMemoryCategories[8] = {"parameter",  "optimizer state", "input",           "temporary",
                                          "activation", "gradient",        "autograd detail", "unknown"};

namespace {

namespace od = simdjson::ondemand;
constexpr std::size_t kMaxBytes = std::size_t{16} << 30;
constexpr int kCategories = 8;

enum class Shape { Raw, Coalesced, Unknown };

Shape shapeOf(std::string_view head) {
    const std::size_t a = head.find_first_not_of(" \t\r\n");
    if (a == std::string_view::npos || head[a] != '[') return Shape::Unknown;
    const std::size_t b = head.find_first_not_of(" \t\r\n", a + 1);
    if (b == std::string_view::npos || head[b] != '[') return Shape::Unknown;
    const std::size_t close = head.find(']', b);
    if (close == std::string_view::npos) return head.size() > 60000 ? Shape::Coalesced : Shape::Unknown;
    const std::string_view first = head.substr(b + 1, close - b - 1);
    if (first.find_first_not_of("0123456789-+., \t\r\neE") != std::string_view::npos) return Shape::Unknown;
    const std::size_t comma = head.find_first_not_of(" \t\r\n", close + 1);
    if (comma == std::string_view::npos || head[comma] != ',') return Shape::Unknown;
    const std::size_t next = head.find_first_not_of(" \t\r\n", comma + 1);
    if (next == std::string_view::npos || head[next] != '[') return Shape::Unknown;
    const std::size_t after = head.find_first_not_of(" \t\r\n", next + 1);
    if (after != std::string_view::npos && head[after] == '[') return Shape::Coalesced;
    std::size_t commas = 0;
    for (char c : first) commas += c == ',';
    return commas == 3 ? Shape::Raw : Shape::Unknown;
}

class Builder {
public:
    Builder(TraceWriter& out, bool withEvents) : out_(out), withEvents_(withEvents) {
        device_ = out.device("profiled device"); // the export does not say which one
        total_ = out.createSeries(device_, "total", "bytes", true);
        for (int c = 0; c < kCategories; ++c)
            stack_[static_cast<std::size_t>(c)] = out.createSeries(device_, kMemoryCategories[c], "bytes", false, kSeriesStacked);
        for (int c = 0; c < kCategories; ++c)
            categoryName_[static_cast<std::size_t>(c)] = out.name(NameKind::Category, kMemoryCategories[c]);
    }
    // Sizes per category at time t (ns from the start), and their total (totalOf).
    void point(std::int64_t t, const std::array<std::int64_t, kCategories>& sizes, std::int64_t total) {
        for (std::size_t c = 0; c < kCategories; ++c) out_.addPoint(stack_[c], t, sizes[c]);
        out_.addPoint(total_, t, total);
    }
    void event(std::int64_t t, bool alloc, std::int64_t bytes, int category) {
        if (!withEvents_) return;
        Event e;
        e.timeNs = t;
        e.device = device_;
        e.kind = alloc ? EventKind::Alloc : EventKind::Free;
        e.size = bytes < 0 ? -bytes : bytes;
        e.category = categoryName_[static_cast<std::size_t>(category)];
        out_.addEvent(e);
    }

private:
    TraceWriter& out_;
    bool withEvents_;
    std::uint16_t device_ = 0;
    std::int64_t total_ = 0;
    std::array<std::int64_t, kCategories> stack_{};
    std::array<std::int32_t, kCategories> categoryName_{};
};

[[noreturn]] void fail(const InputFile& in, std::string_view where, const std::string& what) {
    throw ImportError(in.path() + ": " + std::string(where) + ": " + what);
}

// Byte counts past int64 are no real export; they would overflow the sums (undefined).
const char* const kTooManyBytes = "the byte counts add up past 2^63 - 1 (a damaged file?)";

std::optional<std::int64_t> totalOf(const std::array<std::int64_t, kCategories>& sizes) {
    std::int64_t total = 0;
    for (const std::int64_t v : sizes)
        if (__builtin_add_overflow(total, v, &total)) return std::nullopt;
    return total;
}

std::int64_t integer(od::value v, const InputFile& in, const std::string& where) {
    std::int64_t n = 0;
    if (v.get_int64().get(n)) {
        // 1.0e3 is an integer too; the range is checked before the conversion, which is
        // undefined for a double outside int64.
        double d = 0;
        if (v.get_double().get(d) || !(d > -9.2e18 && d < 9.2e18) || d != static_cast<double>(static_cast<std::int64_t>(d)))
            fail(in, where, "expected an integer (in int64's range)");
        n = static_cast<std::int64_t>(d);
    }
    return n;
}

// [[t_ns, action, bytes, category], ...]: actions 1 PREEXISTING (t = -1), 2 CREATE,
// 3 INCREMENT_VERSION, 4 DESTROY; bytes are signed.
void readRaw(od::document& doc, const InputFile& in, TraceWriter& out, const Progress& progress, std::string& where) {
    struct Row {
        std::int64_t t, action, bytes, category;
    };
    std::vector<Row> rows;
    std::int64_t index = 0;
    for (auto element : doc.get_array()) {
        where = "row " + std::to_string(index);
        od::array row = element.get_array();
        std::array<std::int64_t, 4> v{};
        std::size_t n = 0;
        for (auto x : row) {
            if (n == 4) fail(in, where, "expected 4 numbers [t_ns, action, bytes, category], found more");
            v[n++] = integer(x.value(), in, where);
        }
        if (n != 4) fail(in, where, "expected 4 numbers [t_ns, action, bytes, category], found " + std::to_string(n));
        rows.push_back({v[0], v[1], v[2], v[3]});
        if ((++index & 0xffff) == 0) progress.checkCancelled();
    }
    std::int64_t tMin = std::numeric_limits<std::int64_t>::max();
    for (const Row& r : rows)
        if (r.t >= 0) tMin = std::min(tMin, r.t);
    if (tMin == std::numeric_limits<std::int64_t>::max()) tMin = 0;
    out.setEpochNs(tMin);
    Builder b(out, true);
    std::array<std::int64_t, kCategories> sizes{};
    std::int64_t total = 0;
    std::int64_t lastT = 0;
    bool pending = false;
    std::int64_t skipped = 0;
    std::string firstSkip;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        if (r.action < 1 || r.action > 4 || r.category < 0 || r.category >= kCategories) {
            if (skipped++ == 0) firstSkip = "row " + std::to_string(i);
            continue;
        }
        // Pre-existing tensors appear at the first timestamp, as PyTorch's own plot does.
        std::int64_t t = r.t < 0 ? 0 : r.t - tMin;
        if (t < lastT) t = lastT;
        if (pending && t != lastT) b.point(lastT, sizes, total);
        lastT = t;
        pending = true;
        if (r.bytes == std::numeric_limits<std::int64_t>::min())
            fail(in, "row " + std::to_string(i), "bytes out of range (-2^63)");
        std::int64_t& size = sizes[static_cast<std::size_t>(r.category)];
        if (__builtin_add_overflow(size, r.bytes, &size) || __builtin_add_overflow(total, r.bytes, &total)) // total: their sum
            fail(in, "row " + std::to_string(i), kTooManyBytes);
        if (r.action == 1 || r.action == 2) b.event(t, true, r.bytes, static_cast<int>(r.category));
        else if (r.action == 4) b.event(t, false, r.bytes, static_cast<int>(r.category));
    }
    if (pending) b.point(lastT, sizes, total);
    out.warn("bad_row", firstSkip, "rows with an unknown action or category, skipped", skipped);
}

// [[t0_us, t1_us, ...], [[0, c0, ..., c7], ...]]: category bytes at each time.
void readCoalesced(od::document& doc, const InputFile& in, TraceWriter& out, const Progress& progress, std::string& where) {
    od::array outer = doc.get_array();
    std::vector<std::int64_t> times;
    std::vector<std::array<std::int64_t, kCategories>> sizes;
    std::size_t part = 0;
    for (auto element : outer) {
        if (part == 0) {
            std::int64_t i = 0;
            where = "times";
            for (auto t : element.get_array()) {
                where = "times[" + std::to_string(i++) + "]";
                times.push_back(integer(t.value(), in, where));
            }
        } else if (part == 1) {
            std::int64_t i = 0;
            where = "sizes";
            for (auto row : element.get_array()) {
                where = "sizes[" + std::to_string(i++) + "]";
                std::array<std::int64_t, kCategories> s{};
                std::size_t n = 0;
                for (auto x : row.get_array()) {
                    const std::int64_t v = integer(x.value(), in, where);
                    if (n >= 1 && n <= kCategories) s[n - 1] = v;
                    ++n;
                }
                if (n != kCategories + 1) fail(in, where, "expected 9 numbers per row, found " + std::to_string(n));
                sizes.push_back(s);
                if ((i & 0xffff) == 0) progress.checkCancelled();
            }
        } else {
            fail(in, "top level", "expected [times, sizes], found more than two lists");
        }
        ++part;
    }
    if (part != 2) fail(in, "top level", "expected [times, sizes]");
    if (times.size() != sizes.size())
        fail(in, "top level", std::to_string(times.size()) + " times but " + std::to_string(sizes.size()) + " rows of sizes");
    // Times are microseconds: in nanoseconds (and from the first) they must still fit int64.
    const std::int64_t t0 = times.empty() ? 0 : times.front();
    std::int64_t epochNs = 0;
    if (__builtin_mul_overflow(t0, 1000, &epochNs)) fail(in, "times[0]", "out of range (microseconds past int64 nanoseconds)");
    out.setEpochNs(epochNs);
    Builder b(out, false);
    std::int64_t last = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const std::string at = "times[" + std::to_string(i) + "]";
        std::int64_t t = 0;
        if (__builtin_sub_overflow(times[i], t0, &t) || __builtin_mul_overflow(t, 1000, &t))
            fail(in, at, "out of range (microseconds past int64 nanoseconds from times[0])");
        if (t < last) t = last;
        last = t;
        const auto total = totalOf(sizes[i]);
        if (!total) fail(in, "sizes[" + std::to_string(i) + "]", kTooManyBytes);
        b.point(t, sizes[i], *total);
    }
}

} // namespace

std::vector<std::string> MemoryTimelineImporter::filePatterns() const {
    return {"*.raw.json", "*.raw.json.gz", "*.json", "*.json.gz"};
}

int MemoryTimelineImporter::sniff(std::string_view head, std::string_view) const {
    return shapeOf(head) == Shape::Unknown ? 0 : 90;
}

void MemoryTimelineImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    const std::string json = in.readAll(kMaxBytes, simdjson::SIMDJSON_PADDING);
    const Shape shape = shapeOf(std::string_view(json).substr(0, 65536));
    od::parser parser;
    od::document doc;
    bool created = false; // a document iterate() did not create must not be asked where it is
    std::string where;    // the row being read, for errors that have no byte offset
    try {
        auto result = parser.iterate(json.data(), json.size(), json.capacity());
        if (result.error()) throw simdjson::simdjson_error(result.error());
        doc = std::move(result.value_unsafe());
        created = true;
        if (shape == Shape::Raw) readRaw(doc, in, out, progress, where);
        else readCoalesced(doc, in, out, progress, where);
        where.clear();
        if (!jsonAtEnd(doc)) fail(in, "after the data", "unexpected text");
    } catch (const simdjson::simdjson_error& e) {
        throw ImportError(describeJsonError(in.path(), json, created ? &doc : nullptr, e.error(), std::nullopt, where));
    }
    out.setMetadata(metadata_key::kStacked, "memory categories");
}

} // namespace memviz
