#include "FuzzStore.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/Errors.h"
#include "core/Progress.h"
#include "importers/ImporterRegistry.h"
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

Outcome importBytes(std::string_view formatId, std::string_view data) {
    const std::string path = asFile(data);
    Database& db = scratchStore();
    Outcome o;
    try {
        const std::int64_t id = importFile(db, path, Progress(), std::string(formatId));
        o.accepted = true;
        // Every trace table cascades from `traces`: the store is empty again for the next input.
        db.exec("DELETE FROM traces WHERE id = " + std::to_string(id));
    } catch (const ImportError& e) {
        o.message = e.what();
    }
    return o;
}

} // namespace memviz::fuzz
