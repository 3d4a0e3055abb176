#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs for the fuzz targets (docs/reliability.md). Standard library only.

    make_seeds.py own OUT        small seeds written from scratch, one folder per target
                                 (what tests/fuzz/seeds holds; rerun to regenerate it)
    make_seeds.py fixtures OUT   small, still valid cuts of the shared third-party fixtures
                                 (read at run time, never copied into the repository)

Fixture cuts: a profiler trace keeps its top-level members and a few hundred events of each
kind; a memory timeline keeps its first rows; a snapshot pickle is read with an unpickler that
refuses every class and function (data only) and written back with a few segments and trace
entries. Fuzzing inputs are capped at tens of KiB, so whole fixtures would only be cut off.
"""
import gzip
import io
import json
import os
import pickle
import sys


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- own seeds

def own_alloclog(out):
    d = os.path.join(out, "alloclog_csv")
    write(d, "all_columns.csv",
          "time_ns,action,address,size,device,op,category,stack\n"
          "1000,alloc,0x7f0000001000,4096,cpu,aten::empty,forward,model;conv1\n"
          "1500,alloc,0x7f0000002000,512,cuda:0,aten::mm,forward,\"model;linear, fused\"\n"
          "2000,free,0x7f0000001000,,cpu,,backward,model\n"
          "1900,free,0x7f0000002000,512,cuda:0,aten::mm,backward,\n"
          "# a comment\n\n"
          "2500,alloc,140737488355328,1,cpu,\"aten::\"\"quoted\"\"\",optimizer,\n"
          "2600,free,0x1234,,cpu,,,\n")
    write(d, "units_crlf.csv",
          "Stack,Size,Action,Address,Time_us\r\n"
          "a;b,100,alloc,0x10,0.5\r\n"
          ",,free,0x10,1.25\r\n"
          "c,18446744073709551615,alloc,0xffffffffffffffff,1e3\r\n")
    write(d, "minimal.csv", "time_s,action,address,size\n0,alloc,1,1\n1,free,1,\n")
    d = os.path.join(out, "alloclog_jsonl")
    write(d, "all_fields.jsonl",
          '{"memviz_alloc_log": 1, "time_unit": "us"}\n'
          '{"time": 0, "action": "alloc", "address": "0x100", "size": 1000, "device": "cuda:0", '
          '"op": "aten::empty", "category": "forward", "stack": "model;layer\\u00e9"}\n'
          '{"time": 12.5, "action": "alloc", "address": 4096, "size": 24, "op": "aten::add"}\n'
          '{"time": 20, "action": "free", "address": "0x100"}\n'
          '\n'
          '{"time": 19, "action": "free", "address": 4096, "size": 24, "device": "cpu"}\n')
    write(d, "ns.jsonl",
          '{"time_unit": "ns", "memviz_alloc_log": 1}\r\n'
          '{"action": "alloc", "time": 1e3, "address": "0xffffffffffffffff", "size": 9223372036854775807}\r\n'
          '{"action": "free", "time": 2000, "address": 18446744073709551615}\r\n')


def chrome_events(with_memory=True):
    ev = [
        {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 10, "tid": 10, "ts": 1000.5, "dur": 50,
         "args": {"Input Dims": [[4, 8], [16, 8], [16]], "External id": 1}},
        {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 10, "tid": 10, "ts": 1001, "dur": 40,
         "args": {"Input Dims": [[16], [4, 8], [8, 16]]}},
        {"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 10, "tid": "10", "ts": 990, "dur": 200},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1010, "dur": 5, "args": {"device": 0}},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 1002, "s": "t",
         "args": {"Ev Idx": 3, "Device Type": 1, "Device Id": 0, "Addr": 140000000000000, "Bytes": 256,
                  "Total Allocated": 256, "Total Reserved": 2097152}},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 1030, "s": "t",
         "args": {"Device Type": 1, "Device Id": 0, "Addr": 140000000000000, "Bytes": -256,
                  "Total Allocated": 0, "Total Reserved": 2097152}},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "pid": 10, "tid": 10, "ts": 1003, "s": "t",
         "args": {"Device Type": 0, "Device Id": -1, "Addr": 18446744073709551615, "Bytes": 64,
                  "Total Allocated": 64, "Total Reserved": 0}},
        {"ph": "i", "cat": "cpu_instant_event", "name": "[OutOfMemory]", "pid": 10, "tid": 10, "ts": 1040,
         "args": {"Device Type": 1, "Device Id": 0, "Bytes": 1 << 40, "Total Allocated": 0, "Total Reserved": 2097152}},
        {"ph": "M", "name": "process_name", "pid": 10, "args": {"name": "python"}},
    ]
    return ev if with_memory else ev[:4]


def own_chrome(out):
    d = os.path.join(out, "chrome_trace")
    write(d, "modern.json", json.dumps({
        "schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "GPU"}],
        "distributedInfo": {"backend": "nccl", "rank": 0}, "displayTimeUnit": "ms",
        "baseTimeNanoseconds": 1700000000000000000, "traceEvents": chrome_events(),
        "traceName": "x.pt.trace.json"}, indent=1))
    old = [{"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 1, "tid": 1, "ts": 1623142623460121,
            "dur": 30, "args": {"Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3], []]}},
           {"ph": "i", "cat": "Operator", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1623142623460125,
            "args": {"Device Type": 0, "Device Id": -1, "Bytes": 1024}}]
    write(d, "bare_array_old.json", json.dumps(old))
    write(d, "escapes.json", '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a\\"b\\\\c\\u00e9\\ud83d\\ude00", '
                             '"pid": "p", "tid": "t", "ts": 1e1, "dur": 2.0005}], "schemaVersion": "1"}')


def own_memtimeline(out):
    d = os.path.join(out, "memtimeline_raw")
    write(d, "rows.raw.json", json.dumps([[-1, 1, 4096, 0], [1000, 2, 256, 4], [1000, 3, 0, 4], [1500, 2, 128, 3],
                                          [1200, 4, -256, 4], [2000, 4, -128, 3], [2500, 2, 64, 7], [2600, 9, 1, 1]]))
    write(d, "floats.raw.json", "[[0, 2, 1.0, 1], [5e2, 4, -1, 1]]")
    d = os.path.join(out, "memtimeline_json")
    write(d, "coalesced.json", json.dumps([[1000, 1001, 1003],
                                           [[0, 1, 2, 3, 4, 5, 6, 7, 8], [0, 1, 2, 3, 4, 5, 6, 7, 9],
                                            [0, 0, 0, 0, 0, 0, 0, 0, 0]]]))


def frame(name, filename, line):
    return {"name": name, "filename": filename, "line": line}


def small_snapshot():
    frames = [frame("forward", "model.py", 54), frame("at::empty", "??", 0),
              frame("gather", "memory_snapshot.cpp", 18446744073709551615)]
    seg = {"device": 0, "address": 139000000000000, "total_size": 2097152, "allocated_size": 1024,
           "active_size": 1024, "requested_size": 1000, "stream": 0, "segment_type": "small",
           "segment_pool_id": (0, 0), "is_expandable": False, "frames": frames,
           "blocks": [{"address": 139000000000000, "size": 1024, "requested_size": 1000,
                       "state": "active_allocated", "frames": frames},
                      {"size": 2096128, "state": "inactive", "frames": []}]}
    trace = [{"action": "segment_alloc", "addr": 139000000000000, "size": 2097152, "stream": 0,
              "time_us": 10, "frames": frames},
             {"action": "alloc", "addr": 139000000000000, "size": 1024, "stream": 0, "time_us": 11,
              "frames": frames, "compile_context": "N/A", "user_metadata": ""},
             {"action": "free_requested", "addr": 139000000000000, "size": 1024, "stream": 0, "time_us": 12,
              "frames": frames},
             {"action": "free_completed", "addr": 139000000000000, "size": 1024, "stream": 0, "time_us": 13,
              "frames": frames},
             {"action": "alloc", "addr": 139000000000000, "size": 1024, "stream": 0, "time_us": 14, "frames": []},
             {"action": "oom", "addr": 0, "size": 1 << 40, "device_free": 1 << 20, "stream": 0, "time_us": 15,
              "frames": frames},
             {"action": "snapshot", "addr": 0, "size": 0, "stream": 0, "time_us": 16, "frames": []},
             {"action": "new_future_action", "addr": 1, "size": 2, "time_us": 17, "frames": []}]
    return {"segments": [seg], "device_traces": [trace, []],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True",
                                   "max_split_size": -1, "nested": {"a": [1, 2.5, None, True]}},
            "external_annotations": [{"device": 0, "name": "fwd", "stage": "START", "time_us": 10},
                                     {"device": 0, "name": "fwd", "stage": "END", "time_us": 16}]}


def own_pickles(out):
    snap = small_snapshot()
    for target in ("snapshot", "pickle"):
        d = os.path.join(out, target)
        for protocol in (2, 3, 4, 5):
            write(d, "snapshot_p%d.pickle" % protocol, pickle.dumps(snap, protocol=protocol))
        legacy = [dict(snap["segments"][0])]
        write(d, "legacy_list.pickle", pickle.dumps(legacy, protocol=2))
        host = dict(snap)
        host["host_segments"] = [dict(snap["segments"][0], device=-1)]
        host["host_traces"] = [snap["device_traces"][0][:3]]
        write(d, "host_memory.pickle", pickle.dumps(host, protocol=4))
    d = os.path.join(out, "pickle")
    values = [None, True, False, 0, -1, 255, 65535, -2 ** 31, 2 ** 63 - 1, -2 ** 63, 2 ** 64 - 1, 1.5, float("inf"),
              "", "x" * 300, "\u00e9\ud800", b"", b"\x00" * 300, (), (1,), (1, 2), (1, 2, 3),
              tuple(range(5)), [], {}, {"k": [1, {"n": (2,)}]}]
    write(d, "values_p4.pickle", pickle.dumps(values, protocol=4))
    write(d, "values_p5.pickle", pickle.dumps(values + [bytearray(b"ab")], protocol=5))  # BYTEARRAY8
    shared = [1, 2]
    write(d, "shared_p2.pickle", pickle.dumps({"a": shared, "b": shared, "c": [shared] * 3}, protocol=2))
    # Lists of their own inside the items of a claimed list, one fetched again after it was
    # released: the memo gives it as a Known value (the fuzz target's knowing sink, mode 3).
    ls = [[i, i + 1] for i in range(300)]
    write(d, "own_lists_met_again_p4.pickle",
          pickle.dumps([[{"frames": x} for x in ls] + [{"frames": ls[7]}], ls[9], {"k": ls[11]}], protocol=4))
    ls = [[{"f": i}] for i in range(300)]
    write(d, "own_nested_met_again_p2.pickle", pickle.dumps([[{"frames": x} for x in ls], (ls[1], ls[2][0]), [ls[3]]], protocol=2))


def own_text_formats(out):
    d = os.path.join(out, "heaptrack")
    write(d, "v3_more_records.txt",
          "v 10400 3\nX test_program --arg\nI 1000 3e8\nA\n"
          "s 9 libc.so.6\ns 6 malloc\ns 4 main\ns 6 main.c\ns 8 operator\n"
          "i 7f0000001000 1 2\ni 7f0000002000 1 3 4 2a 5 4 7\n"
          "t 1 0\nt 2 1\na 40 1\na 1000 2\nc 5\n+ 0\n+ 1\n- 1\nc a\nR 40\n- 0\n+ 0\nS free.*\nc 9\nz unknown\n")
    write(d, "v2.txt", "v 10200 2\ns libfoo.so\ns foo\ni 1000 0 1\nt 1 0\na 10 1\n+ 0\n- 0\n+ 0\n")
    # The live readers (formats/live/HeaptrackStream): the raw pipe libheaptrack writes, and
    # heaptrack_interpret's output, as tst_live_native feeds them. real_small.* in these two
    # folders are a real recording of a 40-allocation program (heaptrack 1.4 -r, then
    # heaptrack_interpret), made by hand; this script keeps them.
    d = os.path.join(out, "heaptrack_raw")
    write(d, "three_blocks.raw",
          "v 10400 3\nc a\n+ 400 1 1000\n+ 400 1 2000\nc 14\n+ 400 2 3000\n- 2000\n- 9999\nc 1e\n")
    write(d, "burst_without_tick.raw", "v 10400 3\nm 1 x 1000 0 10\nt 1000 0\n+ 10 1 a0\n+ 20 1 b0\n- a0\n+ 8 1 a0\n")
    d = os.path.join(out, "heaptrack_live")
    write(d, "two_sites.txt",
          "v 10400 3\ns 4 main\ns 5 a.cpp\ns 1 f\ns 3 exe\n"
          "i 1000 4 1 2 7\ni 2000 4 3 2 9\nt 1 0\nt 2 1\n"
          "a 400 1\na 10 2\n+ 0\n+ 0\n- 0\n+ 1\nc 5\n")
    d = os.path.join(out, "massif")
    write(d, "two_snapshots.massif",
          "desc: --time-unit=ms\ncmd: ./a.out arg\ntime_unit: ms\n#-----------\nsnapshot=0\n#-----------\n"
          "time=0\nmem_heap_B=0\nmem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=empty\n"
          "#-----------\nsnapshot=1\n#-----------\ntime=10\nmem_heap_B=1000\nmem_heap_extra_B=8\nmem_stacks_B=0\n"
          "heap_tree=peak\nn2: 1000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
          " n1: 600 0x4005A1: f (a.c:3)\n  n0: 600 0x4005B2: main (a.c:9)\n"
          " n0: 400 in 2 places, all below massif's threshold (1.00%)\n")
    d = os.path.join(out, "probe")
    write(d, "op_mode.jsonl",
          '{"type": "hello", "protocol": "memviz-probe", "version": 1, "pid": 4242, "argv": ["train.py", "--x"], '
          '"python": "3.11.2", "torch": "1.13.1", "mode": "op", "t0_wall_ns": 1764449000000000000, "cuda": true}\n'
          '{"type":"phase","t":0,"phase":"forward","step":0}\n'
          '{"type":"op","t":7714021,"dur":61093,"kind":"op","name":"aten::addmm","phase":"forward","step":0,'
          '"mem":{"cpu":{"before":70511616,"after":70528000},"cuda:0":{"before":0,"after":512,"reserved":2097152}}}\n'
          '{"type":"op","t":7800000,"dur":100,"kind":"op","name":"aten::relu","phase":"forward","step":0,'
          '"mem":{"cpu":{"before":70520000,"after":70520000}}}\n'
          '{"type":"mem","t":8000000,"mem":{"cpu":{"allocated":1},"cuda:0":{"allocated":2,"reserved":3}}}\n'
          '{"type":"phase","t":16509920,"phase":"backward","step":0}\n'
          '{"type":"mark","t":17000000,"label":"half way \\u00e9"}\n'
          '{"type":"dropped","t":18000000,"count":12}\n'
          '{"type":"future","t":1}\n'
          'not json\n'
          '{"type":"step","t":23802398,"step":1}\n'
          '{"type": "bye", "t": 29080778, "exit_code": 0, "error": ""}\n')
    write(d, "module_mode.jsonl",
          '{"type": "hello", "protocol": "memviz-probe", "version": 1, "pid": 1, "argv": [], "mode": "module", '
          '"t0_wall_ns": null}\n'
          '{"type":"op","t":5,"dur":3,"kind":"module","name":"Net.fc","phase":"forward","step":0,'
          '"mem":{"cpu":{"before":10,"after":20}}}\n'
          '{"type":"op","t":9,"dur":1,"kind":"optimizer","name":"SGD.step","phase":"optimizer","step":0,'
          '"mem":{"cpu":{"before":20,"after":15}}}\n'
          '{"type": "bye", "t": 20, "exit_code": null, "error": "Traceback: boom"}\n')
    d = os.path.join(out, "oom_message")
    messages = {
        "cpu_windows.txt": "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:72] data. "
                           "DefaultCPUAllocator: not enough memory: you tried to allocate 3355443200 bytes.",
        "cpu_posix.txt": "RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't "
                         "allocate memory: you tried to allocate 1099511627776 bytes. Error code 12 (Cannot allocate memory)",
        "torch_legacy.txt": "RuntimeError: $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM! at "
                            "/pytorch/aten/src/TH/THGeneral.cpp:201",
        "cuda_semicolons.txt": "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 10.76 GiB total "
                               "capacity; 9.78 GiB already allocated; 17.69 MiB free; 9.80 GiB allowed; 9.83 GiB "
                               "reserved in total by PyTorch) If reserved memory is >> allocated memory try setting "
                               "max_split_size_mb to avoid fragmentation.",
        "cuda_sentences.txt": "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                              "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a "
                              "total capacity of 79.15 GiB of which 16.81 MiB is free. Process 4242 has 70.00 GiB "
                              "memory in use. Process 99 has 9.12 GiB memory in use. Of the allocated memory 77.51 GiB "
                              "is allocated by PyTorch, with 1.00 GiB allocated in private pools (e.g., CUDA Graphs), "
                              "and 1.07 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory "
                              "is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
                              "fragmentation.",
        "mps.txt": "RuntimeError: MPS backend out of memory (MPS allocated: 17.00 GB, other allocations: 1.50 GB, "
                   "max allowed: 18.13 GB). Tried to allocate 1024.00 MB on private pool.",
        "no_numbers.txt": "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported",
        "hip.txt": "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacty of "
                   "63.98 GiB of which 0 bytes is free. Including non-PyTorch memory, this process has 63.98 GiB memory "
                   "in use. Of the allocated memory 60.00 GiB is allocated by PyTorch, and 1.50 GiB is reserved by "
                   "PyTorch but unallocated.",
    }
    for name, text in messages.items():
        write(d, name, text)
    d = os.path.join(out, "model_spec")
    write(d, "transformer.json", json.dumps({
        "name": "tiny \"quoted\" lm", "input": {"shape": [16], "dtype": "int64"},
        "target": {"shape": [16], "dtype": "int64"}, "loss": "cross_entropy",
        "layers": [{"type": "embedding", "num_embeddings": 100, "embedding_dim": 32},
                   {"type": "transformer_encoder_layer", "d_model": 32, "nhead": 4, "dim_feedforward": 64,
                    "dropout": 0.1, "batch_first": True, "activation": "gelu"},
                   {"type": "linear", "out_features": 100, "tied": True, "bias": False}]}, indent=1))
    write(d, "decoders.json", json.dumps({  # issue 31: GPT-2 and Llama blocks, GQA, MoE
        "name": "tiny decoders", "input": {"shape": [16], "dtype": "int64"},
        "target": {"shape": [16], "dtype": "int64"}, "loss": "cross_entropy",
        "layers": [{"type": "embedding", "num_embeddings": 100, "embedding_dim": 32},
                   {"type": "position_embedding", "num_embeddings": 64, "embedding_dim": 32},
                   {"type": "gpt2_block", "d_model": 32, "nhead": 4, "dim_feedforward": 64, "dropout": 0.1},
                   {"type": "llama_decoder_layer", "d_model": 32, "nhead": 4, "dim_feedforward": 48,
                    "num_key_value_heads": 2},
                   {"type": "llama_decoder_layer", "d_model": 32, "nhead": 4, "dim_feedforward": 48,
                    "num_experts": 4, "experts_per_token": 2},
                   {"type": "rmsnorm"},
                   {"type": "linear", "out_features": 100, "bias": False}]}, indent=1))


def own_input_file(out):
    d = os.path.join(out, "input_file")
    text = b"".join(b"%d,alloc,0x%x,%d\n" % (i, 4096 * i, i * 7) for i in range(200))
    write(d, "plain.txt", text)
    write(d, "one_member.gz", gzip.compress(text, mtime=0))
    write(d, "two_members.gz", gzip.compress(text[:1000], mtime=0) + gzip.compress(text[1000:], mtime=0))
    write(d, "empty.gz", gzip.compress(b"", mtime=0))
    # zstd frames, hand-assembled (the standard library has no zstd): magic, a frame header
    # descriptor of 0 (no content size, no checksum), a window descriptor of 0x20 (16 KiB), then
    # blocks (3-byte headers: last-block bit, type 0 raw / 1 RLE, size).
    content = b"hello zstd\n"
    header = b"\x28\xb5\x2f\xfd\x00\x20"
    raw_block = (1 | (0 << 1) | (len(content) << 3)).to_bytes(3, "little") + content
    write(d, "raw_block.zst", header + raw_block)
    rle_block = (1 | (1 << 1) | (4096 << 3)).to_bytes(3, "little") + b"a"
    write(d, "rle_block.zst", header + rle_block)
    write(d, "two_frames.zst", (header + raw_block) * 2)


def own_store_chunks(out):
    """Raw chunk layouts (docs/schema.md) behind the target's mode byte: bit 2 set, so the
    target compresses them and mutations reach the layout itself."""
    d = os.path.join(out, "store_chunks")
    u32 = lambda v: (v & 0xFFFFFFFF).to_bytes(4, "little")
    i64 = lambda v: (v & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")

    def narrow(values):
        lo, hi = min(values), max(values)
        width = ((hi - lo).bit_length() + 7) // 8
        return bytes([width]) + i64(lo) + b"".join((v - lo).to_bytes(width, "little") for v in values)

    times, addrs, sizes = [1000, 1500, 1700], [0x7F0000000000, 0x7F0000001000, 0x7F0000000000], [4096, 512, 4096]
    events = (u32(0xFFFFFFFF) + u32(3) + i64(times[0]) + narrow([0, 500, 200]) + narrow(addrs) + narrow(sizes) +
              narrow([0, 1, -1]) + narrow([-1, -1, -1]) + narrow([5, 6, 5]) + narrow([0, 0, 0]) +
              narrow([1, 1, 2]) + narrow([0, 0, 0]))
    write(d, "events_narrow", bytes([4 | 0]) + events)
    fixed = u32(2) + i64(100) + i64(50) + i64(0x1000) + i64(0x1000) + i64(64) + i64(64)
    fixed += u32(3) + u32(0xFFFFFFFF) + u32(0xFFFFFFFF) + u32(0xFFFFFFFF) + u32(2) + u32(2)
    fixed += (0).to_bytes(2, "little") * 2 + bytes([1, 2]) + bytes([0, 0])
    write(d, "events_fixed", bytes([4 | 0]) + fixed)
    write(d, "points", bytes([4 | 1]) + u32(2) + i64(10) + i64(5) + i64(100) + i64(-40))
    write(d, "records_3_columns", bytes([4 | 2 | (2 << 3)]) + u32(2) + i64(7) + i64(3) + i64(1) + i64(2) + i64(-5) + i64(9))
    # Codec 2 points and records (schema version 10): flag 0x40 = steps, the first value after
    # the column; 0x80 = records' difference from the row's first column.
    def flagged(values, flag):
        col = narrow(values)
        return bytes([col[0] | flag]) + col[1:]
    write(d, "points_narrow", bytes([4 | 1]) + u32(0xFFFFFFFF) + u32(3) + flagged([0, 200, 300], 0x40) + i64(5000) +
          narrow([7, -9, 400]))
    records2 = (u32(0xFFFFFFFF) + u32(3) + i64(1000) + narrow([0, 300, 600]) + flagged([0, 0, 5], 0x80) +
                flagged([0, 1, 1], 0x40) + i64(100))
    write(d, "records_narrow_3_columns", bytes([4 | 2 | (2 << 3)]) + records2)
    alloc = u32(1) + b"".join(i64(v) for v in (0x7F0000000000, 1000, 1024, 3, -(1 << 63), 5000, -(1 << 63)))
    alloc += u32(12) + u32(0xFFFFFFFF) + bytes([2])
    write(d, "allocations", bytes([4 | 3]) + alloc)
    # Codec 2 (docs/formats-snapshot.md): presence bits, address, requested size, block size,
    # alloc entry step, free entry step, alloc time step, free time step, stacks, origin.
    presence = [1 | 2 | 4 | 8, 4, 2 | 8]
    steps_t = [5000, 1000, 0]
    alloc2 = (u32(0xFFFFFFFF) + u32(3) + narrow(presence) + narrow([0x7F0000000000, 0x7F0000100000, 0x7F0000000000]) +
              narrow([1000, 512, 64]) + narrow([1024, 0, 0]) + narrow([3, 4, -8]) + narrow([6, 0, 20]) +
              narrow(steps_t) + narrow([2000, 0, 9000]) + narrow([12, 13, 14]) + narrow([-1, -1, 14]) + narrow([0, 0, 1]))
    write(d, "allocations_narrow", bytes([4 | 3]) + alloc2)
    # The heaptrack chunks (bit 6; docs/formats-native.md): nodes from node 16 (node - parent,
    # ip), site stacks (site step, node, four costs), ips (narrow: address, module, function,
    # file, line, inlined count; the inlined frames' count and function, file, line) and
    # strings (narrow: lengths, then the bytes).
    write(d, "heaptrack_nodes", bytes([64 | 4 | 0 | (1 << 3)]) + u32(3) + u32(16) + u32(1) + u32(1) + u32(3) + u32(4) + u32(3))
    write(d, "heaptrack_site_stacks", bytes([64 | 4 | 1]) + u32(2) + u32(0) + u32(1) + u32(5) + u32(2) +
          i64(1) + i64(2) + i64(0) + i64(1) + i64(4096) + i64(-16) + i64(4096) + i64(0))
    ips = (u32(0xFFFFFFFF) + u32(3) + narrow([0x7F0000001000, 0x400000, 0x7F0000002000]) + narrow([1, 1, 2]) +
           narrow([3, 0, 4]) + narrow([5, 0, 5]) + narrow([40, 0, 7]) + narrow([2, 0, 0]) +
           u32(2) + narrow([6, 7]) + narrow([5, 5]) + narrow([41, 42]))
    write(d, "heaptrack_ips", bytes([64 | 4 | 2]) + ips)
    texts = [b"", b"/usr/lib/libc.so.6", b"operator new(unsigned long)", b"main.cpp"]
    write(d, "heaptrack_strings", bytes([64 | 4 | 3]) + u32(0xFFFFFFFF) + u32(len(texts)) +
          narrow([len(t) for t in texts]) + b"".join(texts))


def own(out):
    own_alloclog(out)
    own_chrome(out)
    own_memtimeline(out)
    own_pickles(out)
    own_text_formats(out)
    own_input_file(out)
    own_store_chunks(out)


# ---------------------------------------------------------------- fixture cuts

class DataOnly(pickle.Unpickler):
    """Plain data only: any class or function the pickle names is refused."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError("refused %s.%s: the seed cutter reads data only" % (module, name))


