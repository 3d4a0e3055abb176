// SPDX-License-Identifier: MIT
#pragma once
// The .memviz schema: its current version and the migration steps that reach it. The store's
// own tables (traces, summaries, series, chunks, frames, ...) are defined in Schema.cpp; each
// format's tables are defined in its folder and registered in formats/FormatRegistry.cpp, so
// this file knows no format. A version's step runs the store's statements of that version,
// then each format's in registry order, in one transaction.
// Documented in docs/schema.md; every change is a new step, never an edit of an old one.
#include <string>
#include <vector>

namespace memviz {

class Database;

// Statements that bring a store to `version` (with the others of that version).
struct SchemaStep {
    int version = 0;
    const char* sql = nullptr;
};

// The steps of every format's tables, in registry order. Defined by the format registry
// (formats/FormatRegistry.cpp).
const std::vector<SchemaStep>& formatSchemaSteps();

// The highest version any step reaches, the store's or a format's.
int currentSchemaVersion();
inline const int kSchemaVersion = currentSchemaVersion();

// Brings an opened database to kSchemaVersion, one step per version, each in its own
// transaction. A new (empty) file is initialised. Throws StoreError for a file that is not a
// memviz store or that a newer memviz wrote. With readOnly, only checks the version.
void migrateSchema(Database& db, bool readOnly);

// The SQL of one migration step (what turns version-1 into `version`), for tests that build
// an old store by hand.
std::vector<std::string> schemaStepSql(int version);

} // namespace memviz
