"""Overlapping sampling with training on a GPU: the next batch is sampled on a side CUDA stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

import torch

Batch = TypeVar("Batch")


def prefetched(batches: Iterable[Batch], device: torch.device) -> Iterator[Batch]:
    """Yields ``batches``; on CUDA each one is sampled on a side stream while the GPU still runs the
    training step the caller issued for the previous one.

    The caller asks for batch ``i + 1`` right after issuing step ``i``'s kernels (which run asynchronously),
    so the sampler's kernels (and its one wait, for its own stream only) overlap them. The training stream
    waits for the batch through an event, not the host; its tensors are recorded as used there, so the
    allocator does not hand their memory back to the side stream too early. Elsewhere this is plain iteration.
    """
    if device.type != "cuda":
        yield from batches
        return
    side = torch.cuda.Stream(device)
    training = torch.cuda.current_stream(device)
    for batch in _on_stream(batches, side):
        ready = torch.cuda.Event()
        ready.record(side)
        training.wait_event(ready)
        for tensor in _tensors_of(batch):
            tensor.record_stream(training)
        yield batch


def _on_stream(batches: Iterable[Batch], stream: torch.cuda.Stream) -> Iterator[Batch]:
    iterator = iter(batches)
    while True:
        with torch.cuda.stream(stream):
            batch = next(iterator, None)
        if batch is None:
            return
        yield batch


def _tensors_of(batch) -> Iterator[torch.Tensor]:
    """The CUDA tensors a batch holds, directly or in a dict (a heterogeneous batch's features per type)."""
    for value in vars(batch).values():
        for item in value.values() if isinstance(value, dict) else [value]:
            if isinstance(item, torch.Tensor) and item.is_cuda:
                yield item
