# SPDX-License-Identifier: MIT
"""Sizes as memviz's command line reads them (model/costmodel/OptionNames.cpp parseByteSize):
the expected bytes are worked out by hand from the unit's definition."""

import pytest

from memviz_probe.units import UnitError, format_bytes, parse_growth, parse_size


@pytest.mark.parametrize("text, expected", [
    ("512", 512), ("512B", 512), ("512 b", 512),
    ("2KiB", 2 * 1024), ("2k", 2 * 1024), ("2KB", 2 * 1000), ("2kb", 2000),
    ("1.5MiB", 1572864), ("3MB", 3 * 1000 ** 2), ("2GiB", 2 * 1024 ** 3), ("2 GB", 2 * 1000 ** 3),
    ("1TiB", 1024 ** 4), ("1tb", 1000 ** 4), ("0.5KiB", 512), ("1e3", 1000),
    (17825792, 17825792),
])
def test_sizes_in_the_cli_words(text, expected):
    assert parse_size(text) == expected


@pytest.mark.parametrize("text, words", [
    ("2XB", "unknown size unit 'XB'"), ("2 gigs", "unknown size unit"), ("abc", "expected a size"),
    ("-5MB", "expected a size"), ("", "expected a size"), (-1, "cannot be negative"), (True, "expected a size"),
    (2.5, "expected a size"), ("99999999TiB", "too large"),
])
def test_bad_sizes_say_what_is_wrong(text, words):
    with pytest.raises(UnitError, match=words):
        parse_size(text)


def test_growth_is_a_percentage_or_a_size():
    assert parse_growth("5%") == ("percent", 0.05)
    assert parse_growth(" 12.5 %") == ("percent", 0.125)
    assert parse_growth("64MiB") == ("bytes", 64 * 1024 ** 2)
    for bad in ("5 percent", "-5%", "%", "5XB"):
        with pytest.raises(UnitError):
            parse_growth(bad)


def test_bytes_are_written_as_memviz_writes_them():
    # model/words/Units.cpp formatBytes: binary units, two decimals, whole bytes below 1 KiB.
    assert format_bytes(512) == "512 B"
    assert format_bytes(1536) == "1.50 KiB"
    assert format_bytes(16 * 1024 ** 2) == "16.00 MiB"
    assert format_bytes(-3 * 1024) == "-3.00 KiB"
