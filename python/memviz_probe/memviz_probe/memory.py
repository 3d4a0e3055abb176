# SPDX-License-Identifier: MIT
"""What the streaming probe reads before and after each record: the C heap's bytes in use
(glibc mallinfo2, where PyTorch's CPU allocator gets tensors) and, per initialised CUDA
device, torch.cuda.memory_allocated/reserved."""

import ctypes
import ctypes.util


class MallocInfo:
    """The C heap's bytes in use (glibc mallinfo2, or mallinfo before glibc 2.33); `read` is
    None where neither exists."""

    _FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")

    def __init__(self):
        self.read = None
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        except OSError:
            return
        if hasattr(libc, "mallinfo2"):
            class Info(ctypes.Structure):
                _fields_ = [(n, ctypes.c_size_t) for n in self._FIELDS]
            fn, mask = libc.mallinfo2, None
        elif hasattr(libc, "mallinfo"):
            class Info(ctypes.Structure):
                _fields_ = [(n, ctypes.c_int) for n in self._FIELDS]
            fn, mask = libc.mallinfo, 0xFFFFFFFF  # int fields wrap past 2 GiB; read them unsigned
        else:
            return
        fn.restype = Info
        fn.argtypes = []
        if mask is None:
            def read():
                m = fn()
                return m.uordblks + m.hblkhd
        else:
            def read():
                m = fn()
                return (m.uordblks & mask) + (m.hblkhd & mask)
        self.read = read


class MemoryReader:
    """[cpu bytes or None, (allocated, reserved) per CUDA device ...] as one list, and its
    `mem` JSON for a record."""

    def __init__(self, torch):
        self.torch = torch
        self.malloc = MallocInfo()
        self.cuda_devices = []

    def refresh_devices(self):
        cuda = self.torch.cuda
        if not self.cuda_devices and cuda.is_available() and cuda.is_initialized():
            self.cuda_devices = list(range(cuda.device_count()))

    def read(self):
        values = [self.malloc.read() if self.malloc.read else None]
        cuda = self.torch.cuda
        for d in self.cuda_devices:
            values.append((cuda.memory_allocated(d), cuda.memory_reserved(d)))
        return values

    def mem_json(self, before, after):
        parts = []
        if before[0] is not None and after[0] is not None:
            parts.append('"cpu":{"before":%d,"after":%d}' % (before[0], after[0]))
        for i in range(1, min(len(before), len(after))):
            parts.append('"cuda:%d":{"before":%d,"after":%d,"reserved":%d}'
                         % (self.cuda_devices[i - 1], before[i][0], after[i][0], after[i][1]))
        return ",".join(parts)
