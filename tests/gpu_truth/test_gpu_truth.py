#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ctest gpu_truth: bench/gpu/truth.py --dry-run (the grid: non-empty, cheapest first, every
config validated or skipped with its reason, the budget respected) under Debian's Python without
torch, transformers or CUDA, and bench/gpu/compare.py on the hand-written sample results
(tests/data/cuda/sample-results.jsonl) with the built memviz, its errors recomputed here from the
sample's recorded values and what memviz prints.

usage: test_gpu_truth.py --memviz PATH [unittest options]
Without a memviz binary the compare tests fail under MEMVIZ_REQUIRE_ORACLES=1 and skip otherwise.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TRUTH = os.path.join(ROOT, "bench", "gpu", "truth.py")
COMPARE = os.path.join(ROOT, "bench", "gpu", "compare.py")
HF = os.path.join(ROOT, "tests", "data", "hf")
SAMPLE = os.path.join(ROOT, "tests", "data", "cuda", "sample-results.jsonl")
MEMVIZ = None


def run(args, **kw):
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=300, **kw)


def no_torch_env():
    """PYTHONPATH with a torch and a transformers that fail on import: a dry run must not import them."""
    d = tempfile.mkdtemp()
    for name in ("torch", "transformers", "peft"):
        with open(os.path.join(d, name + ".py"), "w") as f:
            f.write("raise ImportError('the dry run imported %s')\n" % name)
    env = dict(os.environ)
    env["PYTHONPATH"] = d
    return env


def dry(*extra, configs=None):
    args = [TRUTH, "--dry-run", "--json"] + list(extra)
    if configs:
        args += ["--configs", configs]
    p = run(args, env=no_torch_env())
    if p.returncode != 0:
        raise AssertionError("truth.py --dry-run failed:\n" + p.stderr)
    return json.loads(p.stdout)


class DryRun(unittest.TestCase):
    def test_grid_cheapest_first_and_validated(self):
        g = dry("--budget-s", "100000")
        self.assertGreater(len(g["grid"]), 10)
        times = [r["estimated_s"] for r in g["grid"]]
        self.assertEqual(times, sorted(times), "the grid is not ordered cheapest first")
        self.assertEqual(g["beyond_budget"], [])
        # every config file of tests/data/hf is either built (validated) or skipped with a reason
        files = sorted("tests/data/hf/" + f for f in os.listdir(HF) if f.endswith(".json"))
        seen = sorted(g["validated"] + [s["file"] for s in g["skipped"]])
        self.assertEqual(seen, files)
        for s in g["skipped"]:
            self.assertTrue(s["reason"], s)
        for r in g["grid"]:
            self.assertTrue(1 <= r["layers"] <= r["layers_full"], r)
            self.assertIn(r["mode"], ("train", "inference"))
        self.assertIn("tests/data/hf/gpt2.json", g["validated"])
        self.assertIn("not a causal language model", {s["file"]: s["reason"] for s in g["skipped"]}["tests/data/hf/t5-small.json"])
        self.assertTrue(any(r["snapshot"] for r in g["grid"]))
        self.assertLessEqual(sum(r["snapshot"] for r in g["grid"]), 3)

    def test_layer_cut_by_hand(self):
        # Llama-2-7B: 6,738,415,616 parameters published; outside the blocks the embedding and the
        # untied head (2 x 32000 x 4096) and the final norm (4096): 262,148,096; so one block has
        # (6,738,415,616 - 262,148,096) / 32 = 202,383,360. The cut keeps as many blocks as fit in
        # 700M parameters: (700,000,000 - 262,148,096) // 202,383,360 = 2 blocks, 666,914,816.
        self.assertEqual((6738415616 - 262148096) % 32, 0)
        block = (6738415616 - 262148096) // 32
        self.assertEqual(block, 202383360)
        rows = [r for r in dry("--budget-s", "100000")["grid"] if r["config_file"] == "tests/data/hf/llama-2-7b.json"]
        self.assertTrue(rows)
        for r in rows:
            self.assertEqual((r["layers"], r["layers_full"]), (2, 32))
            self.assertEqual(r["params_estimate"], 262148096 + 2 * block)
        # GPT-2 (124,439,808 parameters) fits whole
        gpt2 = [r for r in dry("--budget-s", "100000")["grid"] if r["config_file"] == "tests/data/hf/gpt2.json"]
        self.assertTrue(all(r["layers"] == 12 and r["params_estimate"] == 124439808 for r in gpt2))

    def test_budget(self):
        full = dry("--budget-s", "100000")
        small = dry("--budget-s", "120")
        self.assertLess(len(small["grid"]), len(full["grid"]))
        self.assertGreater(len(small["grid"]), 0)
        self.assertEqual([r["id"] for r in small["grid"]], [r["id"] for r in full["grid"][: len(small["grid"])]])
        self.assertEqual(len(small["grid"]) + len(small["beyond_budget"]), len(full["grid"]))
        total = small["startup_s"] + sum(r["estimated_s"] for r in small["grid"])
        self.assertLessEqual(total, 120)
        self.assertAlmostEqual(total, small["estimated_total_s"], places=1)
        nxt = full["grid"][len(small["grid"])]["estimated_s"]
        self.assertGreater(total + nxt, 120, "a row that fits the budget was left out")
        self.assertEqual(dry("--budget-s", "10")["grid"], [])  # not even the startup fits

    def test_resume_leaves_out_what_ran(self):
        full = [r["id"] for r in dry("--budget-s", "100000")["grid"]]
        ran = [r["id"] for r in sample_rows() if r.get("kind") == "config"]
        self.assertTrue(set(ran) <= set(full), "the sample's configurations are no longer in the grid")
        rest = [r["id"] for r in dry("--budget-s", "100000", "--resume", SAMPLE)["grid"]]
        self.assertEqual(rest, [i for i in full if i not in ran])
        # a run never overwrites an earlier results file in its folder
        sys.path.insert(0, os.path.dirname(TRUTH))
        import truth
        d = tempfile.mkdtemp()
        self.assertEqual(truth.results_path(d), os.path.join(d, "results.jsonl"))
        for name in ("results.jsonl", "results-2.jsonl"):
            open(os.path.join(d, name), "w").close()
        self.assertEqual(truth.results_path(d), os.path.join(d, "results-3.jsonl"))

    def test_bad_configs_are_skipped_with_reasons(self):
        d = tempfile.mkdtemp()
        files = {
            "broken.json": '{"model_type": "llama",\n "hidden_size": }',
            "nolayers.json": json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
                                         "num_attention_heads": 4, "vocab_size": 100}),
            "badheads.json": json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
                                         "num_hidden_layers": 2, "num_attention_heads": "4", "vocab_size": 100}),
            "encoder.json": json.dumps({"model_type": "bert", "architectures": ["BertModel"]}),
            "list.json": "[1, 2]",
            "tiny.json": json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
                                     "intermediate_size": 128, "num_hidden_layers": 3, "num_attention_heads": 4,
                                     "vocab_size": 100, "_comment": "dropped"}),
        }
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        g = dry("--budget-s", "100000", configs=d)
        reasons = {os.path.basename(s["file"]): s["reason"] for s in g["skipped"]}
        self.assertIn("line 2 column 17", reasons["broken.json"])
        self.assertIn("layer count", reasons["nolayers.json"])
        self.assertIn("'num_attention_heads'", reasons["badheads.json"])
        self.assertIn("not a causal language model", reasons["encoder.json"])
        self.assertIn("list.json", reasons)
        self.assertEqual({r["config_file"] for r in g["grid"]}, {os.path.relpath(os.path.join(d, "tiny.json"), ROOT)})
        self.assertTrue(all(r["layers"] == 3 for r in g["grid"]))
        # the text listing names the skipped files too
        p = run([TRUTH, "--dry-run", "--configs", d], env=no_torch_env())
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("skipped", p.stdout)
        self.assertIn("broken.json", p.stdout)

    def test_run_without_cuda_refuses(self):
        # without --dry-run and without --out it says what is missing, before importing anything
        p = run([TRUTH], env=no_torch_env())
        self.assertEqual(p.returncode, 2)
        self.assertIn("--out", p.stderr)


