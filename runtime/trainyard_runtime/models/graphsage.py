"""The GraphSAGE encoder over sampled subgraphs."""

from __future__ import annotations

import torch
from torch import nn
from torch_geometric.data import Data
from torch_geometric.nn import GraphConv
from torch_geometric.utils import trim_to_layer


class GraphSAGE(nn.Module):
    """GraphSAGE with the mean aggregator: ``h_v' = W_root h_v + W_neigh * mean_u h_u``, one layer per hop.

    Built from PyG's ``GraphConv`` with ``aggr="add"`` over the samplers' ``edge_weight``: the weights into
    a node sum to 1, so the sum is the neighbourhood mean for uniform sampling, and the importance-weighted
    mean PinSage (visit counts) and LADIES (debiasing) need for theirs. (``SAGEConv`` takes no edge weights.)

    Given the per-hop counts of a sampled subgraph, layer ``i`` skips the outermost ``i`` hops (PyG's
    ``trim_to_layer``): their outputs could never reach the seeds, so a 3-layer model computes each layer only
    where it matters.
    """

    def __init__(self, in_dim: int, hid_dim: int, out_dim: int, num_layers: int, dropout: float = 0.0):
        super().__init__()
        dims = [in_dim] + [hid_dim] * (num_layers - 1) + [out_dim]
        self.convs = nn.ModuleList(GraphConv(dims[i], dims[i + 1], aggr="add") for i in range(num_layers))
        self.dropout = dropout

    def encode(self, data: Data) -> torch.Tensor:
        """Embeddings of a sampled batch (a PyG ``Data`` from the loaders)."""
        return self(
            data.x, data.edge_index, data.edge_weight, data.get("num_sampled_nodes"), data.get("num_sampled_edges")
        )

    def forward(
        self,
        x: torch.Tensor,
        edge_index: torch.Tensor,
        edge_weight: torch.Tensor,
        num_sampled_nodes: list[int] | None = None,
        num_sampled_edges: list[int] | None = None,
    ) -> torch.Tensor:
        """Embeddings of the nodes still present after the last layer (the seeds come first)."""
        for i, conv in enumerate(self.convs):
            if num_sampled_nodes is not None and num_sampled_edges is not None:
                x, edge_index, edge_weight = trim_to_layer(
                    i, num_sampled_nodes, num_sampled_edges, x, edge_index, edge_weight
                )
            x = conv(x, edge_index, edge_weight)
            if i < len(self.convs) - 1:
                x = nn.functional.dropout(torch.relu(x), self.dropout, self.training)
        return x
