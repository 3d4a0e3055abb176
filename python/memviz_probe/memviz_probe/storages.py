# SPDX-License-Identifier: MIT
"""Op mode's pairing of memory with the operator that made it: each tensor storage an
operator's call returns that none of its inputs had is that operator's allocation (sent with
its record as "outs": [id, device, bytes]); when the storage is released a "free" record names
its id. memviz then knows what each operator holds at any moment (the bytes alive that it
allocated), where the before/after readings alone only give the net of its calls.

A storage is watched through the tensors seen on it (a finalizer on each tensor an operator
returned, or took as input once the others had gone: a tensor's Python object lives as long as
the tensor does). When the last of them has gone the storage may still be alive (a Parameter
made from the tensor torch.empty returned; autograd keeping an output for backward in a
shallow copy), so it is then asked, through a weak reference to the storage itself
(torch.multiprocessing's StorageWeakRef, in PyTorch 1.13 and 2.x alike), whether it has gone;
the probe asks before each reading of memory, so a storage counts as released from the first
reading after it went, at the moment it was asked: never early, never late for a reading."""

import weakref


def _storage_of(tensor):
    get = getattr(tensor, "untyped_storage", None)
    return get() if get is not None else tensor.storage()


def _tensors(value, tensor_type, out):
    """The tensors in an operator's arguments or result (nested lists, tuples and dicts)."""
    if isinstance(value, tensor_type):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _tensors(v, tensor_type, out)
    elif isinstance(value, dict):
        for v in value.values():
            _tensors(v, tensor_type, out)
    return out


def _device_name(device):
    return device.type if device.index is None else "%s:%d" % (device.type, device.index)


class _Entry:
    __slots__ = ("id", "size", "tensors", "ref")

    def __init__(self, storage_id, size, ref):
        self.id, self.size, self.tensors, self.ref = storage_id, size, 0, ref


class StorageTracker:
    """The storages operators made that are alive, by (device, data pointer)."""

    def __init__(self, torch, send_free):
        from torch.multiprocessing.reductions import StorageWeakRef
        self.weak_ref = StorageWeakRef
        self.tensor_type = torch.Tensor
        self.send_free = send_free  # called with the storage's id when it has gone
        self.live = {}              # (device, data_ptr) -> _Entry
        self.unwatched = {}         # the entries none of whose tensors are left: asked at each reading
        self.watched = set()        # id() of the tensors whose finalizer is set
        self.next_id = 1

    def _key(self, tensor):
        try:
            if tensor.is_sparse or tensor.device.type == "meta":
                return None, None, 0
            storage = _storage_of(tensor)
            ptr = storage.data_ptr()
            size = storage.nbytes() if hasattr(storage, "nbytes") else storage.size() * storage.element_size()
        except Exception:  # tensors without storage (functional wrappers, nested tensors)
            return None, None, 0
        if not ptr or not size:
            return None, None, 0
        return (_device_name(tensor.device), ptr), storage, size

    def _watch(self, tensor, key, entry):
        if id(tensor) in self.watched:
            return
        self.watched.add(id(tensor))
        entry.tensors += 1
        self.unwatched.pop(key, None)
        weakref.finalize(tensor, self._tensor_gone, id(tensor), key, entry).atexit = False

    def _tensor_gone(self, tensor_id, key, entry):
        self.watched.discard(tensor_id)
        entry.tensors -= 1
        if entry.tensors <= 0 and self.live.get(key) is entry:
            self.unwatched[key] = entry

    def check(self):
        """Reports the storages that have gone since the last check (call it before reading memory)."""
        if not self.unwatched:
            return
        for key, entry in list(self.unwatched.items()):
            if entry.tensors <= 0 and entry.ref.expired():
                self.unwatched.pop(key, None)
                if self.live.get(key) is entry:
                    del self.live[key]
                self.send_free(entry.id)

    def outputs(self, args, kwargs, result):
        """The storages the call that returned `result` made: [(id, device, bytes)]."""
        outs = _tensors(result, self.tensor_type, [])
        if not outs:
            return ()
        inputs = set()
        for t in _tensors(kwargs, self.tensor_type, _tensors(args, self.tensor_type, [])):
            key = self._key(t)[0]
            if key is None:
                continue
            inputs.add(key)
            entry = self.unwatched.get(key)
            if entry is not None:  # a storage whose first tensors went, used through another
                self._watch(t, key, entry)
        made = []
        for t in outs:
            key, storage, size = self._key(t)
            if key is None:
                continue
            entry = self.live.get(key)
            if entry is None:
                if key in inputs:  # an input's storage that no operator we saw made
                    continue
                entry = _Entry(self.next_id, size, self.weak_ref(storage))
                self.next_id += 1
                self.live[key] = entry
                made.append((entry.id, key[0], size))
            self._watch(t, key, entry)
        return made
