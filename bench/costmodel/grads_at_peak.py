#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Measures, for torchvision's ResNet-50 (written out here: torchvision is not installed), one
# CPU training step with Adam (the second step, like bench/costmodel/measure.py): the live heap
# after every aten op (glibc mallinfo2 uordblks + hblkhd), and, at the op where the step peaks,
# how many bytes of parameter gradients exist. Run under /usr/bin/python3 with
# MALLOC_ARENA_MAX=1 MALLOC_MMAP_THRESHOLD_=131072 GLIBC_TUNABLES=glibc.malloc.tcache_count=0
# OMP_NUM_THREADS=1: `grads_at_peak.py BATCH` prints one JSON line (docs/workshop.md, lesson 2).
import ctypes, gc, sys, json
import torch, torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode

libc = ctypes.CDLL("libc.so.6")
class M(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena","ordblks","smblks","hblks","hblkhd","usmblks","fsmblks","uordblks","fordblks","keepcost")]
libc.mallinfo2.restype = M
def heap():
    m = libc.mallinfo2(); return m.uordblks + m.hblkhd

class Bottleneck(nn.Module):
    def __init__(self, cin, width, stride, down):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, width, 1, bias=False); self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False); self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, width * 4, 1, bias=False); self.bn3 = nn.BatchNorm2d(width * 4)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = nn.Sequential(nn.Conv2d(cin, width * 4, 1, stride, bias=False), nn.BatchNorm2d(width * 4)) if down else None
    def forward(self, x):
        idt = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None: idt = self.downsample(x)
        out += idt
        return self.relu(out)

class ResNet50(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False); self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True); self.maxpool = nn.MaxPool2d(3, 2, 1)
        layers, cin = [], 64
        for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for i in range(blocks):
                layers.append(Bottleneck(cin, width, stride if i == 0 else 1, i == 0)); cin = width * 4
        self.layers = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(1); self.fc = nn.Linear(2048, 1000)
    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.avgpool(self.layers(x))
        return self.fc(torch.flatten(x, 1))

torch.set_num_threads(1)
batch = int(sys.argv[1])
params = []
class Probe(TorchDispatchMode):
    def __init__(self): super().__init__(); self.reset(); self.phase = "setup"
    def reset(self): self.peak = -1; self.at = None
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        v = heap()
        if v > self.peak:
            grads = sum(p.grad.numel() * p.grad.element_size() for p in params if p.grad is not None)
            self.peak, self.at = v, (self.phase, str(func), grads)
        return out
probe = Probe(); probe.__enter__()
gc.collect(); base = heap()
torch.manual_seed(0)
model = ResNet50(); params[:] = list(model.parameters())
x = torch.randn(batch, 3, 224, 224); y = torch.randint(0, 1000, (batch,))
opt = torch.optim.Adam(params)
loss_fn = nn.CrossEntropyLoss()
for step in (1, 2):
    if step == 2: probe.reset()
    probe.phase = "forward"; opt.zero_grad(set_to_none=True); loss = loss_fn(model(x), y)
    probe.phase = "backward"; loss.backward()
    probe.phase = "optimizer"; opt.step(); del loss
MiB = 1048576
phase, op, grads = probe.at
print(json.dumps({"batch": batch, "params": sum(p.numel() for p in params), "peak_MiB": round((probe.peak - base) / MiB, 2),
                  "peak_phase": phase, "peak_op": op, "grads_at_peak_MiB": round(grads / MiB, 2),
                  "all_grads_MiB": round(sum(p.numel() * 4 for p in params) / MiB, 2)}))
