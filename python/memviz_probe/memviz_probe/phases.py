# SPDX-License-Identifier: MIT
"""Phases and steps for the streaming probe: `backward` while torch.autograd.backward runs,
`optimizer` while an optimizer's step or zero_grad runs, else `forward`; a step ends when an
optimizer step returns (the first after a backward pass)."""

import functools


def patch(probe, owner, attribute, wrapper_factory):
    """Replaces owner.attribute by a wrapper of it, undone by probe.unpatch."""
    original = getattr(owner, attribute)
    wrapped = wrapper_factory(original)
    wrapped._memviz_original = original
    setattr(owner, attribute, wrapped)
    probe.unpatch.append(lambda: setattr(owner, attribute, original))


def install_phases(probe):
    torch = probe.torch

    def backward_factory(original):
        @functools.wraps(original)
        def backward(*args, **kwargs):
            probe.stepped_since_backward = False
            return probe.span("backward", "backward", "backward", original, *args, **kwargs)
        return backward

    patch(probe, torch.autograd, "backward", backward_factory)

    def step_done():
        if not probe.stepped_since_backward:
            probe.stepped_since_backward = True
            probe.next_step()

    import torch.optim.optimizer as optimizer_module
    pre = getattr(optimizer_module, "register_optimizer_step_pre_hook", None)
    post = getattr(optimizer_module, "register_optimizer_step_post_hook", None)
    if pre and post and probe.mode == "op":
        # PyTorch 2.0+: global hooks cover every optimizer, even ones made before start().
        state = {}

        def on_pre(optimizer, args, kwargs):
            state[id(optimizer)] = probe.phase
            probe.set_phase("optimizer")

        def on_post(optimizer, args, kwargs):
            probe.set_phase(state.pop(id(optimizer), "forward"))
            step_done()
            if probe.detach_pending:
                probe.try_detach()

        for handle in (pre(on_pre), post(on_post)):
            probe.unpatch.append(handle.remove)
    else:
        _wrap_optimizer_classes(probe, step_done)

    def zero_grad_factory(original):
        @functools.wraps(original)
        def zero_grad(self_, *args, **kwargs):
            return probe.span("optimizer", "optimizer", type(self_).__name__ + ".zero_grad",
                              original, self_, *args, **kwargs)
        return zero_grad

    patch(probe, torch.optim.Optimizer, "zero_grad", zero_grad_factory)


def _wrap_optimizer_classes(probe, step_done):
    """PyTorch 1.13 (or module mode, which times the whole step): wrap each optimizer class's
    step when an instance is made, and the classes already made."""
    torch = probe.torch

    def wrap_class(cls):
        if getattr(cls.step, "_memviz_original", None) is not None:
            return

        def step_factory(original):
            @functools.wraps(original)
            def step(self_, *args, **kwargs):
                try:
                    return probe.span("optimizer", "optimizer", type(self_).__name__ + ".step",
                                      original, self_, *args, **kwargs)
                finally:
                    step_done()
                    if probe.detach_pending:
                        probe.try_detach()
            return step

        patch(probe, cls, "step", step_factory)

    def all_subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from all_subclasses(sub)

    for cls in all_subclasses(torch.optim.Optimizer):
        wrap_class(cls)

    def init_factory(original):
        @functools.wraps(original)
        def __init__(self_, *args, **kwargs):
            original(self_, *args, **kwargs)
            if type(self_) is not torch.optim.Optimizer:
                wrap_class(type(self_))
        return __init__

    patch(probe, torch.optim.Optimizer, "__init__", init_factory)
