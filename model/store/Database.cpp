// SPDX-License-Identifier: MIT
#include "store/Database.h"

#include <fcntl.h>
#include <filesystem>
#include <sqlite3.h>
#include <system_error>
#include <unistd.h>
#include <utility>

#include "core/Errors.h"
#include "store/Schema.h"

namespace memviz {

namespace {

// A file that does not exist yet, or is empty (SQLite's new database).
bool isNewFile(const std::string& path) {
    if (path.empty() || path == ":memory:") return false;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? ec == std::errc::no_such_file_or_directory : size == 0;
}

} // namespace

Database::Database(const std::string& path, Mode mode) : path_(path) {
    // A new, empty file holds nothing to protect: its header, log mode and schema are written
    // without a sync each (six of them); the file and its directory entry are synced once, by
    // the first import's end (ImportJournal) or else when the store closes.
    const bool fresh = mode == Mode::ReadWrite && isNewFile(path);
    const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(path + ": cannot open database: " + msg);
    }
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    sqlite3_extended_result_codes(db_, 1);
    try {
        // Reading the schema fails here for a file that is not SQLite at all.
        exec("PRAGMA foreign_keys = ON");
        if (mode == Mode::ReadWrite) {
            exec(fresh ? "PRAGMA synchronous = OFF" : "PRAGMA synchronous = NORMAL");
            exec("PRAGMA journal_mode = WAL");
        }
        exec("PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536");
        migrateSchema(*this, mode == Mode::ReadOnly);
        if (fresh) {
            exec("PRAGMA synchronous = NORMAL");
            unsynced_ = true;
        }
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

Database::~Database() { close(); }

void Database::close() noexcept {
    if (!db_) return;
    if (unsynced_) {
        try {
            syncToDisk();
        } catch (...) {
            // Nobody to report it to; the page cache writes the file back in time.
        }
    }
    sqlite3_close_v2(db_);
    db_ = nullptr;
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)), unsynced_(std::exchange(other.unsynced_, false)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        close();
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
        unsynced_ = std::exchange(other.unsynced_, false);
    }
    return *this;
}

void Database::fail(std::string_view what) const {
    throw StoreError(path_ + ": " + std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : "closed"));
}

void Database::exec(std::string_view sql) {
    char* err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        const int code = sqlite3_errcode(db_);
        if (code == SQLITE_NOTADB) throw StoreError(path_ + ": not a memviz database (not an SQLite file)");
        throw StoreError(path_ + ": " + msg);
    }
}

Statement Database::prepare(std::string_view sql) { return Statement(*this, sql); }

std::int64_t Database::lastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

bool Database::checkpoint() {
    int logFrames = 0, copied = 0;
    const int rc = sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &copied);
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) return false;
    if (rc != SQLITE_OK) fail("checkpoint");
    return logFrames <= 0 || copied == logFrames;
}

void Database::syncToDisk() {
    const char* name = sqlite3_db_filename(db_, "main");
    if (!name || !*name) return; // an in-memory or temporary database: no file
    sqlite3_file* file = nullptr;
    if (sqlite3_file_control(db_, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file || !file->pMethods)
        fail("cannot reach the file to sync it");
    if (file->pMethods->xSync(file, SQLITE_SYNC_NORMAL) != SQLITE_OK) fail("cannot sync the file to disk");
    if (!std::exchange(unsynced_, false)) return;
    // The directory's entry for a new file (fsync on the file does not cover it).
    const std::string dir = std::filesystem::absolute(path_).parent_path().string();
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return; // a directory that cannot be opened cannot be synced either; SQLite does the same
    ::fsync(fd);
    ::close(fd);
}

int Database::userVersion() { return static_cast<int>(queryInt(*this, "PRAGMA user_version").value_or(0)); }

Statement::Statement(Database& db, std::string_view sql) : db_(&db) {
    if (sqlite3_prepare_v3(db.handle(), sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) !=
        SQLITE_OK)
        db.fail("cannot prepare \"" + std::string(sql.substr(0, 80)) + "\"");
}

Statement::~Statement() {
    if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        if (stmt_) sqlite3_finalize(stmt_);
        db_ = other.db_;
        stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_->fail("bind");
    return *this;
}
Statement& Statement::bind(int index, double value) {
    if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_->fail("bind");
    return *this;
}
Statement& Statement::bind(int index, std::string_view text) {
    if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) != SQLITE_OK)
        db_->fail("bind");
    return *this;
}
Statement& Statement::bindBlob(int index, std::span<const unsigned char> blob) {
    if (sqlite3_bind_blob64(stmt_, index, blob.data(), blob.size(), SQLITE_STATIC) != SQLITE_OK) db_->fail("bind");
    return *this;
}
Statement& Statement::bindNull(int index) {
    if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_->fail("bind");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    db_->fail("query failed");
}

void Statement::run() {
    step();
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
             : std::string();
}
std::span<const unsigned char> Statement::blob(int column) const {
    const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, column));
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))};
}

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (!done_) {
        try {
            db_.exec("ROLLBACK");
        } catch (...) {
            // Nothing sensible to do in a destructor; SQLite rolls back on close anyway.
        }
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

std::optional<std::int64_t> queryInt(Database& db, std::string_view sql) {
    Statement s(db, sql);
    if (!s.step() || s.isNull(0)) return std::nullopt;
    return s.int64(0);
}

} // namespace memviz
