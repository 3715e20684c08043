"""Evaluation batches in lockstep over processes, for batches that are collectives (a partitioned graph)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import torch

from trainyard_runtime.distributed import ProcessContext


class BatchLoader(Protocol):
    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Any]: ...

    def batch(self, seeds: torch.Tensor) -> Any: ...


def in_lockstep(loader: BatchLoader, max_batches: int | None, context: ProcessContext) -> Iterator[Any]:
    """Yields ``loader``'s batches, up to ``max_batches``, while every process makes as many rounds as the one
    with the most batches: each batch's sampling and feature fetching are collectives, which hang unless every
    process takes part. A process whose own batches are done makes empty batches (nothing to evaluate; it only
    answers the others' requests)."""
    rounds = context.all_reduce_max(len(loader))
    if max_batches is not None:
        rounds = min(rounds, max_batches)
    own = iter(loader)
    nothing = torch.empty(0, dtype=torch.int64)
    for _ in range(rounds):
        batch = next(own, None)
        if batch is None:
            loader.batch(nothing)
        else:
            yield batch
