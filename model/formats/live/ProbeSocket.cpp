// SPDX-License-Identifier: MIT
#include "formats/live/ProbeSocket.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace memviz {

namespace {

constexpr std::size_t kMaxLine = 16 * 1024 * 1024; // a longer line is not from our probe

int parsePort(std::string_view s, const std::string& whole) {
    int port = -1;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), port);
    if (ec != std::errc() || ptr != s.data() + s.size() || port < 0 || port > 65535)
        throw std::invalid_argument("\"" + whole + "\": not a port number (0-65535)");
    return port;
}

std::string errnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

} // namespace

std::string ProbeAddress::text() const {
    if (kind == Kind::Unix) return "unix:" + path;
    return "127.0.0.1:" + std::to_string(port);
}

ProbeAddress parseProbeAddress(const std::string& text) {
    ProbeAddress a;
    std::string_view s = text;
    if (s.starts_with("unix:")) {
        a.path = std::string(s.substr(5));
        if (a.path.empty()) throw std::invalid_argument("\"" + text + "\": no socket path after unix:");
        return a;
    }
    if (s.find('/') != std::string_view::npos) {
        a.path = text;
        return a;
    }
    if (s.starts_with("tcp:")) s.remove_prefix(4);
    const std::size_t colon = s.rfind(':');
    if (colon == std::string_view::npos) throw std::invalid_argument("\"" + text + "\": expected unix:PATH or 127.0.0.1:PORT");
    const std::string_view host = s.substr(0, colon);
    if (!host.empty() && host != "127.0.0.1" && host != "localhost")
        throw std::invalid_argument("\"" + text + "\": the probe stream is local only (use 127.0.0.1 or a Unix socket)");
    a.kind = ProbeAddress::Kind::Tcp;
    a.port = parsePort(s.substr(colon + 1), text);
    return a;
}

ProbeAddress defaultProbeAddress() {
    ProbeAddress a;
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    if (runtime && *runtime) a.path = std::string(runtime) + "/memviz-probe.sock";
    else a.path = "/tmp/memviz-probe-" + std::to_string(::getuid()) + ".sock";
    return a;
}

ProbeListener::ProbeListener(const ProbeAddress& address) : address_(address) {
    const std::string where = "cannot listen on " + address.text();
    if (address.kind == ProbeAddress::Kind::Unix) {
        sockaddr_un sa{};
        sa.sun_family = AF_UNIX;
        if (address.path.size() >= sizeof sa.sun_path) throw std::runtime_error(where + ": the path is too long");
        std::memcpy(sa.sun_path, address.path.c_str(), address.path.size() + 1);
        struct stat st {};
        if (::lstat(address.path.c_str(), &st) == 0) {
            if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(where + ": a file that is not a socket is in the way");
            // Someone accepting there? Then it is taken; else it is left over from a crash.
            const int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            const bool taken = probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
            if (probe >= 0) ::close(probe);
            if (taken) throw std::runtime_error(where + ": another memviz is listening there");
            ::unlink(address.path.c_str());
        }
        fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) throw std::runtime_error(errnoText(where));
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd_, 4) != 0) {
            const std::string msg = errnoText(where);
            ::close(fd_);
            fd_ = -1;
            throw std::runtime_error(msg);
        }
        return;
    }
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::runtime_error(errnoText(where));
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<std::uint16_t>(address.port));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd_, 4) != 0) {
        const std::string msg = errnoText(where);
        ::close(fd_);
        fd_ = -1;
        throw std::runtime_error(msg);
    }
    socklen_t len = sizeof sa;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len) == 0) address_.port = ntohs(sa.sin_port);
}

ProbeListener::~ProbeListener() { close(); }

void ProbeListener::close() {
    if (fd_ < 0) return;
    ::close(fd_);
    fd_ = -1;
    if (address_.kind == ProbeAddress::Kind::Unix) ::unlink(address_.path.c_str());
}

int ProbeListener::accept(int timeoutMs) {
    if (fd_ < 0) return -1;
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, timeoutMs);
    if (r <= 0) return -1;
    return ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
}

ProbeConnection::ProbeConnection(int fd) : fd_(fd) {}

ProbeConnection::~ProbeConnection() {
    if (fd_ >= 0) ::close(fd_);
}

bool ProbeConnection::takeLine(std::string& line) {
    const std::size_t nl = buffer_.find('\n', std::max(scanned_, start_));
    if (nl == std::string::npos) {
        scanned_ = buffer_.size();
        if (buffer_.size() - start_ > kMaxLine) throw std::runtime_error("the probe sent a line longer than 16 MiB");
        return false;
    }
    line.assign(buffer_, start_, nl - start_);
    start_ = nl + 1;
    scanned_ = start_;
    // Drop consumed bytes now and then, not per line (that would move the buffer each time).
    if (start_ == buffer_.size() || start_ > (1u << 20)) {
        buffer_.erase(0, start_);
        scanned_ -= start_;
        start_ = 0;
    }
    return true;
}

ProbeConnection::Result ProbeConnection::next(std::string& line, int timeoutMs) {
    if (takeLine(line)) return Result::Line;
    if (closed_) {
        if (start_ < buffer_.size()) { // a last line without '\n'
            line.assign(buffer_, start_, std::string::npos);
            buffer_.clear();
            start_ = scanned_ = 0;
            return Result::Line;
        }
        return Result::Closed;
    }
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, timeoutMs);
    if (r == 0) return Result::Timeout;
    if (r < 0) return errno == EINTR ? Result::Timeout : Result::Closed;
    char buf[65536];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n > 0) {
        buffer_.append(buf, static_cast<std::size_t>(n));
        bytes_ += n;
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        closed_ = true;
    }
    if (takeLine(line)) return Result::Line;
    if (closed_) return next(line, 0);
    return Result::Timeout;
}

} // namespace memviz
