// SPDX-License-Identifier: MIT
#include "cli/AllocatorReplayOutput.h"

#include <QJsonArray>
#include <QStringList>

#include "words/UnitTexts.h"

namespace memviz::cli {

namespace {

using costmodel::AllocatorAction;

QJsonArray stepsJson(const std::vector<costmodel::ReservedStep>& steps) {
    QJsonArray a;
    for (const auto& s : steps)
        a.append(QJsonObject{{"entry", qint64(s.seq)}, {"reserved", qint64(s.reserved)}, {"request", qint64(s.request)}});
    return a;
}

QString yesNo(bool b) { return b ? QStringLiteral("exact") : QStringLiteral("differs"); }

} // namespace

QJsonObject gapJson(const costmodel::ReservedGap& g) {
    return QJsonObject{{"reserved", qint64(g.reserved)},
                       {"allocated", qint64(g.allocated)},
                       {"requested", qint64(g.requested)},
                       {"rounding", qint64(g.rounding)},
                       {"split_free_small", qint64(g.splitFreeSmall)},
                       {"split_free_large", qint64(g.splitFreeLarge)},
                       {"pending_free", qint64(g.pendingFree)},
                       {"cached_segments", qint64(g.cachedSegments)},
                       {"cached_segment_count", qint64(g.cachedSegmentCount)},
                       {"largest_free_block", qint64(g.largestFreeBlock)},
                       {"segments", qint64(g.segments)}};
}

QString cardFailureReason(const costmodel::CardFailure& f) {
    if (f.seq < 0)
        return QStringLiteral("the segments alive when the trace starts reserve %1 with nothing cached to give back, more than the card's %2")
            .arg(words::bytes(f.failure.reservedBefore), words::bytes(f.cardBytes));
    QString s = QStringLiteral("entry %1 asks for %2 (%3 rounded); no cached block of its pool fits (the largest free block is %4), "
                               "and a new segment of %5 would bring reserved from %6 to %7, over the card's %8 even after "
                               "the whole free segments were given back")
                    .arg(f.seq)
                    .arg(words::bytes(f.failure.requested), words::bytes(f.failure.rounded), words::bytes(f.failure.largestFree),
                         words::bytes(f.failure.segmentSize), words::bytes(f.failure.reservedBefore),
                         words::bytes(f.failure.reservedBefore + f.failure.segmentSize), words::bytes(f.cardBytes));
    const std::int64_t splitFree = f.gap.splitFreeSmall + f.gap.splitFreeLarge;
    if (splitFree >= f.failure.rounded)
        s += QStringLiteral("; %1 are free in split blocks, but in pieces too small (fragmentation)").arg(words::bytes(splitFree));
    return s;
}

namespace {
const char* actionName(AllocatorAction::Kind kind) {
    switch (kind) {
    case AllocatorAction::Kind::SegmentAlloc: return "segment_alloc";
    case AllocatorAction::Kind::SegmentFree: return "segment_free";
    case AllocatorAction::Kind::SegmentMap: return "segment_map";
    case AllocatorAction::Kind::SegmentUnmap: return "segment_unmap";
    }
    return "segment_alloc";
}
} // namespace

QJsonObject replayJson(const costmodel::AllocatorReplayResult& r, bool steps) {
    QJsonArray actions;
    for (const auto& a : r.predictedActions)
        actions.append(QJsonObject{{"entry", qint64(a.seq)},
                                   {"action", actionName(a.action.kind)},
                                   {"address", qint64(a.action.address)},
                                   {"size", qint64(a.action.size)}});
    QJsonObject recorded{{"reserved_start", qint64(r.startReserved)},   {"reserved_peak", qint64(r.recordedPeakReserved)},
                         {"reserved_end", qint64(r.recordedEndReserved)}, {"segment_events", qint64(r.recordedSegmentEvents)},
                         {"segments", qint64(r.recordedSegments)},        {"blocks", qint64(r.blocksRecorded)}};
    QJsonObject predicted{{"reserved_peak", qint64(r.predictedPeakReserved)},
                          {"reserved_end", qint64(r.predictedEndReserved)},
                          {"segment_events", qint64(r.predictedActions.size())},
                          {"segments", qint64(r.predictedSegments)},
                          {"segment_actions", actions}};
    if (steps) {
        recorded.insert("reserved_steps", stepsJson(r.recordedSteps));
        predicted.insert("reserved_steps", stepsJson(r.predictedSteps));
    }
    QJsonObject o{{"traced", r.traced},
                  {"entries", qint64(r.entries)},
                  {"allocs", qint64(r.allocs)},
                  {"frees", qint64(r.frees)},
                  {"start", QJsonObject{{"segments", qint64(r.startSegments)},
                                        {"blocks", qint64(r.startBlocks)},
                                        {"blocks_unplaced", qint64(r.startBlocksUnplaced)},
                                        {"blocks_sized_by_landing", qint64(r.startBlocksSizedByLanding)}}},
                  {"recorded", recorded},
                  {"predicted", predicted},
                  {"placements_matched", qint64(r.placementsMatched)},
                  {"first_misplaced_entry", qint64(r.firstMisplacedSeq)},
                  {"segments_matched", qint64(r.segmentsMatched)},
                  {"blocks_matched", qint64(r.blocksMatched)},
                  {"exact", QJsonObject{{"reserved_peak", r.peakExact},
                                        {"reserved_end", r.endExact},
                                        {"final_segments", r.finalSegmentsExact},
                                        {"final_blocks", r.finalBlocksExact}}},
                  {"streams", qint64(r.streams)},
                  {"expandable_segments", r.expandable},
                  {"releases", qint64(r.releases)},
                  {"oom_entries", qint64(r.oomEntries)}};
    QJsonArray notes;
    for (const std::string& n : r.notes) notes.append(QString::fromStdString(n));
    o.insert("notes", notes);
    QJsonArray ooms;
    for (const auto& oom : r.ooms) {
        QJsonObject x{{"entry", qint64(oom.seq)}, {"bytes_requested", qint64(oom.requested)}, {"gap", gapJson(oom.gap)}};
        if (oom.deviceFree) x.insert("device_free", qint64(*oom.deviceFree));
        ooms.append(x);
    }
    o.insert("ooms", ooms);
    if (r.gapAt) o.insert("gap", gapJson(*r.gapAt));
    if (r.cardFailure) {
        const auto& f = *r.cardFailure;
        o.insert("card", QJsonObject{{"bytes", qint64(f.cardBytes)},
                                     {"fails", true},
                                     {"entry", qint64(f.seq)},
                                     {"bytes_requested", qint64(f.failure.requested)},
                                     {"rounded", qint64(f.failure.rounded)},
                                     {"segment_size", qint64(f.failure.segmentSize)},
                                     {"reserved", qint64(f.failure.reservedBefore)},
                                     {"largest_free_block", qint64(f.failure.largestFree)},
                                     {"gap", gapJson(f.gap)},
                                     {"reason", cardFailureReason(f)}});
    } else if (r.cardPeakReserved > 0) {
        o.insert("card", QJsonObject{{"fails", false}, {"reserved_peak", qint64(r.cardPeakReserved)}});
    }
    return o;
}

static QString gapText(const costmodel::ReservedGap& g, const QString& indent) {
    QStringList l;
    l << indent + QStringLiteral("reserved %1 = requested %2 + rounding %3 + free split blocks %4 (small pool) + %5 (large pool)"
                                 " + pending free %6 + whole cached segments %7 (%8 segments)")
                      .arg(words::bytes(g.reserved), words::bytes(g.requested), words::bytes(g.rounding),
                           words::bytes(g.splitFreeSmall), words::bytes(g.splitFreeLarge), words::bytes(g.pendingFree),
                           words::bytes(g.cachedSegments))
                      .arg(g.cachedSegmentCount);
    l << indent + QStringLiteral("largest free block %1").arg(words::bytes(g.largestFreeBlock));
    return l.join('\n');
}

QString replayText(const costmodel::AllocatorReplayResult& r) {
    QStringList l;
    l << QStringLiteral("  %1 entries, %2 allocations, %3 frees; at the start %4 segments, %5 blocks in use")
             .arg(r.entries)
             .arg(r.allocs)
             .arg(r.frees)
             .arg(r.startSegments)
             .arg(r.startBlocks);
    l << QStringLiteral("  reserved peak: recorded %1, predicted %2 (%3)")
             .arg(words::bytes(r.recordedPeakReserved), words::bytes(r.predictedPeakReserved), yesNo(r.peakExact));
    l << QStringLiteral("  reserved at the end: recorded %1, predicted %2 (%3)")
             .arg(words::bytes(r.recordedEndReserved), words::bytes(r.predictedEndReserved), yesNo(r.endExact));
    l << QStringLiteral("  segment events: recorded %1, predicted %2").arg(r.recordedSegmentEvents).arg(r.predictedActions.size());
    l << QStringLiteral("  final segments: %1 of %2 recorded predicted (%3 predicted; %4)")
             .arg(r.segmentsMatched)
             .arg(r.recordedSegments)
             .arg(r.predictedSegments)
             .arg(yesNo(r.finalSegmentsExact));
    l << QStringLiteral("  final blocks (splits): %1 of %2 (%3)").arg(r.blocksMatched).arg(r.blocksRecorded).arg(yesNo(r.finalBlocksExact));
    l << QStringLiteral("  allocations placed at the recorded address: %1 of %2").arg(r.placementsMatched).arg(r.allocs);
    for (const std::string& n : r.notes) l << "  note: " + QString::fromStdString(n);
    for (const auto& oom : r.ooms) {
        l << QStringLiteral("  OOM at entry %1: %2 asked%3").arg(oom.seq).arg(words::bytes(oom.requested),
                 oom.deviceFree ? QStringLiteral(", %1 free on the device").arg(words::bytes(*oom.deviceFree)) : QString());
        l << gapText(oom.gap, "    ");
    }
    if (r.gapAt) {
        l << QStringLiteral("  at the chosen entry:");
        l << gapText(*r.gapAt, "    ");
    }
    if (r.cardFailure) {
        l << "  on the card: " + cardFailureReason(*r.cardFailure);
        l << gapText(r.cardFailure->gap, "    ");
    } else if (r.cardPeakReserved > 0) {
        l << QStringLiteral("  on the card: every request fits (reserved peak %1)").arg(words::bytes(r.cardPeakReserved));
    }
    return l.join('\n') + '\n';
}

} // namespace memviz::cli
