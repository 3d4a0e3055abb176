# SPDX-License-Identifier: MIT
"""A small CPU training loop for measuring the memviz probe's overhead.

    python3 probe_train.py [--model mlp|cnn] [--steps N] [--probe MODE --connect ADDRESS]

Without --probe it trains plainly. With it, it calls memviz_probe.start(ADDRESS, MODE) first
(MODE "op" or "module"; ADDRESS may be one where nobody listens). Prints one line:
model steps ops_per_step median_step_ms mean_step_ms.
"""
import argparse
import statistics
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode


def make(model):
    torch.manual_seed(0)
    if model == "mlp":
        net = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                  torch.nn.Linear(512, 10))
        x = torch.randn(64, 256)
    else:
        net = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                                  torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                                  torch.nn.Flatten(), torch.nn.Linear(32, 10))
        x = torch.randn(32, 3, 32, 32)
    y = torch.randint(0, 10, (x.shape[0],))
    return net, torch.optim.Adam(net.parameters(), lr=1e-3), x, y


def step(net, opt, x, y):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()


class Count(TorchDispatchMode):
    n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        Count.n += 1
        return func(*args, **(kwargs or {}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="mlp", choices=["mlp", "cnn"])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--probe", choices=["op", "module"])
    p.add_argument("--connect")
    a = p.parse_args()
    torch.set_num_threads(1)
    net, opt, x, y = make(a.model)
    with Count():  # aten ops in one step (untimed)
        step(net, opt, x, y)
    ops = Count.n
    if a.probe:
        import memviz_probe
        memviz_probe.start(a.connect, a.probe)
    for _ in range(10):  # warm up
        step(net, opt, x, y)
    times = []
    for _ in range(a.steps):
        t = time.perf_counter_ns()
        step(net, opt, x, y)
        times.append((time.perf_counter_ns() - t) / 1e6)
    print(a.model, a.steps, ops, "%.4f" % statistics.median(times), "%.4f" % statistics.mean(times))


if __name__ == "__main__":
    main()
