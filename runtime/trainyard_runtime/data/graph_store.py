"""The in-memory graph store: CSR structure plus node features, shareable between processes."""

from __future__ import annotations

from dataclasses import dataclass

import torch

# Column indices fit in int32 while node ids do; int32 halves the biggest array of the store.
_INT32_NODE_LIMIT = 2**31 - 1


@dataclass
class GraphStore:
    """A directed graph in CSR form: the neighbours of node ``v`` are ``indices[indptr[v]:indptr[v + 1]]``.

    ``indptr`` is int64 (edge counts overflow int32 long before node counts do), ``indices`` int32 while the
    node count allows. Undirected graphs are stored with both directions of every edge.
    """

    indptr: torch.Tensor
    indices: torch.Tensor
    features: torch.Tensor
    edge_weight: torch.Tensor | None = None

    @classmethod
    def from_edge_index(
        cls,
        edge_index: torch.Tensor,
        num_nodes: int,
        features: torch.Tensor,
        edge_weight: torch.Tensor | None = None,
    ) -> GraphStore:
        """Builds the CSR from a ``[2, E]`` (source, destination) edge list; row = source."""
        if edge_index.dim() != 2 or edge_index.size(0) != 2:
            raise ValueError(f"edge_index must have shape [2, E], got {list(edge_index.shape)}")
        if features.size(0) != num_nodes:
            raise ValueError(f"features has {features.size(0)} rows but the graph has {num_nodes} nodes")
        src, dst = edge_index[0].long(), edge_index[1].long()
        if src.numel() and (min(src.min(), dst.min()) < 0 or max(src.max(), dst.max()) >= num_nodes):
            raise ValueError(f"edge endpoints must lie in [0, {num_nodes})")
        order = torch.argsort(src * num_nodes + dst)
        counts = torch.bincount(src, minlength=num_nodes)
        indptr = torch.zeros(num_nodes + 1, dtype=torch.int64)
        torch.cumsum(counts, 0, out=indptr[1:])
        index_dtype = torch.int32 if num_nodes <= _INT32_NODE_LIMIT else torch.int64
        weight = None
        if edge_weight is not None:
            if edge_weight.numel() != src.numel():
                raise ValueError("edge_weight must have one entry per edge")
            if edge_weight.numel() and bool((edge_weight <= 0).any()):
                raise ValueError("edge weights must be positive")
            weight = edge_weight[order].float().contiguous()
        return cls(indptr, dst[order].to(index_dtype).contiguous(), features.contiguous(), weight)

    @property
    def num_nodes(self) -> int:
        return self.indptr.numel() - 1

    @property
    def num_edges(self) -> int:
        return self.indices.numel()

    @property
    def device(self) -> torch.device:
        return self.indptr.device

    def structure_bytes(self) -> int:
        """Bytes held by the graph structure (row pointers + column indices), the figure the benchmark reports."""
        return self.indptr.numel() * self.indptr.element_size() + self.indices.numel() * self.indices.element_size()

    def index_bytes_per_edge(self) -> float:
        """Column-index bytes per stored edge; the rest of the structure is ``indptr``, 8 bytes per node."""
        return self.indices.element_size()

    def degree(self, nodes: torch.Tensor) -> torch.Tensor:
        return self.indptr[nodes + 1] - self.indptr[nodes]

    def nodes_with_edges(self) -> torch.Tensor:
        """Ids of the nodes with at least one edge (a label graph's anchors)."""
        return torch.nonzero(self.indptr.diff() > 0).flatten()

    def neighbours(self, node: int) -> torch.Tensor:
        return self.indices[self.indptr[node] : self.indptr[node + 1]].long()

    def to(self, device: torch.device) -> GraphStore:
        weight = None if self.edge_weight is None else self.edge_weight.to(device)
        return GraphStore(self.indptr.to(device), self.indices.to(device), self.features.to(device), weight)

    def tensors(self) -> dict[str, torch.Tensor]:
        named = {"indptr": self.indptr, "indices": self.indices, "features": self.features}
        if self.edge_weight is not None:
            named["edge_weight"] = self.edge_weight
        return named

    @classmethod
    def from_tensors(cls, named: dict[str, torch.Tensor]) -> GraphStore:
        return cls(named["indptr"], named["indices"], named["features"], named.get("edge_weight"))
