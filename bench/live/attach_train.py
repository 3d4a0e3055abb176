# SPDX-License-Identifier: MIT
"""Usage: attach_train.py mlp|cnn attach | start ADDRESS  (see run_attach_overhead.sh)"""
# CPU time per step (time.process_time, so other processes on this shared machine count less)
# of bench/live/probe_train.py's model: plain, then with the probe (attached by memviz, or
# started in-process as `python3 -m memviz_probe` does), median of N steps each.
import statistics, sys, time, torch
import os
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "python", "memviz_probe"))
from probe_train import make, step, Count
from torch.utils._python_dispatch import _len_torch_dispatch_stack
torch.set_num_threads(1)
model, how = sys.argv[1], sys.argv[2]
net, opt, x, y = make(model)
with Count(): step(net, opt, x, y)
N = 150
def timed(n):
    ts = []
    for _ in range(n):
        t = time.process_time(); step(net, opt, x, y); ts.append(time.process_time() - t)
    return statistics.median(ts) * 1e3
for _ in range(10): step(net, opt, x, y)
plain = timed(N)
if how == "attach":
    print("ready", flush=True)
    while _len_torch_dispatch_stack() == 0:
        step(net, opt, x, y)
else:
    import memviz_probe; memviz_probe.start(sys.argv[3], "op")
for _ in range(10): step(net, opt, x, y)
probed = timed(N)
print("%s %s ops %d plain %.2f probe %.2f per-op-us %.1f" % (model, how, Count.n, plain, probed, (probed - plain) * 1e3 / Count.n), flush=True)
