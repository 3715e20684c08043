"""Heterogeneous GraphSAGE: per node type input projections, per relation neighbour weights."""

from __future__ import annotations

import torch
from torch import nn

from trainyard_runtime.config.graph_metadata import EdgeType
from trainyard_runtime.loader.hetero_loaders import HeteroBatch


class HeteroGraphSAGE(nn.Module):
    """``h_v' = W_root[type(v)] h_v + Σ_r W_r · mean_{u ∈ N_r(v)} h_u`` — GraphSAGE's mean aggregator with its
    own weights per relation ``r`` (edge type) and per node type, summed over relations as PyG's
    ``to_hetero``/``HeteroConv(aggr="sum")`` would. Node types may have different feature sizes: a linear
    layer per node type first maps each to ``hid_dim``."""

    def __init__(
        self,
        feature_dims: dict[str, int],
        edge_types: tuple[EdgeType, ...],
        hid_dim: int,
        out_dim: int,
        num_layers: int,
        dropout: float = 0.0,
    ):
        super().__init__()
        self.node_types = list(feature_dims)
        self.num_relations = len(edge_types)
        self.project = nn.ModuleList(nn.Linear(feature_dims[kind], hid_dim) for kind in self.node_types)
        dims = [hid_dim] * num_layers + [out_dim]
        self.root = nn.ModuleList(
            nn.ModuleList(nn.Linear(dims[i], dims[i + 1]) for _ in self.node_types) for i in range(num_layers)
        )
        self.neighbour = nn.ModuleList(
            nn.ModuleList(nn.Linear(dims[i], dims[i + 1], bias=False) for _ in edge_types) for i in range(num_layers)
        )
        self.dropout = dropout

    def encode(self, batch: HeteroBatch) -> torch.Tensor:
        """Embeddings of the batch's seeds and, for a model shallower than the sampled hops, of the nodes near
        them, in local order (the seeds first)."""
        num_nodes = batch.node.numel()
        h = None
        for index, projection in enumerate(self.project):
            rows = batch.features[index]
            if h is None:
                h = torch.zeros(num_nodes, projection.out_features, device=rows.device)
            h[batch.node_type == index] = projection(rows)
        # Layer i only computes the nodes within num_layers - 1 - i hops of the seeds (PyG's trim_to_layer):
        # the outputs of farther nodes could never reach the seeds.
        reach = torch.cumsum(torch.tensor(batch.num_sampled_nodes), 0).tolist()
        num_layers = len(self.root)
        for layer, (roots, relations) in enumerate(zip(self.root, self.neighbour, strict=True)):
            kept = reach[min(num_layers - 1 - layer, len(reach) - 1)]
            node_type = batch.node_type[:kept]
            inner = batch.edge_index[1] < kept
            source, target, edge_type = batch.edge_index[0][inner], batch.edge_index[1][inner], batch.edge_type[inner]
            out = torch.zeros(kept, roots[0].out_features, device=h.device)
            for index, root in enumerate(roots):
                mask = node_type == index
                out[mask] = root(h[:kept][mask])
            for relation, weight in enumerate(relations):
                chosen = edge_type == relation
                src, dst = source[chosen], target[chosen]
                summed = torch.zeros(kept, h.size(1), device=h.device).index_add_(0, dst, h[src])
                count = torch.zeros(kept, device=h.device).index_add_(0, dst, torch.ones_like(dst, dtype=h.dtype))
                out = out + weight(summed / count.clamp(min=1).unsqueeze(1))
            h = out
            if layer < num_layers - 1:
                h = nn.functional.dropout(torch.relu(h), self.dropout, self.training)
        return h
