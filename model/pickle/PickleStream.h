// SPDX-License-Identifier: MIT
#pragma once
// Reading a pickle as a stream, for files too big to hold whole with their value tree (CUDA
// snapshots of a gigabyte). The same whitelist, limits and messages as parse(), but the bytes
// come from a source through a bounded window, strings are copied out of it, and the items
// appended to lists a StreamSink claims go to the sink as they are built, after which their
// containers are released (see Document::items). A pickle that later reads a released value
// surfaces as StreamFallback: the caller then reads the whole tree as before.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "pickle/PickleReader.h"
#include "pickle/PickleValue.h"

namespace memviz::pickle {

// Reads up to n bytes into dst; returns 0 at the end of the data. May throw (a damaged
// compressed file, Cancelled).
using ByteSource = std::function<std::size_t(char* dst, std::size_t n)>;

class StreamSink {
public:
    virtual ~StreamSink() = default;
    // A list gets its first items: should they go to take() instead of into the list?
    // `below` holds the values on the stack under the list, bottom first (MARKs not shown).
    virtual bool claim(const Document& doc, std::span<const Value> below) = 0;
    // Items appended to a claimed list, in order. When it returns, the containers among them
    // are released, and so are the containers inside them that mayRelease() allows (and so on
    // down): the sink must have read what it needs of them.
    virtual void take(const Document& doc, const Value& list, std::span<const Value> items) = 0;
    // Whether a container inside an item handed on may be released: one the sink will know
    // again by its identity (a shared frames list), or none of its business.
    virtual bool mayRelease(const Document& doc, const Value& container) = 0;
    // A released container that nothing refers to any more gives its slot (containerId) to a
    // new container: the sink drops what it knew by that identity.
    virtual void forget(std::size_t containerId) = 0;
    // An id of the sink's own for a released container it knows (a frames list's stack): then
    // the memo gives a Value of Kind::Known with this id for it from now on (its container
    // slot is recycled, and forget() is called for it). None: the container keeps its slot.
    virtual std::optional<std::int64_t> knownAs(const Document&, const Value& /*container*/) { return std::nullopt; }
    // The fast path for a claimed list of plain dicts (a snapshot's trace entries): whether
    // the dicts appended to `list` (already claimed) may be handed on without being built.
    // Such a dict is one whose keys and values are scalars or memo references (no value built
    // inside it); every check of a built one still holds, and the memo refers to it as to a
    // released one. Anything else in the list is built and handed to take() as usual.
    virtual bool acceptsFlat(const Document&, const Value& /*list*/) { return false; }
    // Dicts of `list`, in order, as their alternating keys and values: dict i ends at ends[i].
    // The containers among the values are released afterwards as for take().
    virtual void takeFlat(const Document&, const Value& /*list*/, std::span<const Value> /*keysAndValues*/,
                          std::span<const std::uint32_t> /*ends*/) {}
};

// Parses the pickle `source` yields into `doc` (empty on entry). After STOP the rest of the
// source is read too, so that a damaged compressed tail is reported as when the file is read
// whole. Throws PickleError (the messages and offsets of parse()), StreamFallback (also where
// parse() would have refused a FRAME longer than the data: the stream learns that only at the
// end), and what the source and the sink throw.
void parseStream(Document& doc, const ByteSource& source, StreamSink& sink, const Limits& limits = {});

} // namespace memviz::pickle