def memviz_json(args):
    p = subprocess.run([MEMVIZ, "estimate"] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise AssertionError("memviz estimate %s failed: %s" % (" ".join(args), p.stderr))
    return json.loads(p.stdout)


def sample_rows():
    with open(SAMPLE) as f:
        return [json.loads(l) for l in f if l.strip()]


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not MEMVIZ or not os.access(MEMVIZ, os.X_OK):
            if os.environ.get("MEMVIZ_REQUIRE_ORACLES") == "1":
                raise AssertionError("no memviz binary at %r" % MEMVIZ)
            raise unittest.SkipTest("no memviz binary (give --memviz)")
        cls.out = tempfile.mkdtemp()
        p = run([COMPARE, SAMPLE, "--memviz", MEMVIZ, "--out", cls.out])
        if p.returncode != 0:
            raise AssertionError("compare.py failed:\n" + p.stderr + p.stdout)
        cls.stdout = p.stdout
        with open(os.path.join(cls.out, "compare.json")) as f:
            cls.c = json.load(f)
        with open(os.path.join(cls.out, "compare.md")) as f:
            cls.md = f.read()

    def test_sample_is_marked(self):
        rows = sample_rows()
        self.assertTrue(all(r.get("sample") is True for r in rows))
        self.assertIn("not measurements", rows[0]["note"].lower())
        self.assertTrue(self.c["sample"])
        self.assertIn("not measurements", self.md)
        self.assertEqual(self.c["device"], "h100-80g")  # from "NVIDIA H100 80GB HBM3"

    def test_rows(self):
        # four finished configurations x (allocated, reserved, parameters) + the CUDA context
        self.assertEqual(len(self.c["rows"]), 4 * 3 + 1)
        self.assertEqual([n["id"] for n in self.c["not_compared"]], ["qwen2-7b-L1-train-fp32-adamw-foreach-sdpa-b2-s512"])
        self.assertEqual(self.c["not_run"], ["mixtral-8x7b-L1-train-fp32-adamw-foreach-sdpa-b2-s512"])
        for r in self.c["rows"]:
            self.assertIn("| %s | %s | %s |" % (r["id"], r["phase"], r["metric"]), self.md)
        self.assertIn("median abs. error", self.stdout)

    def check(self, rid, phase, args, recorded_alloc, recorded_reserved, recorded_params):
        rows = {r["id"]: r for r in sample_rows() if r.get("kind") == "config"}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(rows[rid]["config"], f)
        try:
            e = memviz_json(["--config", f.name, "--device", "h100-80g", "--json"] + args)
        finally:
            os.unlink(f.name)
        b = e["breakdown"]
        reserved = e["peak_bytes_per_device"] - b["cuda_context_bytes"]
        allocated = reserved - b["allocator_reserve_bytes"]
        want = {"allocated": (allocated, recorded_alloc), "reserved": (reserved, recorded_reserved),
                "parameters": (e["parameter_count"], recorded_params)}
        got = {r["metric"]: r for r in self.c["rows"] if r["id"] == rid}
        self.assertEqual(set(got), set(want))
        for metric, (pred, rec) in want.items():
            g = got[metric]
            self.assertEqual(g["phase"], phase)
            self.assertEqual(g["recorded"], rec)
            self.assertEqual(g["predicted"], pred)
            self.assertAlmostEqual(g["error_percent"], 100.0 * (pred - rec) / rec, places=9)
        return e

    def test_training_row_by_hand(self):
        # the sample's steady-state numbers of this row: 3,452,000,000 / 3,690,987,520 bytes
        self.check("gpt2-L12-train-fp32-adamw-foreach-sdpa-b2-s512", "steady",
                   ["--batch", "2", "--seq", "512", "--dtype", "fp32", "--optimizer", "adamw", "--optimizer-impl", "foreach",
                    "--attention", "flash"], 3452000000, 3690987520, 124439808)

    def test_lora_row_by_hand(self):
        self.check("gpt2-L12-train-bf16-adamw-foreach-lora16attn-sdpa-b2-s512", "steady",
                   ["--batch", "2", "--seq", "512", "--dtype", "bf16", "--optimizer", "adamw", "--optimizer-impl", "foreach",
                    "--lora-rank", "16", "--lora-targets", "attn", "--attention", "flash"], 1020000000, 1140850688,
                   # the built model less its adapters: 12 blocks x r=16 x ((768 + 2304) + (768 + 768))
                   125324544 - 12 * 16 * ((768 + 2304) + (768 + 768)))

    def test_generate_row_by_hand(self):
        # generate with a static cache of 512 tokens: a 480-token prompt and 32 new tokens
        self.check("llama-2-7b-L2-inference-gen-static-c512-bf16-sdpa-b1-s480", "generate",
                   ["--batch", "1", "--seq", "480", "--dtype", "bf16", "--inference", "--kv-cache", "512",
                    "--attention", "flash"], 1370000000, 1459617792, 666914816)

    def test_memviz_takes_every_variant(self):
        # every knob truth.py varies, as compare.py passes it, on the three fully varied families
        sys.path.insert(0, os.path.dirname(COMPARE))
        import compare
        import grid
        rows = [r for r in grid.build_grid()[0] if r["name"] in ("gpt2", "llama-2-7b", "qwen2-0.5b")]
        self.assertGreaterEqual(len(rows), 3 * 15)
        for r in rows:
            est, err = compare.run_memviz(MEMVIZ, r, "h100-80g")
            self.assertIsNone(err, r["id"])
            self.assertEqual(est["mode"], r["mode"], r["id"])
        eager = dict(rows[0], attention="sdpa", attention_used="eager")
        self.assertIn("eager", grid.memviz_args(eager, "h100-80g"))

    def test_context_and_summary(self):
        ctx = [r for r in self.c["rows"] if r["metric"] == "context"]
        self.assertEqual(len(ctx), 1)
        self.assertEqual(ctx[0]["recorded"], 530579456)  # the sample header's context_bytes
        self.assertAlmostEqual(ctx[0]["error_percent"], 100.0 * (ctx[0]["predicted"] - 530579456) / 530579456, places=9)
        for metric in ("allocated", "reserved", "parameters"):
            errs = sorted(abs(r["error_percent"]) for r in self.c["rows"] if r["metric"] == metric)
            self.assertEqual(len(errs), 4)
            s = self.c["summary"][metric]
            self.assertAlmostEqual(s["median_abs_error_percent"], (errs[1] + errs[2]) / 2, places=9)
            self.assertAlmostEqual(abs(s["worst_error_percent"]), errs[-1], places=9)
            self.assertIn("| %s | 4 | %.2f%% |" % (metric, (errs[1] + errs[2]) / 2), self.md)


if __name__ == "__main__":
    if "--memviz" in sys.argv:
        i = sys.argv.index("--memviz")
        MEMVIZ = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    unittest.main(verbosity=2)
