"""Classification accuracy over seed nodes."""

from __future__ import annotations

from collections.abc import Callable

import torch


class Accuracy:
    def __init__(self):
        self.totals = torch.zeros(2, dtype=torch.float64)  # [correct, seen]

    def update(self, logits: torch.Tensor, labels: torch.Tensor) -> None:
        correct = (logits.argmax(-1) == labels).sum().item()
        self.totals += torch.tensor([correct, labels.numel()], dtype=torch.float64)

    def compute(self, all_reduce: Callable[[torch.Tensor], torch.Tensor] = lambda t: t) -> dict[str, float]:
        totals = all_reduce(self.totals.clone())
        return {"accuracy": totals[0].item() / max(totals[1].item(), 1.0), "num_nodes": int(totals[1].item())}