def read_maybe_gzip(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def fixtures(out, root):
    prof = os.path.join(root, "pytorch-profiler")
    for name in sorted(os.listdir(prof)) if os.path.isdir(prof) else []:
        trace = json.loads(read_maybe_gzip(os.path.join(prof, name)))
        events = trace["traceEvents"]
        memory = [e for e in events if e.get("name") in ("[memory]", "[OutOfMemory]")]
        ops = [e for e in events if e.get("ph") == "X"]
        other = [e for e in events if e.get("ph") not in ("X",) and e not in memory]
        stem = name.split(".")[0]
        for n in (20, 120):
            cut = dict(trace)
            cut["traceEvents"] = ops[:n] + memory[:n] + other[:10]
            write(os.path.join(out, "chrome_trace"), "%s_%d.json" % (stem, n), json.dumps(cut))
        write(os.path.join(out, "sniff_import"), "%s_40.json" % stem,
              json.dumps(dict(trace, traceEvents=ops[:20] + memory[:20])))
    tl = os.path.join(root, "pytorch-memory-timeline")
    for name in sorted(os.listdir(tl)) if os.path.isdir(tl) else []:
        rows = json.loads(read_maybe_gzip(os.path.join(tl, name)))
        for n in (50, 800):
            write(os.path.join(out, "memtimeline_raw"), "%s_%d.raw.json" % (name.split(".")[0], n), json.dumps(rows[:n]))
        write(os.path.join(out, "sniff_import"), "%s_50.raw.json" % name.split(".")[0], json.dumps(rows[:50]))
    snap = os.path.join(root, "pytorch-snapshot")
    for name in sorted(os.listdir(snap)) if os.path.isdir(snap) else []:
        with open(os.path.join(snap, name), "rb") as f:
            data = DataOnly(io.BytesIO(f.read())).load()
        for segs, entries in ((3, 20), (10, 150)):
            cut = dict(data)
            cut["segments"] = data["segments"][:segs]
            cut["device_traces"] = [t[:entries] for t in data["device_traces"]]
            blob = pickle.dumps(cut, protocol=4)
            stem = "%s_%d" % (name.split(".")[0], entries)
            write(os.path.join(out, "snapshot"), stem + ".pickle", blob)
            write(os.path.join(out, "pickle"), stem + ".pickle", blob)
            if entries == 20:
                write(os.path.join(out, "sniff_import"), stem + ".pickle", blob)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "own":
        own(sys.argv[2])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "fixtures":
        root = sys.argv[3] if len(sys.argv) == 4 else os.path.join(os.path.dirname(__file__), "../../../shared/fixtures")
        fixtures(sys.argv[2], root)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
