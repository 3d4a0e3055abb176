// SPDX-License-Identifier: MIT
#include "io/JsonLocate.h"

#include "io/JsonError.h"

#include <cctype>

namespace memviz {

namespace {

class Checker {
public:
    explicit Checker(std::string_view s) : s_(s) {}

    // Offset of the first bad byte, or nullopt.
    std::optional<std::size_t> run() {
        skipSpace();
        if (!value(0)) return at_;
        skipSpace();
        if (at_ != s_.size()) return at_;
        return std::nullopt;
    }

private:
    std::string_view s_;
    std::size_t at_ = 0;

    bool end() const { return at_ >= s_.size(); }
    char peek() const { return end() ? '\0' : s_[at_]; }
    void skipSpace() {
        while (!end() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r')) ++at_;
    }
    bool literal(std::string_view word) {
        for (char c : word) {
            if (peek() != c) return false;
            ++at_;
        }
        return true;
    }
    bool digits() {
        if (peek() < '0' || peek() > '9') return false;
        while (peek() >= '0' && peek() <= '9') ++at_;
        return true;
    }
    bool number() {
        if (peek() == '-') ++at_;
        if (peek() == '0') ++at_;
        else if (!digits()) return false;
        if (peek() == '.') {
            ++at_;
            if (!digits()) return false;
        }
        if (peek() == 'e' || peek() == 'E') {
            ++at_;
            if (peek() == '+' || peek() == '-') ++at_;
            if (!digits()) return false;
        }
        return true;
    }
    bool string() {
        ++at_; // the opening quote
        while (!end()) {
            const auto c = static_cast<unsigned char>(s_[at_]);
            if (c == '"') {
                ++at_;
                return true;
            }
            if (c < 0x20) return false;
            if (c == '\\') {
                ++at_;
                const char e = peek();
                if (e == 'u') {
                    ++at_;
                    for (int i = 0; i < 4; ++i, ++at_)
                        if (!std::isxdigit(static_cast<unsigned char>(peek()))) return false;
                    continue;
                }
                if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos || end()) return false;
            }
            ++at_;
        }
        return false;
    }
    bool value(int depth) {
        if (depth > 1024) return false;
        switch (peek()) {
        case '{': return container(depth, '}', true);
        case '[': return container(depth, ']', false);
        case '"': return string();
        case 't': return literal("true");
        case 'f': return literal("false");
        case 'n': return literal("null");
        default: return number();
        }
    }
    bool container(int depth, char close, bool object) {
        ++at_;
        skipSpace();
        if (peek() == close) {
            ++at_;
            return true;
        }
        for (;;) {
            if (object) {
                if (peek() != '"' || !string()) return false;
                skipSpace();
                if (peek() != ':') return false;
                ++at_;
                skipSpace();
            }
            if (!value(depth + 1)) return false;
            skipSpace();
            if (peek() == close) {
                ++at_;
                return true;
            }
            if (peek() != ',') return false;
            ++at_;
            skipSpace();
        }
    }
};

} // namespace

std::optional<std::size_t> firstJsonSyntaxError(std::string_view json) { return Checker(json).run(); }

std::string jsonLineColumn(std::string_view json, std::size_t byte) {
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < byte && i < json.size(); ++i)
        if (json[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return "line " + std::to_string(line) + ", column " + std::to_string(byte - lineStart + 1) + " (byte " + std::to_string(byte) + ")";
}

std::string describeJsonSyntaxError(const std::string& where, std::string_view json, simdjson::error_code error) {
    std::optional<std::size_t> at = scanForJsonError(json, error);
    if (!at) at = firstJsonSyntaxError(json);
    if (!at) return {};
    return where + ": " + jsonLineColumn(json, *at) + ": invalid JSON: " +
           (*at >= json.size() ? std::string("the document ends too early (truncated file?)") : std::string(simdjson::error_message(error)));
}

} // namespace memviz
