// SPDX-License-Identifier: MIT
#pragma once
// A hand-written probe for the live tests: connect to `memviz record --listen`'s socket and
// send probe stream lines (docs/formats.md, "The PyTorch probe stream protocol").
#include <QByteArray>
#include <QString>
#include <cstdint>
#include <cstring>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace memviz::test {

// A connected Unix socket, or -1.
inline int connectUnix(const std::string& path) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, path.c_str(), sizeof sa.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Sends all of `data` (stops quietly when the peer is gone).
inline void sendAll(int fd, const QByteArray& data) {
    qsizetype off = 0;
    while (off < data.size()) {
        const ssize_t n = ::send(fd, data.constData() + off, static_cast<std::size_t>(data.size() - off), MSG_NOSIGNAL);
        if (n <= 0) return;
        off += n;
    }
}

// One forward op of step 0 on the CPU: its time, name and the bytes before and after it.
inline QByteArray opLine(std::int64_t t, const char* name, std::int64_t before, std::int64_t after) {
    return QStringLiteral(R"({"type":"op","t":%1,"dur":10,"name":"%2","phase":"forward","step":0,"mem":{"cpu":{"before":%3,"after":%4}}})"
                          "\n")
        .arg(t)
        .arg(QString::fromLatin1(name))
        .arg(before)
        .arg(after)
        .toUtf8();
}

} // namespace memviz::test
