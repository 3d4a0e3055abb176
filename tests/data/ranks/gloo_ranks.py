# A small torch.distributed job on CPU with the gloo backend, for tests/tst_live_ranks.cpp.
# Run as one process per rank (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT in the environment),
# each under the memviz probe. Rank r trains on a batch of 16*(r+1) images, so its activations
# are (r+1) times rank 0's and the memory imbalance between ranks is real; gradients are
# averaged across ranks with all_reduce, so the ranks wait for each other every step.
import os
import sys

import torch
import torch.distributed as dist

rank = int(os.environ["RANK"])
world = int(os.environ["WORLD_SIZE"])
steps = int(sys.argv[1]) if len(sys.argv) > 1 else 2
dist.init_process_group("gloo", rank=rank, world_size=world)
torch.manual_seed(0)
batch = 16 * (rank + 1)
# A 3x3 convolution to 16 channels on 128x128 images: 1 MiB of float32 output per image.
net = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
                          torch.nn.Flatten(), torch.nn.Linear(16, 4))
opt = torch.optim.SGD(net.parameters(), lr=0.01)
x = torch.randn(batch, 3, 128, 128)
y = torch.randint(0, 4, (batch,))
for _ in range(steps):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(net(x), y)
    loss.backward()
    for p in net.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world
    opt.step()
dist.barrier()
dist.destroy_process_group()
print("rank", rank, "batch", batch, "activation_bytes", batch * 16 * 128 * 128 * 4)
