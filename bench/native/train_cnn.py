# SPDX-License-Identifier: MIT
"""Trains a small CNN on random images with Debian's PyTorch (CPU) for a fixed time.

The program heaptrack records for memviz's real-world heaptrack benchmark
(bench/native/record_real.sh): PyTorch's allocator, autograd and the Python interpreter give
deep and varied native stacks. Deterministic apart from timing: seed 0, one thread.
    /usr/bin/python3 bench/native/train_cnn.py [SECONDS]
With `--steps N` it trains N steps instead, whatever the time (bench/peers/run.sh runs it so
under memray and `memviz record --native`: the same work under each recorder).
"""
import sys
import time

import torch
from torch import nn

steps_wanted = None
if len(sys.argv) > 2 and sys.argv[1] == "--steps":
    steps_wanted, seconds = int(sys.argv[2]), float("inf")
else:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
    nn.Flatten(), nn.Linear(64, 10),
)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()

steps = 0
start = time.monotonic()
while (steps < steps_wanted) if steps_wanted is not None else (time.monotonic() - start < seconds):
    images = torch.randn(16, 3, 32, 32)
    labels = torch.randint(0, 10, (16,))
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(images), labels)
    loss.backward()
    optimizer.step()
    steps += 1
print(f"{steps} steps in {time.monotonic() - start:.1f} s, last loss {loss.item():.3f}")
