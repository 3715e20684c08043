"""Layer-wise sampling (LADIES): a fixed node budget per layer, chosen by importance, with debiasing weights."""

from __future__ import annotations

import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler.base import HopSampler


class LayerwiseSampler(HopSampler):
    """Each layer samples at most ``node_budgets[layer]`` nodes for the whole frontier together, so the
    subgraph grows linearly with depth instead of exponentially.

    Importance of a candidate ``v`` is LADIES' ``sum_u P[u, v]^2`` over frontier nodes ``u`` with
    ``P = D^-1 A``; the budget is drawn without replacement in proportion to it, and each kept edge is weighted
    ``P[u, v] / pi(v)`` with ``pi(v) = min(1, budget * p(v))`` the inclusion probability, which removes the
    bias towards important nodes from the aggregated mean.
    """

    def __init__(self, store: GraphStore, node_budgets: list[int], seed: int = 0):
        super().__init__(store, len(node_budgets), seed)
        if any(budget <= 0 for budget in node_budgets):
            raise ValueError(f"node budgets must be positive, got {node_budgets}")
        self.node_budgets = list(node_budgets)

    def sample_hop(self, frontier: torch.Tensor, hop: int):
        indptr = self.store.indptr
        start = indptr[frontier]
        degree = indptr[frontier + 1] - start
        rows, offsets = self.neighbour_slots(frontier, degree)
        candidate = self.store.indices[start[rows] + offsets].long()
        if candidate.numel() == 0:
            return candidate, rows, torch.empty(0, device=self.device)
        row_norm = (1.0 / degree.clamp(min=1).float())[rows]  # P[u, v] of each candidate edge
        distinct, inverse = torch.unique(candidate, return_inverse=True)
        importance = torch.zeros(distinct.numel(), device=self.device).index_add_(0, inverse, row_norm**2)
        probability = importance / importance.sum()
        budget = self.node_budgets[hop]
        if distinct.numel() <= budget:
            return candidate, rows, row_norm
        keys = torch.log(self.rand(distinct.numel())) / probability
        chosen = torch.zeros(distinct.numel(), dtype=torch.bool, device=self.device)
        chosen[torch.topk(keys, budget).indices] = True
        inclusion = (budget * probability).clamp(max=1.0)
        keep = chosen[inverse]
        return candidate[keep], rows[keep], row_norm[keep] / inclusion[inverse[keep]]
