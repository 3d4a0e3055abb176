#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the canonical text form of a pickle's value, read by Python's own pickle module with
every class lookup refused (so nothing in the file can run). memviz's pickle reader must print
the same text (pickle::debugString). Standard library only.

  pickle_repr.py FILE.pickle [FILE2.pickle ...]   one line per file
"""
import io
import pickle
import struct
import sys


class PlainDataOnly(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing {module}.{name}")


def quote(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canon(v, depth=64):
    if depth < 0:
        raise ValueError("too deep")
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "f:%016x" % struct.unpack(">Q", struct.pack(">d", v))[0]
    if isinstance(v, str):
        return quote(v)
    if isinstance(v, (bytes, bytearray)):
        return "b'" + bytes(v).hex() + "'"
    if isinstance(v, list):
        return "[" + ", ".join(canon(x, depth - 1) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(canon(x, depth - 1) for x in v) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(canon(k, depth - 1) + ": " + canon(x, depth - 1) for k, x in v.items()) + "}"
    raise TypeError(type(v).__name__)


def main():
    out = sys.stdout.buffer
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            value = PlainDataOnly(io.BytesIO(f.read())).load()
        out.write(canon(value).encode("utf-8", "surrogatepass") + b"\n")


if __name__ == "__main__":
    main()
