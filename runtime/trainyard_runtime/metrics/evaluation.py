"""The evaluation pass every task runs: the model in eval mode over held-out batches, a metric and the mean loss,
both summed across processes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

import torch
from torch import nn

Batch = TypeVar("Batch")
AllReduce = Callable[[torch.Tensor], torch.Tensor]


class Metric(Protocol):
    def compute(self, all_reduce: AllReduce) -> dict[str, float]: ...


@torch.no_grad()
def evaluate_batches(
    model: nn.Module,
    batches: Iterable[Batch],
    max_batches: int | None,
    metric: Metric,
    step: Callable[[Batch], float],
    all_reduce_sum: AllReduce,
) -> dict[str, float]:
    """Runs ``step`` (which updates ``metric`` and returns the batch's loss) on up to ``max_batches`` batches
    (None: all), then answers the metric's values with ``loss``, the mean batch loss over every process. The model
    is put back in the mode it was in."""
    loss_sum, count = 0.0, 0
    was_training = model.training
    model.eval()
    try:
        for batch in batches:
            if max_batches is not None and count >= max_batches:
                break
            loss_sum += step(batch)
            count += 1
    finally:
        model.train(was_training)
    values = metric.compute(all_reduce_sum)
    totals = all_reduce_sum(torch.tensor([loss_sum, count], dtype=torch.float64))
    values["loss"] = totals[0].item() / max(totals[1].item(), 1.0)
    return values
