"""GPU memory as TensorBoard scalars: how close a run is to running out, per rank that writes TensorBoard."""

from __future__ import annotations

import torch


def gpu_memory_scalars(device: torch.device) -> dict[str, float]:
    """Bytes of CUDA memory the process's tensors hold now, at most so far, and that the caching allocator
    reserved (what nvidia-smi shows); nothing on a CPU device."""
    if device.type != "cuda":
        return {}
    return {
        "allocated_bytes": float(torch.cuda.memory_allocated(device)),
        "max_allocated_bytes": float(torch.cuda.max_memory_allocated(device)),
        "reserved_bytes": float(torch.cuda.memory_reserved(device)),
    }
