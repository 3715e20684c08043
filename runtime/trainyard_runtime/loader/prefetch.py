"""Overlapping sampling with training on a GPU: the next batches are sampled by a thread on a side CUDA stream."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterable, Iterator
from typing import TypeVar

import torch

Batch = TypeVar("Batch")

# Batches sampled ahead of the step that trains. Two let the thread start batch i + 2 while the training
# thread takes batch i + 1; more only hold GPU memory (~80 MB a products-sized batch).
_AHEAD = 2


def prefetched(batches: Iterable[Batch], device: torch.device, in_thread: bool = True) -> Iterator[Batch]:
    """Yields ``batches``; on CUDA (and ``in_thread``) a thread of its own makes them on a side stream, up to
    two ahead. Not ``in_thread`` when making a batch takes collectives (a partitioned graph): collectives must
    be issued in the same order on every process, and a sampling thread would interleave its own with the
    training thread's (DDP's all-reduce, validation) differently on each.

    On a GPU both sampling and the training step are bound by the host issuing kernels (on an H100 a
    products-sized batch takes ~2 ms of host time to sample and ~4 ms to train; the kernels take ~2 ms
    together). In one thread those host times add up; in two they overlap, since PyTorch lets go of the GIL
    while an operator runs. The training stream waits for a batch through an event, not the host; the batch's
    tensors are recorded as used there, so the allocator does not hand their memory back to the side stream
    too early. Elsewhere this is plain iteration.
    """
    if device.type != "cuda" or not in_thread:
        yield from batches
        return
    sampling = _SamplingThread(batches, device)
    training = torch.cuda.current_stream(device)
    try:
        while (item := sampling.next()) is not None:
            batch, ready = item
            training.wait_event(ready)
            for tensor in _tensors_of(batch):
                tensor.record_stream(training)
            yield batch
    finally:
        sampling.stop()


class _SamplingThread:
    """Iterates ``batches`` on a side stream in a daemon thread; hands over (batch, event) pairs, then None.
    An exception of the iterator is raised again in the caller's thread."""

    def __init__(self, batches: Iterable[Batch], device: torch.device):
        self._handed: queue.Queue = queue.Queue(maxsize=_AHEAD)
        self._stopping = threading.Event()
        # CUDA's current device is per thread: the sampling thread takes the caller's ("cuda" means that one).
        index = device.index if device.index is not None else torch.cuda.current_device()
        self._thread = threading.Thread(
            target=self._run, args=(iter(batches), index), name="trainyard-sampling", daemon=True
        )
        self._thread.start()

    def next(self) -> tuple[Batch, torch.cuda.Event] | None:
        item = self._handed.get()
        if isinstance(item, BaseException):
            raise item
        return item

    def stop(self) -> None:
        """Ends the thread when the caller leaves early (a step budget reached, an error in training)."""
        self._stopping.set()
        while self._thread.is_alive():
            with contextlib.suppress(queue.Empty):
                self._handed.get(timeout=0.1)  # frees a thread blocked on a full queue

    def _run(self, iterator: Iterator[Batch], device_index: int) -> None:
        try:  # whatever fails here must reach the caller, which otherwise waits for ever
            torch.cuda.set_device(device_index)
            side = torch.cuda.Stream(device_index)
            with torch.cuda.stream(side):
                for batch in iterator:
                    ready = torch.cuda.Event()
                    ready.record(side)
                    if not self._hand((batch, ready)):
                        return
            self._hand(None)
        except BaseException as error:  # raised again in the training thread
            self._hand(error)

    def _hand(self, item) -> bool:
        while not self._stopping.is_set():
            try:
                self._handed.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False


def _tensors_of(batch) -> Iterator[torch.Tensor]:
    """The CUDA tensors a batch holds, directly or in a dict (a heterogeneous batch's features per type)."""
    for value in vars(batch).values():
        for item in value.values() if isinstance(value, dict) else [value]:
            if isinstance(item, torch.Tensor) and item.is_cuda:
                yield item
