"""Node classification: the encoder's embedding of each seed, then a linear layer to class logits."""

from __future__ import annotations

import torch
from torch import nn
from torch_geometric.data import Data

from trainyard_runtime.models.graphsage import GraphSAGE


class NodeClassifier(nn.Module):
    def __init__(self, encoder: GraphSAGE, out_dim: int, num_classes: int):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(out_dim, num_classes)

    def forward(self, data: Data) -> torch.Tensor:
        """Class logits of the batch's seed nodes (the first ``batch_size`` nodes)."""
        embeddings = self.encoder(
            data.x, data.edge_index, data.edge_weight, data.get("num_sampled_nodes"), data.get("num_sampled_edges")
        )[: data.batch_size]
        return self.head(torch.relu(embeddings))
