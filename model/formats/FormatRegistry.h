// SPDX-License-Identifier: MIT
#pragma once
// The list of known formats and the one entry point that imports a file into a store. A
// format is one folder under formats/ and one line in FormatRegistry.cpp: its importer and the
// schema steps of its tables (ARCHITECTURE.md, "Adding a format").
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/Importer.h"
#include "store/Schema.h"

namespace memviz {

class Database;
class Progress;

struct FormatEntry {
    std::unique_ptr<Importer> importer; // null for a format that is recorded, not read (live)
    std::vector<SchemaStep> schema;     // its tables, {version, SQL}; empty when it has none
};

// Every format, in the order sniffing prefers them when two are equally sure.
const std::vector<FormatEntry>& allFormats();
const std::vector<const Importer*>& allImporters();
const Importer* importerById(std::string_view id);

// The importer whose sniff() is most confident about the file; throws ImportError naming the
// file when none recognises it.
const Importer& detectImporter(const std::string& path);

// Sniffs (unless formatId is given), imports atomically and returns the new trace id.
std::int64_t importFile(Database& db, const std::string& path, const Progress& progress, const std::string& formatId = {});

// Number of bytes of the decompressed head that sniff() sees.
constexpr std::size_t kSniffBytes = 64 * 1024;

} // namespace memviz
