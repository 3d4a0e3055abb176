// SPDX-License-Identifier: MIT
#pragma once
// Where memviz listens for the probe: a Unix domain socket (the default, private to the
// user) or a TCP port on 127.0.0.1 (never another interface: the stream is local only).
// The listener accepts one probe; the connection hands out whole lines.
#include <string>

namespace memviz {

struct ProbeAddress {
    enum class Kind { Unix, Tcp };
    Kind kind = Kind::Unix;
    std::string path; // Unix
    int port = 0;     // Tcp (0 = let the system pick; the listener knows the real one)
    // "unix:/run/user/1000/memviz-probe.sock" or "127.0.0.1:47011": what --connect takes.
    std::string text() const;
};

// Accepts "unix:PATH", a path (holding a '/'), "tcp:127.0.0.1:PORT", "127.0.0.1:PORT",
// "localhost:PORT" or ":PORT". Throws std::invalid_argument for anything else (other hosts
// included).
ProbeAddress parseProbeAddress(const std::string& text);

// unix:$XDG_RUNTIME_DIR/memviz-probe.sock (else /tmp/memviz-probe-UID.sock). The probe uses
// the same default, so neither side needs to be told.
ProbeAddress defaultProbeAddress();

class ProbeListener {
public:
    // Binds and listens. A stale Unix socket file (nobody accepting on it) is replaced; a
    // live one is not. Throws std::runtime_error saying why it cannot listen.
    explicit ProbeListener(const ProbeAddress& address);
    // Closes; removes the Unix socket file.
    ~ProbeListener();
    ProbeListener(const ProbeListener&) = delete;
    ProbeListener& operator=(const ProbeListener&) = delete;

    // The address probes connect to (the real port when port 0 was asked for).
    const ProbeAddress& address() const { return address_; }
    // Waits up to timeoutMs for a probe; returns the connected socket, or -1.
    int accept(int timeoutMs);
    // Stops listening (a second probe then gets "connection refused" and runs on unharmed).
    void close();

private:
    ProbeAddress address_;
    int fd_ = -1;
};

// Reads newline-terminated lines from a connected socket.
class ProbeConnection {
public:
    explicit ProbeConnection(int fd);
    ~ProbeConnection();
    ProbeConnection(const ProbeConnection&) = delete;
    ProbeConnection& operator=(const ProbeConnection&) = delete;

    enum class Result { Line, Timeout, Closed };
    // The next line (without its '\n'), waiting at most timeoutMs for data.
    Result next(std::string& line, int timeoutMs);
    // Bytes received so far.
    long long bytesRead() const { return bytes_; }

private:
    bool takeLine(std::string& line);

    int fd_;
    std::string buffer_;
    std::size_t start_ = 0;   // first unread byte of buffer_
    std::size_t scanned_ = 0; // no '\n' before this
    bool closed_ = false;
    long long bytes_ = 0;
};

} // namespace memviz
