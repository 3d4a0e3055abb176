// SPDX-License-Identifier: MIT
#pragma once
// The pickle opcodes (protocols 0 to 5), their names for error messages, and which of them
// memviz interprets. Pickles are data, not code: only opcodes that build plain values
// (None, bool, int, float, str, bytes, list, tuple, dict) are accepted.
#include <cstdint>

namespace memviz::pickle {

enum class Op : std::uint8_t {
    Mark = '(',
    Stop = '.',
    Pop = '0',
    PopMark = '1',
    Dup = '2',
    Float = 'F',
    Int = 'I',
    BinInt = 'J',
    BinInt1 = 'K',
    Long = 'L',
    BinInt2 = 'M',
    None = 'N',
    PersId = 'P',
    BinPersId = 'Q',
    Reduce = 'R',
    String = 'S',
    BinString = 'T',
    ShortBinString = 'U',
    Unicode = 'V',
    BinUnicode = 'X',
    Append = 'a',
    Build = 'b',
    Global = 'c',
    Dict = 'd',
    EmptyDict = '}',
    Appends = 'e',
    Get = 'g',
    BinGet = 'h',
    Inst = 'i',
    LongBinGet = 'j',
    List = 'l',
    EmptyList = ']',
    Obj = 'o',
    Put = 'p',
    BinPut = 'q',
    LongBinPut = 'r',
    SetItem = 's',
    Tuple = 't',
    EmptyTuple = ')',
    SetItems = 'u',
    BinFloat = 'G',
    // protocol 2
    Proto = 0x80,
    NewObj = 0x81,
    Ext1 = 0x82,
    Ext2 = 0x83,
    Ext4 = 0x84,
    Tuple1 = 0x85,
    Tuple2 = 0x86,
    Tuple3 = 0x87,
    NewTrue = 0x88,
    NewFalse = 0x89,
    Long1 = 0x8a,
    Long4 = 0x8b,
    // protocol 3
    BinBytes = 'B',
    ShortBinBytes = 'C',
    // protocol 4
    ShortBinUnicode = 0x8c,
    BinUnicode8 = 0x8d,
    BinBytes8 = 0x8e,
    EmptySet = 0x8f,
    AddItems = 0x90,
    FrozenSet = 0x91,
    NewObjEx = 0x92,
    StackGlobal = 0x93,
    Memoize = 0x94,
    Frame = 0x95,
    // protocol 5
    ByteArray8 = 0x96,
    NextBuffer = 0x97,
    ReadOnlyBuffer = 0x98,
};

enum class OpClass : std::uint8_t {
    Unknown,     // not a pickle opcode at all
    Supported,   // builds plain data; interpreted
    Forbidden,   // names a class, calls a function or refers to outside objects
    Unsupported, // plain data, but a form snapshots never use (text protocols 0/1, sets, out-of-band buffers)
};

// "GLOBAL", "BINUNICODE", ...; "?" for a byte that is no opcode.
const char* opName(std::uint8_t byte);
OpClass opClass(std::uint8_t byte);

} // namespace memviz::pickle
