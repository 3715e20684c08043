"""The GraphSAGE encoder over sampled subgraphs."""

from __future__ import annotations

from typing import Optional

import torch
from torch import nn

from trainyard_runtime.loader.subgraph_batch import SubgraphBatch


class GraphSAGE(nn.Module):
    """GraphSAGE with the mean aggregator: ``h_v' = W_root h_v + W_neigh * mean_u h_u``, one layer per hop.

    Each layer is PyG's ``GraphConv`` with ``aggr="add"`` (:class:`WeightedSumConv`) over the samplers'
    ``edge_weight``: the weights into a node sum to 1, so the sum is the neighbourhood mean for uniform
    sampling, and the importance-weighted mean PinSage (visit counts) and LADIES (debiasing) need for theirs.

    Given the per-hop counts of a sampled subgraph, layer ``i`` skips the outermost ``i`` hops (PyG's
    ``trim_to_layer``): their outputs could never reach the seeds, so a 3-layer model computes each layer only
    where it matters.
    """

    def __init__(self, in_dim: int, hid_dim: int, out_dim: int, num_layers: int, dropout: float = 0.0):
        super().__init__()
        dims = [in_dim] + [hid_dim] * (num_layers - 1) + [out_dim]
        self.convs = nn.ModuleList(WeightedSumConv(dims[i], dims[i + 1]) for i in range(num_layers))
        self.dropout = dropout

    def encode(self, data: SubgraphBatch) -> torch.Tensor:
        """Embeddings of a sampled batch (from the loaders)."""
        return self(data.x, data.edge_index, data.edge_weight, data.num_sampled_nodes, data.num_sampled_edges)

    def forward(
        self,
        x: torch.Tensor,
        edge_index: torch.Tensor,
        edge_weight: torch.Tensor,
        num_sampled_nodes: Optional[list[int]] = None,
        num_sampled_edges: Optional[list[int]] = None,
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


class WeightedSumConv(nn.Module):
    """PyG's ``GraphConv(aggr="add")``: ``h_v' = W_rel sum_u w_uv h_u + b + W_root h_v``, with its parameters
    under its names (``lin_rel``, ``lin_root``), so a model saved when the runtime used PyG loads unchanged.

    Written out rather than imported: ``import torch_geometric`` loads all of PyG, about 1 s of CPU per trainer
    start here (beside ``torch._dynamo``, which it imports too, but which ``torch.optim`` imports anyway at
    the optimizer's first use), for these three lines.
    """

    def __init__(self, in_dim: int, out_dim: int):
        super().__init__()
        self.lin_rel = nn.Linear(in_dim, out_dim)
        self.lin_root = nn.Linear(in_dim, out_dim, bias=False)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor, edge_weight: torch.Tensor) -> torch.Tensor:
        source, target = edge_index
        messages = x.index_select(0, source) * edge_weight.unsqueeze(1)
        return self.lin_rel(torch.zeros_like(x).index_add_(0, target, messages)) + self.lin_root(x)


def trim_to_layer(
    layer: int,
    num_sampled_nodes: list[int],
    num_sampled_edges: list[int],
    x: torch.Tensor,
    edge_index: torch.Tensor,
    edge_weight: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """PyG's ``trim_to_layer``: before layer ``layer`` (>= 1), drop the hop ``layer`` from the outside, whose
    nodes and edges are the last ones (nodes and edges are numbered hop by hop)."""
    if layer == 0:
        return x, edge_index, edge_weight
    num_nodes = x.size(0) - num_sampled_nodes[-layer]
    num_edges = edge_index.size(1) - num_sampled_edges[-layer]
    return x[:num_nodes], edge_index[:, :num_edges], edge_weight[:num_edges]
