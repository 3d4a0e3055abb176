// SPDX-License-Identifier: MIT
#include "formats/heaptrack/HeaptrackReader.h"

#include <algorithm>
#include <limits>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/heaptrack/HeaptrackFrameChunks.h"
#include "formats/heaptrack/HeaptrackModel.h"
#include "formats/heaptrack/HeaptrackStreamTables.h"
#include "formats/heaptrack/HeaptrackSuppressions.h"
#include "formats/heaptrack/HeaptrackTimeline.h"
#include "io/InputFile.h"
#include "io/LineReader.h"
#include "store/TraceWriter.h"

namespace memviz {

namespace {

// The newest file format this reader knows (heaptrack 1.3 and later write 3).
constexpr std::uint64_t kNewestFileVersion = 3;
// heaptrack 1.0 betas wrote their program version where the file version belongs.
constexpr std::uint64_t kLegacyV1Marker = 0x010200;
constexpr std::size_t kMaxIndex = std::numeric_limits<std::int32_t>::max();

// Thrown for a bad last line that has no newline: the recording was cut off mid-write.
struct CutOffLine {};

constexpr unsigned char kNotHex = 0xff;

struct HexTable {
    unsigned char digit[256];
    constexpr HexTable() : digit() {
        for (int i = 0; i < 256; ++i) digit[i] = kNotHex;
        for (int i = 0; i < 10; ++i) digit['0' + i] = static_cast<unsigned char>(i);
        for (int i = 0; i < 6; ++i) {
            digit['a' + i] = static_cast<unsigned char>(10 + i);
            digit['A' + i] = static_cast<unsigned char>(10 + i);
        }
    }
};
constexpr HexTable kHex;

std::string hexText(std::uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    do {
        s.insert(s.begin(), digits[v & 15]);
        v >>= 4;
    } while (v);
    return s;
}

} // namespace

// The space-separated hex fields after a record's type character.
class HeaptrackReader::Fields {
public:
    Fields(const HeaptrackReader& reader, std::string_view line)
        : reader_(reader), p_(line.data() + 1), end_(line.data() + line.size()) {}

    bool atEnd() const { return p_ >= end_; }
    // The next hex field; fails with `what` when it is missing or not a hex number.
    std::uint64_t hex(const char* what) {
        std::uint64_t v = 0;
        if (!tryHex(v)) [[unlikely]]
            failHex(what);
        return v;
    }
    std::int64_t signedHex(const char* what) {
        const std::uint64_t v = hex(what);
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            reader_.fail(std::string("field ") + what + " is out of range");
        return static_cast<std::int64_t>(v);
    }
    // LineReader follows every line with readable bytes, the first of them a line end or 0 (not
    // hex digits): the digit loop stops there without a bounds check of its own.
    bool tryHex(std::uint64_t& out) {
        if (p_ >= end_ || *p_ != ' ') return false;
        const char* s = p_ + 1;
        const char* q = s;
        std::uint64_t v = 0;
        for (unsigned char d; (d = kHex.digit[static_cast<unsigned char>(*q)]) != kNotHex; ++q) v = (v << 4) | d;
        if (q == s || q - s > 16 || (q < end_ && *q != ' ')) return false;
        p_ = q;
        out = v;
        return true;
    }
    void expectEnd() {
        if (!atEnd()) reader_.fail("unexpected text after the last field");
    }
    // The text after the next space (a string's payload).
    std::string_view rest() {
        if (p_ >= end_ || *p_ != ' ') reader_.fail("missing field: text");
        return std::string_view(p_ + 1, static_cast<std::size_t>(end_ - p_ - 1));
    }

private:
    [[noreturn, gnu::noinline, gnu::cold]] void failHex(const char* what) const {
        if (atEnd()) reader_.fail(std::string("missing field: ") + what);
        reader_.fail(std::string("field ") + what + " is not a hex number");
    }

