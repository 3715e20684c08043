"""How good a partition is for sampling: the share of edges that cross parts and the largest part's excess."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.data.graph_store import GraphStore


@dataclass(frozen=True)
class PartitionQuality:
    edge_cut: float  # fraction of the stored edges whose ends have different owners
    balance: float  # largest part's node count / mean part size (1.0: perfectly balanced)
    edge_balance: float  # the same for the edges stored in a part (its nodes' rows): memory and sampling work

    @classmethod
    def of(cls, store: GraphStore, owner: torch.Tensor, num_parts: int) -> PartitionQuality:
        source_owner = torch.repeat_interleave(owner, store.indptr.diff())
        cut = (source_owner != owner[store.indices.long()]).sum().item()
        sizes = torch.bincount(owner.long(), minlength=num_parts)
        edges = torch.bincount(owner.long(), weights=store.indptr.diff().double(), minlength=num_parts)
        return cls(
            cut / max(store.num_edges, 1),
            sizes.max().item() / (store.num_nodes / num_parts),
            edges.max().item() / max(store.num_edges / num_parts, 1e-9),
        )
