#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the pickles tst_pickle reads: values pickled by Python with protocols 2 to 5, plus
hand-assembled files for the plain-data opcodes Python's pickler never emits (DICT, LIST,
TUPLE, BINUNICODE8, LONG4, POP, ...). Their expected values come from pickle_repr.py, i.e.
from Python's own unpickler. Standard library only.

  make_pickles.py OUT_DIR            writes OUT_DIR/*.pickle
  make_pickles.py --opcodes OUT_DIR  also prints the names of all opcodes the files use
"""
import os
import pickle
import pickletools
import struct
import sys


def rich_value():
    shared = ["shared", 1, 2.5]
    frame = {"filename": "train.py", "line": 12, "name": "forward"}
    many_strings = [f"name_{i}" for i in range(300)]  # > 256 memo entries: LONG_BINPUT/LONG_BINGET
    return {
        "none": None, "true": True, "false": False,
        "ints": [0, 1, 255, 256, 65535, 65536, -1, -128, 2**31 - 1, -2**31, 2**31, 2**40, -2**40,
                 2**63 - 1, -2**63, 2**64 - 1],
        "floats": [0.0, -0.0, 0.5, 1e300, -2.25, float("inf")],
        "strs": ["", "a", "snapshot", "größe", "日本語", "x" * 300, "\ud800lone surrogate", "tab\tquote\"back\\"],
        "bytes": [b"", b"\x00\x01\xff", bytes(range(256)) * 2],
        "tuples": [(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), ((0, 0), (1, 2))],
        "single_item_list": [[7]],
        "single_item_dict": {"only": 1},
        "big_list": list(range(2500)),
        "big_dict": {f"k{i}": i for i in range(1200)},
        "shared_twice": [shared, shared, {"again": shared}],
        "frames": [[frame, frame], [frame]],
        "many_strings": many_strings + many_strings,
        "nested": [[[[["deep"]]]]],
    }


OPS = {o.name: o.code.encode("latin-1") for o in pickletools.opcodes}


def u8(n):
    return struct.pack("<B", n)


def u32(n):
    return struct.pack("<I", n)


def u64(n):
    return struct.pack("<Q", n)


def hand_assembled():
    """(name, bytes) of pickles using the opcodes Python's pickler does not write."""
    o = OPS
    files = []
    # {"a": [1, 2], "b": ("x", None)} with MARK ... DICT, MARK ... LIST, MARK ... TUPLE
    files.append(("hand_dict_list_tuple", b"\x80\x02" + o["MARK"] +
                  o["SHORT_BINUNICODE"] + u8(1) + b"a" + o["MARK"] + o["BININT1"] + u8(1) + o["BININT1"] + u8(2) + o["LIST"] +
                  o["SHORT_BINUNICODE"] + u8(1) + b"b" + o["MARK"] + o["SHORT_BINUNICODE"] + u8(1) + b"x" + o["NONE"] + o["TUPLE"] +
                  o["DICT"] + o["STOP"]))
    # BINUNICODE8, BINBYTES8, LONG4 (a small number), SETITEM, APPEND, in a FRAME of protocol 4
    body = (o["EMPTY_LIST"] + o["MEMOIZE"] +
            o["BINUNICODE8"] + u64(5) + b"eight" + o["APPEND"] +
            o["BINBYTES8"] + u64(3) + b"\x01\x02\x03" + o["APPEND"] +
            o["LONG4"] + struct.pack("<i", 2) + b"\x00\x01" + o["APPEND"] +
            o["LONG4"] + struct.pack("<i", 9) + b"\xff" * 8 + b"\x00" + o["APPEND"] +   # 2**64 - 1
            o["LONG1"] + u8(0) + o["APPEND"] +                                         # 0
            o["LONG1"] + u8(10) + b"\xfe" + b"\xff" * 9 + o["APPEND"] +                # -2, redundant sign bytes
            o["EMPTY_DICT"] + o["SHORT_BINUNICODE"] + u8(1) + b"k" + o["BININT2"] + struct.pack("<H", 513) + o["SETITEM"] + o["APPEND"] +
            o["STOP"])
    files.append(("hand_frame_protocol4", b"\x80\x04" + o["FRAME"] + u64(len(body)) + body))
    # POP, POP_MARK, DUP, BINPUT/BINGET and LONG_BINPUT/LONG_BINGET in protocol 4, BYTEARRAY8 in 5
    files.append(("hand_stack_ops", b"\x80\x05" + o["EMPTY_LIST"] + o["BINPUT"] + u8(3) +
                  o["NONE"] + o["POP"] +
                  o["MARK"] + o["BININT1"] + u8(9) + o["BININT1"] + u8(9) + o["POP_MARK"] +
                  o["BININT1"] + u8(4) + o["DUP"] + o["TUPLE2"] + o["LONG_BINPUT"] + u32(70000) + o["APPEND"] +
                  o["LONG_BINGET"] + u32(70000) + o["APPEND"] +
                  o["BYTEARRAY8"] + u64(2) + b"ab" + o["APPEND"] +
                  o["MARK"] + o["POP"] + o["EMPTY_TUPLE"] + o["APPEND"] +
                  o["BINGET"] + u8(3) + o["POP"] +
                  o["STOP"]))
    # BINUNICODE (protocol 2 writes it for every string)
    files.append(("hand_binunicode", b"\x80\x03" + o["BINUNICODE"] + u32(5) + b"\xc3\xa9t\xc3\xa9" + o["STOP"]))
    # SHORT_BINBYTES / BINBYTES, TUPLE1 / TUPLE3, NEWTRUE / NEWFALSE, BINFLOAT
    files.append(("hand_scalars", b"\x80\x03" + o["SHORT_BINBYTES"] + u8(2) + b"hi" + o["BINBYTES"] + u32(1) + b"\x00" +
                  o["TUPLE2"] + o["TUPLE1"] + o["NEWTRUE"] + o["NEWFALSE"] + o["BINFLOAT"] + struct.pack(">d", -1.5) +
                  o["TUPLE3"] + o["TUPLE2"] + o["STOP"]))
    return files


def main():
    args = sys.argv[1:]
    show = "--opcodes" in args
    args = [a for a in args if a != "--opcodes"]
    out = args[0]
    os.makedirs(out, exist_ok=True)
    written = {}
    value = rich_value()
    for protocol in (2, 3, 4, 5):
        v = dict(value)
        if protocol == 2:
            del v["bytes"]  # protocol 2 pickles bytes through a function call (GLOBAL + REDUCE)
        written[f"python_protocol{protocol}"] = pickle.dumps(v, protocol=protocol)
    written["python_protocol5_bytearray"] = pickle.dumps([bytearray(b"abc"), bytearray(300)], protocol=5)
    written["python_scalar_root"] = pickle.dumps(12345678901234, protocol=4)
    for name, data in hand_assembled():
        written[name] = data
    used = set()
    for name, data in written.items():
        with open(os.path.join(out, name + ".pickle"), "wb") as f:
            f.write(data)
        used.update(o.name for o, _, _ in pickletools.genops(data))
    if show:
        print(" ".join(sorted(used)))


if __name__ == "__main__":
    main()
