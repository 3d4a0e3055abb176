// SPDX-License-Identifier: MIT
#include "store/ImportJournal.h"

#include <sqlite3.h>
#include <string>

#include "core/Errors.h"
#include "store/Database.h"

namespace memviz {

namespace {

std::string journalMode(Database& db, const char* sql) {
    Statement s(db, sql);
    return s.step() ? s.text(0) : std::string();
}

} // namespace

ImportJournal::ImportJournal(Database& db) : db_(db) {
    if (queryInt(db, "SELECT count(*) FROM traces").value_or(1) != 0) return;
    // SQLite refuses to leave WAL mode while another connection has the store open ("database
    // is locked", or the mode in force as the answer): then the import goes through the log, at
    // once rather than after the busy timeout.
    sqlite3_busy_timeout(db.handle(), 0);
    try {
        // Nothing in the store to protect until this import commits: no sync per step (the
        // log's copy, the import's commit, the way back), one at the end.
        db.exec("PRAGMA synchronous = OFF");
        switched_ = journalMode(db, "PRAGMA journal_mode = DELETE") == "delete";
    } catch (const StoreError&) {
        switched_ = false;
    }
    if (!switched_) db.exec("PRAGMA synchronous = NORMAL");
    sqlite3_busy_timeout(db.handle(), Database::kBusyTimeoutMs);
}

ImportJournal::~ImportJournal() {
    if (!switched_) return;
    try {
        journalMode(db_, "PRAGMA journal_mode = WAL");
    } catch (...) {
        // The store stays in rollback-journal mode, which SQLite reads and writes as well; the
        // next Database opened on it asks for WAL again.
    }
    try {
        db_.exec("PRAGMA synchronous = NORMAL");
        db_.syncToDisk(); // the committed trace (or the rolled-back empty store) is on disk now
    } catch (...) {
        // A destructor cannot report it; the writes are in the page cache and reach the disk
        // with the system's next writeback.
    }
}

} // namespace memviz
