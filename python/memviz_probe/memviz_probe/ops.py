# SPDX-License-Identifier: MIT
"""What the streaming probe records: every aten operator (op mode, a TorchDispatchMode
entered on the thread that starts the probe, with the tensor storages each call made:
storages.py) or every nn.Module call (module mode, the global forward pre/post hooks), each
with the memory before and after it."""

import json
import warnings
import weakref


# torch.compile(module) (PyTorch 2.x) wraps the module in an OptimizedModule that holds it here.
COMPILED_ORIGINAL = "_orig_mod"


def module_type_name(module):
    """The module's class name; a torch.compile'd module is named after the module it wraps."""
    original = getattr(module, COMPILED_ORIGINAL, None)
    if original is not None and type(module).__name__ == "OptimizedModule":
        return type(original).__name__ + " [compiled]"
    return type(module).__name__


def module_path_name(root, module, path):
    """The name of the module at `path` under `module`, named `root`. Under a compiled module the
    wrapped one and its children keep their own names ("Sequential.0.qkv"): they are what runs
    when the script also calls the module uncompiled."""
    if path == COMPILED_ORIGINAL or path.startswith(COMPILED_ORIGINAL + "."):
        root, path = type(getattr(module, COMPILED_ORIGINAL)).__name__, path[len(COMPILED_ORIGINAL) + 1:]
    return root + ("." + path if path else "")


def compiling_check(torch):
    """A function that is True while TorchDynamo traces (torch.compile, PyTorch 2.x). The hooks
    return at once then: Dynamo evaluates the check as True and traces nothing of the probe
    into the graph (reading the heap or the probe's dictionaries there breaks the compile);
    the compiled call is recorded as one call of the module torch.compile wrapped."""
    compiler = getattr(torch, "compiler", None)
    check = getattr(compiler, "is_compiling", None)
    if check is None:
        dynamo = getattr(torch, "_dynamo", None)
        check = getattr(dynamo, "is_compiling", None)
    return check if check is not None else (lambda: False)


def quiet_compile_hook_warning():
    """PyTorch 2.x warns at torch.compile(module) that global module hooks fire once more for
    the OptimizedModule. The probe's hooks are the global ones, and that extra call is the one
    they record for a compiled module: the warning would only puzzle the script's user."""
    warnings.filterwarnings("ignore", message=r"Using `torch\.compile\(module\)` when there are global hooks")


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
                root = module_type_name(module)
                for path, sub in module.named_modules():
                    if sub not in self.modules:
                        self.modules[sub] = json.dumps(module_path_name(root, module, path))
                name = self.modules[module]
            else:
                name = json.dumps(module_type_name(module))
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
            tracker = probe.storages
            tracker.check()  # storages gone before this reading are released before it
            t = probe.now()
            before = probe.memory.read()
            out = func(*args, **(kwargs or {}))
            tracker.check()
            after = probe.memory.read()
            t1 = probe.now()
            probe.record(t, t1, "op", name, before, after, tracker.outputs(args, kwargs, out))
            return out

    mode = MemvizDispatchMode()
    mode.__enter__()

    compiling = compiling_check(probe.torch)

    def after_module(module, inputs, output):
        if compiling():
            return
        if probe.detach_pending:
            probe.try_detach()

    quiet_compile_hook_warning()
    handle = probe.torch.nn.modules.module.register_module_forward_hook(after_module)
    probe.unpatch.append(handle.remove)
    return mode


def install_module_mode(probe):
    """One record per nn.Module call, named by its path under the outermost module."""
    hooks = probe.torch.nn.modules.module
    stack = []
    compiling = compiling_check(probe.torch)

    def pre(module, inputs):
        if compiling():
            return
        if probe.enabled:
            stack.append((probe.names.module(module, not stack), probe.now(), probe.memory.read()))

    def post(module, inputs, output):
        if compiling():
            return
        if probe.enabled and stack:
            name, t, before = stack.pop()
            probe.record(t, probe.now(), "module", name, before, probe.memory.read())

    quiet_compile_hook_warning()
    for handle in (hooks.register_module_forward_pre_hook(pre), hooks.register_module_forward_hook(post)):
        probe.unpatch.append(handle.remove)
