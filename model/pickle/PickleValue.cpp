// SPDX-License-Identifier: MIT
#include "pickle/PickleValue.h"

#include <bit>
#include <cstdio>

namespace memviz::pickle {

const char* kindName(Kind k) {
    switch (k) {
    case Kind::None: return "None";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::UInt64: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Bytes: return "bytes";
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Dict: return "dict";
    case Kind::Known: return "released container";
    }
    return "?";
}

const char* kindWithArticle(Kind k) {
    switch (k) {
    case Kind::None: return "None";
    case Kind::Bool: return "a bool";
    case Kind::Int:
    case Kind::UInt64: return "an int";
    case Kind::Float: return "a float";
    case Kind::Str: return "a str";
    case Kind::Bytes: return "a bytes object";
    case Kind::List: return "a list";
    case Kind::Tuple: return "a tuple";
    case Kind::Dict: return "a dict";
    case Kind::Known: return "a released container";
    }
    return "a value of unknown kind";
}

void Document::throwReleased() { throw StreamFallback("a value already handed on and released was read again"); }

double Document::real(const Value& v) const {
    if (v.kind == Kind::Float) return std::bit_cast<double>(v.payload);
    if (v.kind == Kind::Int || v.kind == Kind::Bool) return static_cast<double>(v.payload);
    if (v.kind == Kind::UInt64) return static_cast<double>(static_cast<std::uint64_t>(v.payload));
    return 0.0;
}

const Value* Document::find(const Value& dict, std::string_view key) const {
    if (dict.kind == Kind::Known) throwReleased();
    if (dict.kind != Kind::Dict) return nullptr;
    const auto kv = items(dict);
    for (std::size_t i = kv.size(); i >= 2; i -= 2) {
        const Value& k = kv[i - 2];
        if (k.kind == Kind::Str && k.length == key.size() && text(k) == key) return &kv[i - 1];
    }
    return nullptr;
}

namespace {

void appendQuoted(std::string& out, std::string_view s) {
    out += '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        } else {
            out += c; // UTF-8 bytes as they are
        }
    }
    out += '"';
}

// Stops at `maxChars`: a pickle may share one list many times over at every level, which
// written out in full would be exponentially long.
void write(std::string& out, const Document& doc, const Value& v, int depthLeft, std::size_t maxChars) {
    if (out.size() >= maxChars) return;
    if (depthLeft < 0 && v.isContainer()) {
        out += "...";
        return;
    }
    char buf[40];
    switch (v.kind) {
    case Kind::None: out += "None"; return;
    case Kind::Bool: out += v.payload ? "True" : "False"; return;
    case Kind::Int: out += std::to_string(v.payload); return;
    case Kind::UInt64: out += std::to_string(static_cast<std::uint64_t>(v.payload)); return;
    case Kind::Float:
        std::snprintf(buf, sizeof buf, "f:%016llx", static_cast<unsigned long long>(v.payload));
        out += buf;
        return;
    case Kind::Str: appendQuoted(out, doc.text(v)); return;
    case Kind::Known: (void)doc.items(v); return; // throws StreamFallback: its contents are gone
    case Kind::Bytes:
        out += "b'";
        for (const char c : doc.text(v)) {
            std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(c));
            out += buf;
        }
        out += '\'';
        return;
    case Kind::List:
    case Kind::Tuple: {
        out += v.kind == Kind::List ? '[' : '(';
        bool first = true;
        for (const Value& item : doc.items(v)) {
            if (out.size() >= maxChars) break;
            if (!first) out += ", ";
            first = false;
            write(out, doc, item, depthLeft - 1, maxChars);
        }
        out += v.kind == Kind::List ? ']' : ')';
        return;
    }
    case Kind::Dict: {
        out += '{';
        const auto kv = doc.items(v);
        for (std::size_t i = 0; i + 1 < kv.size() && out.size() < maxChars; i += 2) {
            if (i) out += ", ";
            write(out, doc, kv[i], depthLeft - 1, maxChars);
            out += ": ";
            write(out, doc, kv[i + 1], depthLeft - 1, maxChars);
        }
        out += '}';
        return;
    }
    }
}

} // namespace

std::string debugString(const Document& doc, const Value& v, int maxDepth, std::size_t maxChars) {
    std::string out;
    write(out, doc, v, maxDepth, maxChars);
    if (out.size() >= maxChars) {
        out.resize(maxChars);
        out += "...";
    }
    return out;
}

} // namespace memviz::pickle
