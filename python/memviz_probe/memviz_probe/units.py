# SPDX-License-Identifier: MIT
"""Sizes and percentages as memviz's command line reads and writes them (the words of
model/costmodel/OptionNames.cpp parseByteSize and model/words/Units.cpp formatBytes), for the
pytest plugin's budgets and messages."""

import re

_NUMBER = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?")

# Lower-cased unit -> bytes. B, K/KiB, M/MiB, G/GiB, T/TiB are powers of 1024; KB, MB, GB,
# TB powers of 1000: exactly what `memviz estimate --memory` and the budgets of `memviz
# check` accept.
_UNITS = {
    "": 1, "b": 1,
    "k": 1024, "kib": 1024, "m": 1024 ** 2, "mib": 1024 ** 2, "g": 1024 ** 3, "gib": 1024 ** 3,
    "t": 1024 ** 4, "tib": 1024 ** 4,
    "kb": 1000, "mb": 1000 ** 2, "gb": 1000 ** 3, "tb": 1000 ** 4,
}
_MAX_BYTES = 9.2e18  # what fits an int64, as the C++ side checks


class UnitError(ValueError):
    """A size or percentage that cannot be read; the message says what was given and what
    is accepted."""


def _number(text):
    m = _NUMBER.match(text)
    if not m:
        return None, text
    value = float(m.group(1) + ("e" + m.group(2) if m.group(2) else ""))
    return value, text[m.end():]


def parse_size(value):
    """Bytes from an int (bytes) or a text such as "2GiB", "1.5 MB", "512": B, KiB/MiB/GiB/TiB
    (or K/M/G/T) are powers of 1024, KB/MB/GB/TB powers of 1000; case does not matter."""
    if isinstance(value, bool):
        raise UnitError("expected a size in bytes such as 2GiB or 500MB, got %r" % (value,))
    if isinstance(value, int):
        if value < 0:
            raise UnitError("a size cannot be negative: %d" % value)
        return value
    if not isinstance(value, str):
        raise UnitError("expected a size in bytes such as 2GiB or 500MB, got %r" % (value,))
    number, rest = _number(value)
    if number is None or value.strip().startswith("-"):
        raise UnitError("expected a size in bytes such as 17179869184, 16GiB or 80GB, got %r" % value)
    unit = rest.replace(" ", "").lower()
    if unit not in _UNITS:
        raise UnitError("unknown size unit %r in %r (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)" % (rest.strip(), value))
    size = number * _UNITS[unit]
    if size > _MAX_BYTES:
        raise UnitError("size too large: %r" % value)
    return int(round(size))


def parse_growth(value):
    """("percent", fraction) for "5%" (0.05), else ("bytes", n) for a size such as "64MiB"."""
    if isinstance(value, str) and value.strip().endswith("%"):
        text = value.strip()[:-1]
        number, rest = _number(text)
        if number is None or rest.strip() or text.strip().startswith("-"):
            raise UnitError("expected a growth such as 5%% or 64MiB, got %r" % value)
        return "percent", number / 100.0
    try:
        return "bytes", parse_size(value)
    except UnitError as e:
        raise UnitError("growth: %s (a growth is a percentage such as 5%% or a size such as 64MiB)" % e) from None


def format_bytes(value, decimals=2):
    """"1.50 MiB", "512 B", "-3.00 KiB" (model/words/Units.cpp formatBytes)."""
    units = ((1024.0 ** 4, "TiB"), (1024.0 ** 3, "GiB"), (1024.0 ** 2, "MiB"), (1024.0, "KiB"))
    for divisor, suffix in units:
        if abs(value) >= divisor:
            return "%.*f %s" % (decimals, value / divisor, suffix)
    return "%.0f B" % value
