# SPDX-License-Identifier: MIT
"""Reading a baseline recording (a memviz allocation log in JSON Lines) back: peaks by the
log format's rules (docs/formats.md), and bad files refused with the file and line named."""

import pytest

from memviz_probe.allocations import read_log_peaks

HEADER = '{"memviz_alloc_log": 1, "time_unit": "ns"}\n'


def write(tmp_path, text):
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    return str(path)


def test_peaks_follow_the_log_rules(tmp_path):
    path = write(tmp_path, HEADER +
                 '{"time": 0, "action": "alloc", "address": "0x10", "size": 100, "device": "cpu"}\n'
                 '{"time": 1, "action": "alloc", "address": "0x20", "size": 50}\n'             # cpu by default
                 '{"time": 2, "action": "free", "address": "0x10", "device": "cpu"}\n'
                 '{"time": 3, "action": "free", "address": "0x99", "device": "cpu"}\n'         # unmatched: nothing
                 '{"time": 4, "action": "alloc", "address": "0x20", "size": 70, "device": "cpu"}\n'  # 0x20 reused: 50 freed
                 '\n'
                 '{"time": 5, "action": "alloc", "address": "0x10", "size": 4096, "device": "cuda:0"}\n')
    # cpu: 100, 150, 50, 50, 70 -> peak 150; cuda:0: 4096
    assert read_log_peaks(path) == {"cpu": 150, "cuda:0": 4096}


@pytest.mark.parametrize("text, words", [
    ('{"time_unit": "ns"}\n', "line 1: not a memviz allocation log"),
    ("time_ns,action,address,size\n", "line 1: not JSON"),
    (HEADER + '{"time": 0, "action": "alloc", "address": "0x1"}\n', "line 2: an alloc without a size in bytes"),
    (HEADER + '{"time": 0, "action": "alloc", "address": "0x1", "size": -4}\n', "line 2: an alloc without a size"),
    (HEADER + '{"time": 0, "action": "move", "address": "0x1"}\n', "line 2: action must be alloc or free"),
    (HEADER + '[1, 2]\n', "line 2: not a JSON object"),
    (HEADER + '{"time": 0, "action": "alloc", "addr', "line 2: not JSON"),
])
def test_bad_baselines_name_the_line(tmp_path, text, words):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=words) as error:
        read_log_peaks(path)
    assert str(error.value).startswith(path + ": ")
