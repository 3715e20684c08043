"""Link prediction: node embeddings from the encoder, dot-product scores between queries and candidates."""

from __future__ import annotations

import torch
from torch import nn


class LinkPredictionModel(nn.Module):
    def __init__(self, encoder: nn.Module, l2_normalize: bool):
        super().__init__()
        self.encoder = encoder
        self.l2_normalize = l2_normalize

    def forward(self, data) -> torch.Tensor:  # a loader's batch; the encoder knows its shape
        """Embeddings of the batch's seed nodes and (partially computed) first-hop nodes, in local order."""
        embeddings = self.encoder.encode(data)
        return nn.functional.normalize(embeddings, dim=-1) if self.l2_normalize else embeddings

    @staticmethod
    def decode(query: torch.Tensor, candidates: torch.Tensor) -> torch.Tensor:
        """``[Q, C]`` scores of every query against every candidate."""
        return query @ candidates.T
