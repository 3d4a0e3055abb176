#pragma once
// The .memviz schema: its current version and the migration steps that reach it.
// Documented in docs/schema.md; every change is a new step, never an edit of an old one.
#include <string>
#include <vector>

namespace memviz {

class Database;

constexpr int kSchemaVersion = 5;

// Brings an opened database to kSchemaVersion, one step per version, each in its own
// transaction. A new (empty) file is initialised. Throws StoreError for a file that is not a
// memviz store or that a newer memviz wrote. With readOnly, only checks the version.
void migrateSchema(Database& db, bool readOnly);

// The SQL of one migration step (what turns version-1 into `version`), for tests that build
// an old store by hand.
std::vector<std::string> schemaStepSql(int version);

} // namespace memviz