    const HeaptrackReader& reader_;
    const char* p_;
    const char* end_;
};

HeaptrackReader::HeaptrackReader(LineReader& lines, TraceWriter& out, HeaptrackModel& model, HeaptrackTimeline& timeline)
    : lines_(lines), out_(out), model_(model), timeline_(timeline) {}

std::string HeaptrackReader::location() const {
    return "line " + std::to_string(lines_.lineNumber()) + " (byte " + std::to_string(lines_.lineOffset()) + ")";
}

void HeaptrackReader::fail(const std::string& message) const {
    if (lines_.lastLineUnterminated()) throw CutOffLine{};
    throw ImportError(lines_.input().path() + ": " + location() + ", `" + std::string(1, record_) + "` record: " + message);
}

// The whole of `text` as a hex number of at most 16 digits.
static bool parseHexField(std::string_view text, std::uint64_t& out) {
    if (text.empty() || text.size() > 16) return false;
    std::uint64_t v = 0;
    for (const char c : text) {
        const unsigned char d = kHex.digit[static_cast<unsigned char>(c)];
        if (d == kNotHex) return false;
        v = (v << 4) | d;
    }
    out = v;
    return true;
}

void HeaptrackReader::run(const Progress& progress) {
    std::string_view line;
    while (lines_.next(line)) {
        // Most lines are "+ INDEX" or "- INDEX" naming a defined info; anything else, or
        // anything wrong with them, takes the general path, which also reports errors.
        std::uint64_t index = 0;
        if (line.size() > 2 && line[1] == ' ' && (line[0] == '+' || line[0] == '-') && haveVersion_ &&
            parseHexField(line.substr(2), index) && index < model_.infos.size()) {
            if (line[0] == '+') allocate(index);
            else deallocate(index);
            if ((lines_.lineNumber() & 0xffff) == 0) progress.update(lines_.fileOffset(), lines_.input().fileSize());
            continue;
        }
        try {
            // The second most common record (a third of a real recording's lines).
            if (line.size() > 1 && line[0] == 't' && line[1] == ' ' && haveVersion_) {
                record_ = 't';
                Fields f(*this, line);
                onTraceNode(f);
            } else {
                dispatch(line);
            }
        } catch (const CutOffLine&) {
            out_.warn("truncated_last_line", location(),
                      "the last line is incomplete (the recording was cut off); it was ignored");
        }
        if ((lines_.lineNumber() & 0xffff) == 0) progress.update(lines_.fileOffset(), lines_.input().fileSize());
    }
    if (!haveVersion_) throw ImportError(lines_.input().path() + ": not a heaptrack file (no `v` version line)");
}

void HeaptrackReader::requireVersion() {
    if (!haveVersion_) fail("comes before the `v` version line");
}

void HeaptrackReader::dispatch(std::string_view line) {
    if (line.empty()) return;
    record_ = line[0];
    if (record_ == '#') return;
    if (record_ == 'v') {
        Fields f(*this, line);
        onVersion(f);
        return;
    }
    requireVersion();
    if (line.size() > 1 && line[1] != ' ') fail("the record type is not followed by a space");
    Fields f(*this, line);
    switch (record_) {
    case '+': onAllocation(f); break;
    case '-': onDeallocation(f); break;
    case 'a': onAllocationInfo(f); break;
    case 't': onTraceNode(f); break;
    case 'i': onInstructionPointer(f); break;
    case 's': onString(line); break;
    case 'c': onTime(f); break;
    case 'R': {
        const std::int64_t pages = f.signedHex("rss pages");
        f.expectEnd();
        checkRssBytes(pages);
        timeline_.rss(pages);
        model_.totals.peakRssPages = std::max(model_.totals.peakRssPages, pages);
        break;
    }
    case 'I':
        header_.pageSize = f.signedHex("page size");
        header_.physicalPages = f.signedHex("pages");
        f.expectEnd();
        checkRssBytes(model_.totals.peakRssPages);
        if (header_.physicalPages > 0 && header_.pageSize > std::numeric_limits<std::int64_t>::max() / header_.physicalPages)
            fail("page size times pages is past 2^63 - 1 bytes");
        break;
    case 'X':
        if (haveCommand_) fail("a second `X` (debuggee) record; the file is corrupt");
        haveCommand_ = true;
        header_.command = std::string(line.size() > 2 ? line.substr(2) : std::string_view());
        break;
    case 'A': header_.attached = true; break;
    case 'm':
        // libheaptrack's own output, before heaptrack_interpret resolves it: `m` maps a module
        // (its first record after the header), `t` and `+` carry raw addresses. heaptrack_print
        // cannot read it either. (Its `x` record, the executable's path, counts as unknown.)
        fail("raw heaptrack data (as libheaptrack writes it before heaptrack_interpret resolves addresses; "
             "heaptrack -r keeps it): convert it with `heaptrack_interpret < FILE | zstd > FILE.zst` and open that");
    case 'S':
        if (auto pattern = parseSuppressionLine(line.substr(1))) model_.suppressions.push_back(std::move(*pattern));
        break;
    default: out_.warn("unknown_record", location(), "records of an unknown type; they were ignored"); break;
    }
}

// Not fail(): a cut-off last line is ignored only for what it cannot say, and the fast path of
// run() calls allocate() outside the handler of that case.
void HeaptrackReader::failTotals(const char* record, const std::string& message) const {
    throw ImportError(lines_.input().path() + ": " + location() + ", `" + record + "` record: " + message);
}

// RSS is stored in bytes: pages times the page size must fit int64.
void HeaptrackReader::checkRssBytes(std::int64_t pages) const {
    if (pages > 0 && header_.pageSize > std::numeric_limits<std::int64_t>::max() / pages)
        fail("rss of " + std::to_string(pages) + " pages of " + std::to_string(header_.pageSize) +
             " bytes is past 2^63 - 1 bytes");
}

void HeaptrackReader::onVersion(Fields& f) {
    if (haveVersion_) fail("a second version line");
    header_.heaptrackVersion = f.hex("heaptrack version");
    std::uint64_t fileVersion = 0;
    if (f.tryHex(fileVersion)) header_.fileVersion = fileVersion;
    else if (header_.heaptrackVersion == kLegacyV1Marker) header_.fileVersion = 1;
    else fail("missing field: file version");
    f.expectEnd();
    if (header_.fileVersion > kNewestFileVersion)
        fail("file format version " + std::to_string(header_.fileVersion) + " is newer than this memviz reads (up to " +
             std::to_string(kNewestFileVersion) + ")");
    if (header_.fileVersion == 0)
        fail("file format version 0 (heaptrack before 1.0, addresses instead of allocation infos) is not supported");
    haveVersion_ = true;
}

void HeaptrackReader::onString(std::string_view line) {
    if (model_.strings.size() > kMaxIndex) fail("too many strings");
    if (header_.fileVersion >= 3) {
        // Version 3 prefixes each string with its length in hex.
        Fields f(*this, line);
        const std::uint64_t length = f.hex("string length");
        const std::string_view text = f.rest();
        if (text.size() != length)
            fail("the string is " + std::to_string(text.size()) + " bytes long but its length field says " +
                 std::to_string(length));
        model_.addString(text);
    } else {
        if (line.size() < 2) fail("missing field: text");
        model_.addString(line.substr(2));
    }
}

std::uint32_t HeaptrackReader::stringIndex(Fields& f, const char* what) {
    const std::uint64_t index = f.hex(what);
    if (index >= model_.strings.size())
        fail(std::string(what) + " names string " + hexText(index) + ", but only " + hexText(model_.strings.size() - 1) +
             " strings are defined");
    return static_cast<std::uint32_t>(index);
}

void HeaptrackReader::onInstructionPointer(Fields& f) {
    if (model_.ips.size() > kMaxIndex) fail("too many instruction pointers");
    HeaptrackIp ip;
    ip.address = f.hex("instruction pointer");
    ip.module = stringIndex(f, "module");
    ip.inlinedBegin = static_cast<std::uint32_t>(model_.inlined.size());
    // Then frames of function, file, line. heaptrack_interpret leaves out the file and line
    // when it does not know them; heaptrack reads such a partial frame only as the first
    // one and ignores an incomplete inlined frame, and so do we.
    bool first = true;
    while (!f.atEnd()) {
        HeaptrackFrame frame;
        frame.function = stringIndex(f, "function");
        bool complete = false;
        if (!f.atEnd()) {
            frame.file = stringIndex(f, "file");
            if (!f.atEnd()) {
                const std::uint64_t line = f.hex("line");
                if (line > std::numeric_limits<std::uint32_t>::max()) fail("line number out of range");
                frame.line = static_cast<std::uint32_t>(line);
                complete = true;
            }
        }
        if (first) ip.frame = frame;
        else if (complete) model_.inlined.push_back(frame);
        if (model_.inlined.size() - ip.inlinedBegin > kHeaptrackMaxInlined)
            fail("more than " + std::to_string(kHeaptrackMaxInlined) +
                 " frames inlined into one instruction pointer (real recordings have a few dozen at most)");
        first = false;
        if (!complete) f.expectEnd();
    }
    ip.inlinedCount = static_cast<std::uint32_t>(model_.inlined.size()) - ip.inlinedBegin;
    model_.ips.push_back(ip);
    for (std::uint32_t s : model_.opNewStrings)
        if (ip.frame.function == s) model_.opNewIps.push_back(static_cast<std::uint32_t>(model_.ips.size() - 1));
    if (stream_) stream_->ipsAdded(model_);
}

void HeaptrackReader::onTraceNode(Fields& f) {
    if (model_.nodes.size() > kMaxIndex) fail("too many trace nodes");
    const std::uint64_t ip = f.hex("ip index");
    const std::uint64_t parent = f.hex("parent index");
    f.expectEnd();
    if (ip >= model_.ips.size())
        fail("ip index " + hexText(ip) + " is not defined (" + hexText(model_.ips.size() - 1) + " defined so far)");
    if (parent >= model_.nodes.size())
        fail("parent index " + hexText(parent) + " is not defined (" + hexText(model_.nodes.size() - 1) +
             " trace nodes defined so far)");
    model_.addNode(static_cast<std::uint32_t>(ip), static_cast<std::uint32_t>(parent));
    if (stream_) stream_->nodesAdded(model_);
}

void HeaptrackReader::onAllocationInfo(Fields& f) {
    if (model_.infos.size() > kMaxIndex) fail("too many allocation infos");
    const std::int64_t size = f.signedHex("size");
    const std::uint64_t node = f.hex("trace index");
    f.expectEnd();
    if (node >= model_.nodes.size())
        fail("trace index " + hexText(node) + " is not defined (" + hexText(model_.nodes.size() - 1) +
             " trace nodes defined so far)");
    model_.addInfo(size, static_cast<std::uint32_t>(node));
    const std::int32_t site = model_.siteOf(static_cast<std::uint32_t>(node));
    if (siteOps_.size() <= static_cast<std::size_t>(site)) siteOps_.resize(static_cast<std::size_t>(site) + 1, kNoName);
    std::int32_t& op = siteOps_[static_cast<std::size_t>(site)];
    if (op == kNoName) op = out_.name(NameKind::Op, model_.siteLabel(site));
    model_.infos.back().op = op;
    if (stream_) stream_->infosAdded(model_);
}

std::uint64_t HeaptrackReader::infoIndex(Fields& f) {
    const std::uint64_t index = f.hex("allocation info index");
    f.expectEnd();
    if (index >= model_.infos.size())
        fail("allocation info index " + hexText(index) + " is not defined (" + std::to_string(model_.infos.size()) +
             " allocation infos defined so far)");
    return index;
}

void HeaptrackReader::onAllocation(Fields& f) { allocate(infoIndex(f)); }

void HeaptrackReader::onDeallocation(Fields& f) { deallocate(infoIndex(f)); }

void HeaptrackReader::allocate(std::uint64_t index) {
    const HeaptrackInfo& info = model_.infos[index];
    if (__builtin_add_overflow(allocatedBytes_, info.size, &allocatedBytes_))
        failTotals("+", "the allocations add up past 2^63 - 1 bytes (8 EiB): sizes that large are not real");
    HeaptrackCost& cost = model_.costs[info.cost];
    model_.bump(cost, info.size);
    ++cost.allocations;
    ++model_.totals.calls;
    model_.totals.leaked += info.size;
    model_.notePeakCandidate(timeline_.timeMs());
    lastAllocated_ = index;
    timeline_.alloc(index, info.size, info.op);
}

void HeaptrackReader::deallocate(std::uint64_t index) {
    // heaptrack compares with the last `+` and then forgets it, so a `- 0` right after
    // another `-` also counts as temporary; we keep that to report the same figures.
    const bool temporary = lastAllocated_ == index;
    lastAllocated_ = 0;
    const HeaptrackInfo& info = model_.infos[index];
    if (__builtin_add_overflow(freedBytes_, info.size, &freedBytes_))
        failTotals("-", "the frees add up past 2^63 - 1 bytes (8 EiB): sizes that large are not real");
    HeaptrackCost& cost = model_.costs[info.cost];
    model_.bump(cost, -info.size);
    model_.totals.leaked -= info.size;
    if (temporary) {
        ++cost.temporary;
        ++model_.totals.temporary;
    }
    timeline_.free(index, info.size, info.op, temporary);
}

void HeaptrackReader::onTime(Fields& f) {
    const std::int64_t ms = f.signedHex("timestamp");
    f.expectEnd();
    if (ms > std::numeric_limits<std::int64_t>::max() / 1000000 - 1) fail("timestamp out of range");
    if (!timeline_.setTimeMs(ms))
        out_.warn("out_of_order_time", location(), "timestamps earlier than the one before them; the earlier time was kept");
}

} // namespace memviz
