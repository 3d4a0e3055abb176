// SPDX-License-Identifier: MIT
#pragma once
// Where a JSON text breaks, for the readers that parse small documents with simdjson's DOM
// parser, which says what is wrong but not where: a strict RFC 8259 syntax check that finds the
// first byte that cannot continue the document, and that byte as a line and column. Used by
// the Hugging Face config and safetensors index readers ("config.json: line 3, column 18
// (byte 52): invalid JSON: ...").
#include <simdjson.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace memviz {

// The offset of the first byte where `json` stops being valid JSON (json.size() when it ends
// too early); nullopt when it is valid. Nesting deeper than 1024 is an error at the opening byte.
std::optional<std::size_t> firstJsonSyntaxError(std::string_view json);

// "line L, column C (byte B)", lines and columns from 1, columns in bytes.
std::string jsonLineColumn(std::string_view json, std::size_t byte);

// "WHERE: line L, column C (byte B): invalid JSON: <simdjson's message>", or with "the document
// ends too early (truncated file?)" when it does; "" when the syntax check finds nothing wrong
// (the caller then says it its own way).
// The byte is the one `error` names when it is about a kind of byte (invalid UTF-8, a control
// character in a string: scanForJsonError), else the first the syntax check refuses.
std::string describeJsonSyntaxError(const std::string& where, std::string_view json, simdjson::error_code error);

} // namespace memviz
