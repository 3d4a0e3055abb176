// SPDX-License-Identifier: MIT
#include "FuzzStore.h"

#include <cstdio>
#include <cstdlib>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/Errors.h"
#include "core/Progress.h"
#include "formats/FormatRegistry.h"
#include "store/Database.h"

namespace memviz::fuzz {

std::string asFile(std::string_view data) {
    static const int fd = [] {
        const int f = ::memfd_create("memviz-fuzz-input", 0);
        if (f < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
        return f;
    }();
    if (::ftruncate(fd, 0) != 0) throw std::runtime_error(std::string("ftruncate: ") + std::strerror(errno));
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done, static_cast<off_t>(done));
        if (n <= 0) throw std::runtime_error(std::string("pwrite: ") + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
    return "/proc/self/fd/" + std::to_string(fd);
}

Database& scratchStore() {
    static Database db(":memory:");
    return db;
}

void deleteTrace(std::int64_t) {
    // The store is emptied every 64 inputs, all tables at once with the foreign keys off:
    // deleting each trace through its cascade was half of an input's time, and switching the
    // foreign keys expires every prepared statement. Imports always run with them on, as in a
    // user's store; at most 63 earlier traces share the store with an input, as they can in a
    // user's store too.
    static int stored = 0;
    if (++stored < 64) return;
    stored = 0;
    Database& db = scratchStore();
    std::vector<std::string> tables;
    {
        Statement list(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
        while (list.step()) tables.push_back(list.text(0));
    }
    db.exec("PRAGMA foreign_keys = OFF");
    for (const std::string& t : tables) db.exec("DELETE FROM \"" + t + "\"");
    db.exec("PRAGMA foreign_keys = ON");
}

Outcome importBytes(std::string_view formatId, std::string_view data) { return importBytes(formatId, data, nullptr); }

Outcome importBytes(std::string_view formatId, std::string_view data, const std::function<void(Database&, std::int64_t)>& then) {
    const std::string path = asFile(data);
    Database& db = scratchStore();
    Outcome o;
    try {
        const std::int64_t id = importFile(db, path, Progress(), std::string(formatId));
        o.accepted = true;
        if (then) then(db, id);
        deleteTrace(id);
    } catch (const ImportError& e) {
        o.message = e.what();
    }
    return o;
}

void finding(const std::string& what) {
    std::fprintf(stderr, "memviz fuzz finding: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

} // namespace memviz::fuzz
