# SPDX-License-Identifier: MIT
"""What the streaming probe records: every aten operator (op mode, a TorchDispatchMode
entered on the thread that starts the probe) or every nn.Module call (module mode, the
global forward pre/post hooks), each with the memory before and after it."""

import json
import weakref


class OpNames:
    """JSON-quoted names, computed once per operator or module."""

    def __init__(self):
        self.ops = {}
        self.modules = weakref.WeakKeyDictionary()

    def op(self, func):
        name = self.ops.get(func)
        if name is None:
            schema = getattr(func, "_schema", None)
            text = getattr(schema, "name", None) or str(func)
            # The profiler's own bookkeeping ops are not the script's.
            name = "" if text.startswith("profiler::") or text.startswith("profiler.") else json.dumps(text)
            self.ops[func] = name
        return name

    def module(self, module, is_root):
        name = self.modules.get(module)
        if name is None:
            if is_root:  # name it and everything under it by their paths
                root = type(module).__name__
                for path, sub in module.named_modules():
                    if sub not in self.modules:
                        self.modules[sub] = json.dumps(root + ("." + path if path else ""))
                name = self.modules[module]
            else:
                name = json.dumps(type(module).__name__)
                self.modules[module] = name
        return name


def install_op_mode(probe):
    """Enters a dispatch mode that records every operator; returns it (probe.try_detach pops
    it). Also adds a module hook, between operators, where a pending detach can run."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class MemvizDispatchMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not probe.enabled:
                return func(*args, **(kwargs or {}))
            name = probe.names.op(func)
            if not name:
                return func(*args, **(kwargs or {}))
            t = probe.now()
            before = probe.memory.read()
            out = func(*args, **(kwargs or {}))
            after = probe.memory.read()
            probe.record(t, probe.now(), "op", name, before, after)
            return out

    mode = MemvizDispatchMode()
    mode.__enter__()

    def after_module(module, inputs, output):
        if probe.detach_pending:
            probe.try_detach()

    handle = probe.torch.nn.modules.module.register_module_forward_hook(after_module)
    probe.unpatch.append(handle.remove)
    return mode


def install_module_mode(probe):
    """One record per nn.Module call, named by its path under the outermost module."""
    hooks = probe.torch.nn.modules.module
    stack = []

    def pre(module, inputs):
        if probe.enabled:
            stack.append((probe.names.module(module, not stack), probe.now(), probe.memory.read()))

    def post(module, inputs, output):
        if probe.enabled and stack:
            name, t, before = stack.pop()
            probe.record(t, probe.now(), "module", name, before, probe.memory.read())

    for handle in (hooks.register_module_forward_pre_hook(pre), hooks.register_module_forward_hook(post)):
        probe.unpatch.append(handle.remove)
