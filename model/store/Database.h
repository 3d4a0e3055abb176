// SPDX-License-Identifier: MIT
#pragma once
// A small RAII wrapper over the SQLite C API: a connection, prepared statements and
// transactions. Everything that touches SQL goes through these three classes.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace memviz {

class Statement;

class Database {
public:
    enum class Mode { ReadWrite, ReadOnly };
    // How long a statement waits for another connection's lock before it fails.
    static constexpr int kBusyTimeoutMs = 5000;

    // Opens (creating when ReadWrite) the file, enables WAL and foreign keys, and migrates
    // the schema to the current version. Throws StoreError for a file that is not a memviz
    // store or was written by a newer memviz.
    explicit Database(const std::string& path, Mode mode = Mode::ReadWrite);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;

    // Runs one or more statements without results.
    void exec(std::string_view sql);
    Statement prepare(std::string_view sql);
    std::int64_t lastInsertRowId() const;
    int userVersion();
    // Copies the write-ahead log into the database file and empties it (wal_checkpoint
    // TRUNCATE), so the .memviz file alone holds everything committed, even while readers keep
    // the store open (SQLite folds the log in only when the last connection closes, and not at
    // all when that one is read-only). Waits for readers within the busy timeout; false when
    // some of the log could not be copied.
    bool checkpoint();
    // Makes what is written to the file so far durable (one fsync through SQLite's own file),
    // for writes made with synchronous OFF; for a file this Database created, its directory
    // entry too (the first time).
    void syncToDisk();
    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }
    [[noreturn]] void fail(std::string_view what) const;

private:
    void close() noexcept; // syncs first what this Database created and never synced

    sqlite3* db_ = nullptr;
    std::string path_;
    bool unsynced_ = false; // created here, with synchronous OFF, and not synced yet
};

// A prepared statement. bind() indices are 1-based like SQLite's; column() indices 0-based.
class Statement {
public:
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bindBlob(int index, std::span<const unsigned char> blob);
    Statement& bindNull(int index);
    // The value, or NULL when absent.
    template <typename T>
    Statement& bindOptional(int index, const std::optional<T>& v) {
        return v ? bind(index, static_cast<std::int64_t>(*v)) : bindNull(index);
    }

    // Advances to the next row; false when done. Throws StoreError on failure.
    bool step();
    // Steps a statement that returns no rows, then resets it for reuse.
    void run();
    void reset();

    bool isNull(int column) const;
    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::span<const unsigned char> blob(int column) const;

private:
    Database* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction, ROLLBACK in the destructor unless commit() was called.
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

// Runs a query that yields one integer (or nullopt when no row / NULL).
std::optional<std::int64_t> queryInt(Database& db, std::string_view sql);

} // namespace memviz
