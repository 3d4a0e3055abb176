#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`accelerate estimate-memory` beside `memviz estimate` on every Hugging Face config of
tests/data/hf (benchmark, not a test): the parameters each counts and the training figure each
gives, as a markdown table. Run it with the pinned PyTorch 2.x environment:

    "$(bash packaging/install-py-deps.sh)" bench/peers/accelerate_configs.py --memviz BUILD/app/memviz

accelerate's side is its own code (accelerate.commands.estimate.gather_data, fp32) with the Hub
lookup answered from the local file (bench/peers/peers_torch2.py); memviz's side is
`memviz estimate --config F --json` (its parameter count, and its reading of accelerate's rule
in peers.accelerate_bytes). A config the installed transformers cannot build is listed with
the reason.
"""
import argparse
import contextlib
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))


def accelerate_figures(path):
    from accelerate.commands import estimate
    with open(path) as f:
        doc = json.load(f)
    folder = tempfile.mkdtemp()
    try:
        shutil.copy(path, os.path.join(folder, "config.json"))
        estimate.verify_on_hub = lambda repo, token=None: types.SimpleNamespace(library_name="transformers", config=doc)
        args = types.SimpleNamespace(model_name=folder, library_name="transformers", trust_remote_code=False,
                                     dtypes=["float32"])
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            _, _, total, training = estimate.gather_data(args)[0]
    finally:
        shutil.rmtree(folder)
    return int(total), int(max(training.values())), doc


def untied_head(doc):
    """vocab × hidden when the config keeps an output head of its own (tie_word_embeddings false)."""
    text = doc.get("text_config", doc)
    if text.get("tie_word_embeddings", doc.get("tie_word_embeddings", True)):
        return 0
    vocab = text.get("vocab_size") or 0
    hidden = text.get("hidden_size") or text.get("d_model") or text.get("n_embd") or 0
    return vocab * hidden


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--memviz", required=True, help="the memviz binary")
    ap.add_argument("configs", nargs="*", help="config files (default: tests/data/hf/*.json)")
    args = ap.parse_args()
    configs = args.configs or sorted(p for p in glob.glob(os.path.join(HERE, "..", "..", "tests", "data", "hf", "*.json"))
                                     if not p.endswith("transformers_counts.json"))
    print("| config | model_type | accelerate: parameters | memviz: parameters | memviz − accelerate | "
          "untied output head (vocab × hidden) | accelerate: Training using Adam | memviz: its reading of that rule |")
    print("|---|---|---|---|---|---|---|---|")
    for path in configs:
        name = os.path.basename(path)
        out = subprocess.run([args.memviz, "estimate", "--config", path, "--json"], capture_output=True, text=True)
        try:
            mine = json.loads(out.stdout)
        except ValueError:
            mine = None
        try:
            total, adam, doc = accelerate_figures(path)
        except Exception as e:  # the installed transformers cannot build it: say why
            with open(path) as f:
                doc = json.load(f)
            reason = str(e).splitlines()[0][:90].replace("|", "\\|")
            print(f"| {name} | {doc.get('model_type', '')} | not built: {reason} | "
                  f"{mine['parameter_count']:,} |  |  |  | {mine['peers']['accelerate_bytes']:,} B |" if mine else
                  f"| {name} | {doc.get('model_type', '')} | not built: {reason} | (memviz: {out.stderr.strip()[:80]}) |  |  |  |  |")
            continue
        params = total // 4
        if not mine:
            print(f"| {name} | {doc.get('model_type', '')} | {params:,} | (memviz: {out.stderr.strip()[:80]}) |  |  | {adam:,} B |  |")
            continue
        diff = mine["parameter_count"] - params
        print(f"| {name} | {doc.get('model_type', '')} | {params:,} | {mine['parameter_count']:,} | {diff:+,} | "
              f"{untied_head(doc):,} | {adam:,} B | {mine['peers']['accelerate_bytes']:,} B |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
