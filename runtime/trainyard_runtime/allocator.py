"""glibc malloc tuning for sampling: keep freed blocks for reuse instead of handing them back to the kernel.

Each mini-batch allocates and frees tens of megabytes of index tensors. By default glibc serves blocks above
an adaptive threshold with fresh ``mmap`` pages and unmaps them on free, so every batch pays the kernel for
faulting in and zeroing new pages — on a VM that costs several times the sampling itself. Serving blocks up
to 32 MiB from the heap and trimming it only past 1 GiB of free space removes that churn.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD_MAX = 32 * 2**20  # glibc's ceiling for M_MMAP_THRESHOLD on 64-bit
_TRIM_THRESHOLD = 2**30


def retain_freed_memory() -> bool:
    """Applies the tuning where the C library is glibc; returns whether it did."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX)) and bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))
