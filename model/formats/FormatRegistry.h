#pragma once
// The list of known formats and the one entry point that imports a file into a store.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "formats/Importer.h"

namespace memviz {

class Database;
class Progress;

const std::vector<std::unique_ptr<Importer>>& allImporters();
const Importer* importerById(std::string_view id);

// The importer whose sniff() is most confident about the file; throws ImportError naming the
// file when none recognises it.
const Importer& detectImporter(const std::string& path);

// Sniffs (unless formatId is given), imports atomically and returns the new trace id.
std::int64_t importFile(Database& db, const std::string& path, const Progress& progress,
                        const std::string& formatId = {});

// Number of bytes of the decompressed head that sniff() sees.
constexpr std::size_t kSniffBytes = 64 * 1024;

} // namespace memviz
