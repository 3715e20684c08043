"""Node classification: the encoder's embedding of each seed, then a linear layer to class logits."""

from __future__ import annotations

import torch
from torch import nn


class NodeClassifier(nn.Module):
    def __init__(self, encoder: nn.Module, out_dim: int, num_classes: int):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(out_dim, num_classes)

    def forward(self, data) -> torch.Tensor:  # a loader's batch; the encoder knows its shape
        """Class logits of the batch's seed nodes (the first ``batch_size`` nodes)."""
        embeddings = self.encoder.encode(data)[: data.batch_size]
        return self.head(torch.relu(embeddings))
