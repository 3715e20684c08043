"""GiGL's retrieval loss: softmax over positives and random negatives, with temperature and hit removal."""

from __future__ import annotations

import torch
from torch import nn


class RetrievalLoss(nn.Module):
    """Row ``i`` scores query ``i`` (an anchor, repeated once per positive) against all candidates; its
    target is candidate ``i``, its own positive. Candidates are the batch's positives followed by random
    negatives, so other anchors' positives act as in-batch negatives.

    Accidental hits are masked out of row ``i``: a candidate that is the same node as the row's positive, is
    another positive of the same anchor, or is the anchor itself. Penalising those would teach the model that
    true links are false.
    """

    def __init__(self, temperature: float = 0.07, remove_accidental_hits: bool = True):
        super().__init__()
        if temperature <= 0:
            raise ValueError("temperature must be positive")
        self.temperature = temperature
        self.remove_accidental_hits = remove_accidental_hits

    def forward(self, scores: torch.Tensor, candidate_ids: torch.Tensor, query_ids: torch.Tensor) -> torch.Tensor:
        num_positives = scores.size(0)
        target = torch.arange(num_positives, device=scores.device)
        scores = scores / self.temperature
        if self.remove_accidental_hits:
            positive_ids = candidate_ids[:num_positives]
            hit = candidate_ids.unsqueeze(0) == positive_ids.unsqueeze(1)
            hit |= candidate_ids.unsqueeze(0) == query_ids.unsqueeze(1)
            hit[:, :num_positives] |= query_ids.unsqueeze(0) == query_ids.unsqueeze(1)
            hit[target, target] = False
            scores = scores.masked_fill(hit, torch.finfo(scores.dtype).min)
        return nn.functional.cross_entropy(scores, target)
