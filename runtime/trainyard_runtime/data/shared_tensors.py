"""Publishes named tensors as raw files and maps them back, so local processes share one physical copy.

The files are opened with ``torch.from_file(shared=True)``, i.e. ``mmap(MAP_SHARED)``: every process that
opens them reads the same page-cache pages, so N trainer processes cost one copy of the graph. Put the folder
on ``/dev/shm`` to keep it in RAM.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import torch

_MANIFEST = "manifest.json"
_DTYPES = {str(dtype): dtype for dtype in (torch.int32, torch.int64, torch.float16, torch.float32, torch.bool)}


def publish_tensors(folder: Path, named: dict[str, torch.Tensor]) -> None:
    """Writes the tensors into ``folder`` atomically: readers see either nothing or the complete set."""
    staging = folder.with_name(folder.name + f".partial-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    manifest = {}
    for name, tensor in named.items():
        tensor = tensor.detach().cpu().contiguous()
        if str(tensor.dtype) not in _DTYPES:
            raise ValueError(f"cannot share tensor {name!r} of dtype {tensor.dtype}")
        tensor.numpy().tofile(staging / f"{name}.bin")
        manifest[name] = {"dtype": str(tensor.dtype), "shape": list(tensor.shape)}
    (staging / _MANIFEST).write_text(json.dumps(manifest))
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)


def open_tensors(folder: Path, timeout_s: float = 600.0) -> dict[str, torch.Tensor]:
    """Maps the tensors another process published; waits for the publication to appear."""
    deadline = time.monotonic() + timeout_s
    while not (folder / _MANIFEST).exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"graph store {folder} was not published within {timeout_s:.0f}s")
        time.sleep(0.05)
    manifest = json.loads((folder / _MANIFEST).read_text())
    named = {}
    for name, spec in manifest.items():
        dtype = _DTYPES[spec["dtype"]]
        count = 1
        for dim in spec["shape"]:
            count *= dim
        path = folder / f"{name}.bin"
        if count == 0:
            named[name] = torch.empty(spec["shape"], dtype=dtype)
            continue
        named[name] = torch.from_file(str(path), shared=True, size=count, dtype=dtype).view(spec["shape"])
    return named
