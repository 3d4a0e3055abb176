"""Two training steps of a small CNN under the memviz allocation hook.

Run by make_sample.sh with LD_PRELOAD=libmemviz_alloc_hook.so; the hook logs every CPU
tensor allocation and free. This script tells the hook which aten operator, which phase
(forward / backward / optimizer / data) and which module is running, so the log carries
operator names, categories and module stacks. Standard library and torch only.
"""
import ctypes
from collections import OrderedDict
import torch
import torch.nn as nn
from torch.utils._python_dispatch import TorchDispatchMode

hook = ctypes.CDLL(None)  # the preloaded hook is in the global namespace
hook.memviz_hook_set_context.argtypes = [ctypes.c_char_p] * 3
hook.memviz_hook_enable.argtypes = [ctypes.c_int]

state = {"phase": "setup", "modules": ["model"]}


def set_context(op):
    hook.memviz_hook_set_context(op.encode(), state["phase"].encode(), ";".join(state["modules"]).encode())


class OpTagger(TorchDispatchMode):
    """Names the aten op around each call, restoring the outer name afterwards."""

    def __init__(self):
        super().__init__()
        self.current = ""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        outer = self.current
        self.current = str(func.overloadpacket.__name__ if hasattr(func, "overloadpacket") else func)
        self.current = "aten::" + self.current
        set_context(self.current)
        try:
            return func(*args, **(kwargs or {}))
        finally:
            self.current = outer
            set_context(outer)


def tag_modules(model):
    for name, module in model.named_modules():
        if not name:
            continue
        def pre(_m, _inp, name=name):
            state["modules"].append(name.split(".")[-1])
        def post(_m, _inp, _out):
            state["modules"].pop()
        module.register_forward_pre_hook(pre)
        module.register_forward_hook(post)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(OrderedDict(
        conv1=nn.Conv2d(3, 32, 3, padding=1), bn1=nn.BatchNorm2d(32), relu1=nn.ReLU(), pool1=nn.MaxPool2d(2),
        conv2=nn.Conv2d(32, 64, 3, padding=1), bn2=nn.BatchNorm2d(64), relu2=nn.ReLU(), pool2=nn.MaxPool2d(2),
        flatten=nn.Flatten(), fc1=nn.Linear(64 * 16 * 16, 256), relu3=nn.ReLU(), fc2=nn.Linear(256, 10)))
    tag_modules(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    hook.memviz_hook_enable(1)
    with OpTagger():
        for _step in range(2):
            state["phase"] = "data"
            x = torch.randn(32, 3, 64, 64)
            y = torch.randint(0, 10, (32,))
            state["phase"] = "forward"
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(model(x), y)
            state["phase"] = "backward"
            state["modules"] = ["model", "backward"]
            loss.backward()
            state["phase"] = "optimizer"
            state["modules"] = ["model", "optimizer"]
            opt.step()
            state["modules"] = ["model"]
            del x, y, loss
    hook.memviz_hook_enable(0)


if __name__ == "__main__":
    main()
