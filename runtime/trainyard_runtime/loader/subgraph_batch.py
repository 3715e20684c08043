"""The mini-batch the homogeneous loaders yield: a sampled subgraph with its features, shaped like a PyG
``NeighborLoader`` batch (same field names and meaning), without PyG's ``Data`` (see ``models/graphsage.py``
for why the runtime does not import PyG)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class SubgraphBatch:
    """``node[i]`` is the global id of local node ``i``; the first ``batch_size`` nodes are the seeds.
    ``edge_index`` is local (row 0 the neighbour, row 1 the node it was sampled for); ``edge_weight`` sums to 1
    into each node. ``num_sampled_nodes`` / ``num_sampled_edges`` count per hop, in hop order."""

    x: torch.Tensor
    edge_index: torch.Tensor
    edge_weight: torch.Tensor
    node: torch.Tensor
    batch_size: int
    num_sampled_nodes: list[int]
    num_sampled_edges: list[int]
    y: Optional[torch.Tensor] = None  # labels, when the dataset has them
    y_positive: Optional[torch.Tensor] = None  # link prediction: [2, E] local (anchor, positive) pairs
    random_negative: Optional[torch.Tensor] = None  # link prediction: local ids of the random negatives

    @property
    def num_edges(self) -> int:
        return self.edge_index.size(1)
