// SPDX-License-Identifier: MIT
#pragma once
// One wording for JSON errors from simdjson On-Demand, shared by the JSON readers:
// "FILE: byte N: invalid JSON: ..." (or a truncation message at the end of the data), and the
// one safe way to ask a document where it stopped.
//
// simdjson's current_location() reads through the iterator's token pointer. On a document that
// was never created (iterate() failed: invalid UTF-8, say; or a document_reference that get()
// did not fill) that pointer is null: asking it crashed memviz on damaged traces. So only a
// document that was created is asked (after an error it still knows the token it stopped at),
// else the data is scanned for the byte the error names (invalid UTF-8, a control character
// inside a string), else the caller says what it was reading.
#include <simdjson.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace memviz {

// Offset into `data` where `doc` stopped; nullopt when `doc` is null (never created), at the
// end, or pointing outside `data`.
std::optional<std::size_t> jsonStopOffset(simdjson::ondemand::document* doc, std::string_view data);

// True when `doc` was read to its end and nothing but white space follows.
bool jsonAtEnd(simdjson::ondemand::document& doc);

// Offset of the first byte in `data` that `error` is about, for the errors that name a kind of
// byte (UTF8_ERROR: the first byte of invalid UTF-8; UNESCAPED_CHARS: the first control
// character inside a string); nullopt for any other error or when none is found.
std::optional<std::size_t> scanForJsonError(std::string_view data, simdjson::error_code error);

// "PATH: byte N: invalid JSON: <simdjson's message>". The byte is where `doc` (null: never
// created) stopped,
// else what scanForJsonError finds, else `fallback` (where the caller's current element began);
// without any, "PATH: <context>: invalid JSON: ..." or "PATH: invalid JSON: ...". A truncated
// document names the end of the data.
std::string describeJsonError(const std::string& path, std::string_view json, simdjson::ondemand::document* doc,
                              simdjson::error_code error, std::optional<std::size_t> fallback = std::nullopt,
                              const std::string& context = {});

} // namespace memviz
