// SPDX-License-Identifier: MIT
#include "pickle/PickleOpcodes.h"

#include <array>

namespace memviz::pickle {

namespace {

struct OpInfo {
    const char* name = "?";
    OpClass cls = OpClass::Unknown;
};

constexpr std::array<OpInfo, 256> makeTable() {
    std::array<OpInfo, 256> t{};
    auto set = [&t](Op op, const char* name, OpClass cls) { t[static_cast<std::uint8_t>(op)] = {name, cls}; };
    constexpr OpClass S = OpClass::Supported, F = OpClass::Forbidden, U = OpClass::Unsupported;
    set(Op::Mark, "MARK", S);
    set(Op::Stop, "STOP", S);
    set(Op::Pop, "POP", S);
    set(Op::PopMark, "POP_MARK", S);
    set(Op::Dup, "DUP", S);
    set(Op::Float, "FLOAT", U);
    set(Op::Int, "INT", U);
    set(Op::BinInt, "BININT", S);
    set(Op::BinInt1, "BININT1", S);
    set(Op::Long, "LONG", U);
    set(Op::BinInt2, "BININT2", S);
    set(Op::None, "NONE", S);
    set(Op::PersId, "PERSID", F);
    set(Op::BinPersId, "BINPERSID", F);
    set(Op::Reduce, "REDUCE", F);
    set(Op::String, "STRING", U);
    set(Op::BinString, "BINSTRING", U);
    set(Op::ShortBinString, "SHORT_BINSTRING", U);
    set(Op::Unicode, "UNICODE", U);
    set(Op::BinUnicode, "BINUNICODE", S);
    set(Op::Append, "APPEND", S);
    set(Op::Build, "BUILD", F);
    set(Op::Global, "GLOBAL", F);
    set(Op::Dict, "DICT", S);
    set(Op::EmptyDict, "EMPTY_DICT", S);
    set(Op::Appends, "APPENDS", S);
    set(Op::Get, "GET", U);
    set(Op::BinGet, "BINGET", S);
    set(Op::Inst, "INST", F);
    set(Op::LongBinGet, "LONG_BINGET", S);
    set(Op::List, "LIST", S);
    set(Op::EmptyList, "EMPTY_LIST", S);
    set(Op::Obj, "OBJ", F);
    set(Op::Put, "PUT", U);
    set(Op::BinPut, "BINPUT", S);
    set(Op::LongBinPut, "LONG_BINPUT", S);
    set(Op::SetItem, "SETITEM", S);
    set(Op::Tuple, "TUPLE", S);
    set(Op::EmptyTuple, "EMPTY_TUPLE", S);
    set(Op::SetItems, "SETITEMS", S);
    set(Op::BinFloat, "BINFLOAT", S);
    set(Op::Proto, "PROTO", S);
    set(Op::NewObj, "NEWOBJ", F);
    set(Op::Ext1, "EXT1", F);
    set(Op::Ext2, "EXT2", F);
    set(Op::Ext4, "EXT4", F);
    set(Op::Tuple1, "TUPLE1", S);
    set(Op::Tuple2, "TUPLE2", S);
    set(Op::Tuple3, "TUPLE3", S);
    set(Op::NewTrue, "NEWTRUE", S);
    set(Op::NewFalse, "NEWFALSE", S);
    set(Op::Long1, "LONG1", S);
    set(Op::Long4, "LONG4", S);
    set(Op::BinBytes, "BINBYTES", S);
    set(Op::ShortBinBytes, "SHORT_BINBYTES", S);
    set(Op::ShortBinUnicode, "SHORT_BINUNICODE", S);
    set(Op::BinUnicode8, "BINUNICODE8", S);
    set(Op::BinBytes8, "BINBYTES8", S);
    set(Op::EmptySet, "EMPTY_SET", U);
    set(Op::AddItems, "ADDITEMS", U);
    set(Op::FrozenSet, "FROZENSET", U);
    set(Op::NewObjEx, "NEWOBJ_EX", F);
    set(Op::StackGlobal, "STACK_GLOBAL", F);
    set(Op::Memoize, "MEMOIZE", S);
    set(Op::Frame, "FRAME", S);
    set(Op::ByteArray8, "BYTEARRAY8", S);
    set(Op::NextBuffer, "NEXT_BUFFER", U);
    set(Op::ReadOnlyBuffer, "READONLY_BUFFER", U);
    return t;
}

constexpr std::array<OpInfo, 256> kTable = makeTable();

} // namespace

const char* opName(std::uint8_t byte) { return kTable[byte].name; }
OpClass opClass(std::uint8_t byte) { return kTable[byte].cls; }

} // namespace memviz::pickle
