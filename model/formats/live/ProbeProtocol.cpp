// SPDX-License-Identifier: MIT
#include "formats/live/ProbeProtocol.h"

#include <simdjson.h>

namespace memviz {

namespace od = simdjson::ondemand;

struct ProbeParser::Impl {
    od::parser parser;
    std::string buffer; // the line with simdjson's padding
};

namespace {

[[noreturn]] void fail(const std::string& what) { throw ProbeProtocolError(what); }

std::int64_t intOf(od::value v, std::string_view key) {
    std::int64_t i = 0;
    if (v.get_int64().get(i)) fail("\"" + std::string(key) + "\" must be an integer");
    return i;
}

std::string stringOf(od::value v, std::string_view key) {
    std::string_view s;
    if (v.get_string().get(s)) fail("\"" + std::string(key) + "\" must be a string");
    return std::string(s);
}

std::optional<std::int64_t> optionalIntOf(od::value v, std::string_view key) {
    bool isNull = false;
    if (!v.is_null().get(isNull) && isNull) return std::nullopt;
    return intOf(v, key);
}

ProbeRecord::Type typeOf(std::string_view name) {
    using T = ProbeRecord::Type;
    if (name == "hello") return T::Hello;
    if (name == "op") return T::Op;
    if (name == "mem") return T::Mem;
    if (name == "phase") return T::Phase;
    if (name == "step") return T::Step;
    if (name == "mark") return T::Mark;
    if (name == "dropped") return T::Dropped;
    if (name == "bye") return T::Bye;
    if (name == "free") return T::Free;
    return T::Unknown;
}

// "mem": {"cpu": {"before": 1, "after": 2}, "cuda:0": {"allocated": 3, "reserved": 4}}
void readMemory(od::value v, std::vector<ProbeDeviceMemory>& out) {
    od::object devices;
    if (v.get_object().get(devices)) fail("\"mem\" must be an object of devices");
    for (auto deviceField : devices) {
        od::field f;
        std::string_view device;
        if (std::move(deviceField).get(f) || f.unescaped_key().get(device)) fail("invalid \"mem\" object");
        ProbeDeviceMemory m;
        m.device = std::string(device);
        od::object values;
        if (f.value().get_object().get(values)) fail("\"mem\"." + m.device + " must be an object");
        for (auto valueField : values) {
            od::field g;
            std::string_view key;
            if (std::move(valueField).get(g) || g.unescaped_key().get(key)) fail("invalid \"mem\"." + m.device);
            std::int64_t bytes = intOf(g.value(), key);
            if (bytes < 0) fail("negative byte count in \"mem\"." + m.device + "." + std::string(key));
            if (key == "before") m.before = bytes;
            else if (key == "after") m.after = bytes;
            else if (key == "allocated") m.allocated = bytes;
            else if (key == "reserved") m.reserved = bytes;
        }
        out.push_back(std::move(m));
    }
}

// "outs": [[id, "cpu", bytes], ...]
void readOuts(od::value v, std::vector<ProbeStorage>& out) {
    od::array a;
    if (v.get_array().get(a)) fail("\"outs\" must be an array of [id, device, bytes]");
    for (auto item : a) {
        od::array triple;
        if (item.get_array().get(triple)) fail("each of \"outs\" must be [id, device, bytes]");
        ProbeStorage s;
        int n = 0;
        for (auto part : triple) {
            od::value pv;
            if (std::move(part).get(pv)) fail("invalid \"outs\"");
            if (n == 0) s.id = intOf(pv, "outs");
            else if (n == 1) s.device = stringOf(pv, "outs");
            else if (n == 2) s.bytes = intOf(pv, "outs");
            ++n;
        }
        if (n != 3) fail("each of \"outs\" must be [id, device, bytes], got " + std::to_string(n) + " items");
        if (s.bytes < 0) fail("negative byte count in \"outs\"");
        if (s.device.empty()) fail("an empty device in \"outs\"");
        out.push_back(std::move(s));
    }
}

} // namespace

ProbeParser::ProbeParser() : impl_(new Impl) {}
ProbeParser::~ProbeParser() { delete impl_; }

ProbeRecord ProbeParser::parse(std::string_view line) {
    impl_->buffer.assign(line);
    impl_->buffer.append(simdjson::SIMDJSON_PADDING, '\0');
    ProbeRecord r;
    bool haveType = false, haveT = false;
    try {
        od::document doc;
        if (impl_->parser.iterate(impl_->buffer.data(), line.size(), impl_->buffer.size()).get(doc)) fail("not JSON");
        od::object obj;
        if (doc.get_object().get(obj)) fail("expected a JSON object");
        for (auto fieldResult : obj) {
            od::field f;
            std::string_view key;
            if (std::move(fieldResult).get(f) || f.unescaped_key().get(key)) fail("invalid JSON");
            od::value v = f.value();
            if (key == "type") {
                r.typeName = stringOf(v, key);
                r.type = typeOf(r.typeName);
                haveType = true;
            } else if (key == "t") {
                r.t = intOf(v, key);
                haveT = true;
            } else if (key == "dur") {
                r.dur = intOf(v, key);
                if (r.dur < 0) fail("negative \"dur\"");
            } else if (key == "protocol") r.protocol = stringOf(v, key);
            else if (key == "version") r.version = static_cast<int>(intOf(v, key));
            else if (key == "pid") r.pid = static_cast<int>(intOf(v, key));
            else if (key == "argv") {
                od::array a;
                if (v.get_array().get(a)) fail("\"argv\" must be an array of strings");
                for (auto item : a) {
                    od::value iv;
                    if (std::move(item).get(iv)) fail("invalid \"argv\"");
                    r.argv.push_back(stringOf(iv, "argv"));
                }
            } else if (key == "mode") r.mode = stringOf(v, key);
            else if (key == "python") r.python = stringOf(v, key);
            else if (key == "torch") r.torch = stringOf(v, key);
            else if (key == "t0_wall_ns") r.t0WallNs = intOf(v, key);
            else if (key == "rank" || key == "local_rank" || key == "world_size") {
                const auto n = optionalIntOf(v, key);
                if (n && (*n < 0 || *n > 1'000'000)) fail("\"" + std::string(key) + "\" out of range");
                std::optional<int>& slot = key == "rank" ? r.rank : key == "local_rank" ? r.localRank : r.worldSize;
                if (n) slot = static_cast<int>(*n);
            }
            else if (key == "kind") r.kind = stringOf(v, key);
            else if (key == "name") r.name = stringOf(v, key);
            else if (key == "phase") r.phase = stringOf(v, key);
            else if (key == "label") r.label = stringOf(v, key);
            else if (key == "error") r.error = stringOf(v, key);
            else if (key == "step") r.step = intOf(v, key);
            else if (key == "count") r.count = intOf(v, key);
            else if (key == "exit_code") {
                const auto code = optionalIntOf(v, key);
                if (code) r.exitCode = static_cast<int>(*code);
            } else if (key == "mem") readMemory(v, r.memory);
            else if (key == "outs") readOuts(v, r.outs);
            else if (key == "id") r.storageId = intOf(v, key);
            // Unknown fields: ignored (a newer probe of the same version may add some).
        }
        if (!doc.current_location().error()) fail("text after the JSON object");
    } catch (const simdjson::simdjson_error& e) {
        fail(std::string("invalid JSON: ") + e.what());
    }
    if (!haveType) fail("no \"type\"");
    if (r.type == ProbeRecord::Type::Hello) {
        if (r.protocol != "memviz-probe") fail("a hello that is not from a memviz probe (\"protocol\": \"" + r.protocol + "\")");
        if (r.version <= 0) fail("a hello without a protocol \"version\"");
    } else if (r.type != ProbeRecord::Type::Unknown && !haveT) {
        fail("a \"" + r.typeName + "\" record without \"t\"");
    }
    if (r.type == ProbeRecord::Type::Op && r.name.empty()) fail("an \"op\" record without \"name\"");
    return r;
}

} // namespace memviz
