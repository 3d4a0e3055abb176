# SPDX-License-Identifier: MIT
"""What PyTorch 2.x adds and the probe must handle (issue 54; probe_pytest_torch2 runs these
under the pinned PyTorch 2.13): a torch.compile'd module in module and op modes (the probe's
global hooks must not break Dynamo's tracing, and the compiled call is one record named after
the module it wraps), scaled_dot_product_attention as the operator it dispatches to, and the
foreach and fused AdamW steps, each a step of its own. PyTorch 1.13 has none of these: there
they are skipped as not applicable (the rest of the suite runs under both)."""

import pytest

from test_probe import Listener, probe

# A causal self-attention block through F.scaled_dot_product_attention, compiled with the
# aot_eager backend (Dynamo and AOTAutograd, no C++ toolchain), two steps of foreach AdamW,
# then one eager step of fused AdamW.
SCRIPT = '''
import torch, torch.nn.functional as F
torch.manual_seed(0)

class Attention(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = torch.nn.Linear(64, 192)
        self.out = torch.nn.Linear(64, 64)

    def forward(self, x):
        q, k, v = self.qkv(x).view(x.shape[0], x.shape[1], 3, 4, 16).unbind(2)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.out(y.transpose(1, 2).reshape(x.shape))

net = torch.nn.Sequential(Attention(), torch.nn.LayerNorm(64), torch.nn.Linear(64, 10))
compiled = torch.compile(net, backend="aot_eager")
x = torch.randn(8, 32, 64)
foreach = torch.optim.AdamW(net.parameters(), foreach=True)
for _ in range(2):
    foreach.zero_grad()
    compiled(x).sum().backward()
    foreach.step()
fused = torch.optim.AdamW(net.parameters(), fused=True)
fused.zero_grad()
net(x).sum().backward()
fused.step()
print("trained")
'''


@pytest.fixture
def torch2(torch):
    if int(torch.__version__.split(".")[0]) < 2:
        pytest.skip("PyTorch %s has no torch.compile, SDPA or fused AdamW: PyTorch 2.x only" % torch.__version__)
    return torch


def run(tmp_path, mode):
    address = str(tmp_path / "p.sock")
    listener = Listener(address)
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    r = probe("--connect", "unix:" + address, "--mode", mode, str(script), cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "trained"
    # the probe's global hooks are what torch.compile warns about: the probe silences that
    assert "global hooks" not in r.stderr, r.stderr
    lines = listener.lines()
    assert lines[-1]["type"] == "bye" and lines[-1]["exit_code"] == 0, lines[-1]
    return lines


def test_compiled_module_in_module_mode(tmp_path, torch2):
    lines = run(tmp_path, "module")
    names = [line["name"] for line in lines if line["type"] == "op"]
    # two compiled calls, each one record of the module torch.compile wrapped
    assert names.count("Sequential [compiled]") == 2, names
    # the eager call after them: the wrapped module and its children under their own names
    assert names.count("Sequential") == 1, names
    assert "Sequential.0.qkv" in names and "Sequential.2" in names, names
    assert names.count("AdamW.step") == 3, names
    assert [line["step"] for line in lines if line["type"] == "step"] == [1, 2, 3]


def test_sdpa_and_optimizers_in_op_mode(tmp_path, torch2):
    lines = run(tmp_path, "op")
    ops = [line for line in lines if line["type"] == "op"]
    names = [op["name"] for op in ops]
    # SDPA reaches the dispatcher as its CPU kernel, forward and backward, in the compiled
    # steps as in the eager one
    sdpa = [n for n in names if n.startswith("aten::_scaled_dot_product") and not n.endswith("_backward")]
    assert len(sdpa) == 3, sorted(set(names))
    assert sum(n.startswith("aten::_scaled_dot_product") and n.endswith("_backward") for n in names) == 3
    # foreach AdamW: its multi-tensor kernels; fused AdamW: one kernel for the whole step
    assert any(n.startswith("aten::_foreach_") for n in names), sorted(set(names))
    assert names.count("aten::_fused_adamw_") == 1, sorted(set(names))
    assert [line["step"] for line in lines if line["type"] == "step"] == [1, 2, 3]
    # every operator of the optimizer steps is recorded in the optimizer phase
    phase, seen = "forward", []
    for line in lines:
        if line["type"] == "phase":
            phase = line["phase"]
        elif line["type"] == "op" and (line["name"].startswith("aten::_foreach_") or line["name"] == "aten::_fused_adamw_"):
            seen.append(phase)
    assert seen and set(seen) == {"optimizer"}, seen
