// SPDX-License-Identifier: MIT
#pragma once
// The journal a store uses while a trace is imported into it (issue 33).
//
// Stores run in SQLite's write-ahead-log mode, so that readers (the window, a second memviz)
// never block a writer. But the log costs every page twice: an import writes its pages into the
// log, and closing the store copies them into the file again. For a 1 GB snapshot that copy was
// 350 MB read and written, about 3 s of an 18 s import. A store that holds no trace yet has
// nothing a reader could want, so while the first trace goes into it the store uses the rollback
// journal instead: SQLite journals only pages that existed before the transaction, a new store
// has almost none, and the pages are written once, into the file. An import that fails or is
// cancelled still rolls back (the journal truncates the file to what it was), and a crash leaves
// a hot journal that the next open rolls back. Afterwards the store is in WAL mode again.
//
// While the store holds no trace it holds nothing to lose either: the import runs with
// synchronous OFF (a power cut during it can leave the new store unreadable, never an older
// trace damaged) and the store is synced once, after the import's commit and the return to WAL.
// A crash of the process alone loses nothing: the page cache keeps every write.
//
// Nothing changes when the store already holds a trace, or when another connection has it open
// (SQLite refuses to leave WAL mode then, and the import goes through the log as before).
namespace memviz {

class Database;

class ImportJournal {
public:
    explicit ImportJournal(Database& db);
    ~ImportJournal(); // back to WAL mode (after the import's commit or rollback)
    ImportJournal(const ImportJournal&) = delete;
    ImportJournal& operator=(const ImportJournal&) = delete;

    // True while the store uses the rollback journal for this import.
    bool rollbackJournal() const { return switched_; }

private:
    Database& db_;
    bool switched_ = false;
};

} // namespace memviz
