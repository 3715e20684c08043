"""One process's part of a graph: the CSR rows, features and labels of the nodes it owns."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.data.graph_store import GraphStore


@dataclass
class PartitionedGraph:
    """Part ``rank`` of ``num_parts``: row ``r`` of the CSR is the ``r``-th owned node (in global id order), its
    column indices are global ids. ``owner`` and ``local_row`` are per global node (4 bytes each): who owns it
    and which row it is there, so any process can route a request for any node. Everything else is ~1/N of the
    graph."""

    rank: int
    num_parts: int
    owner: torch.Tensor  # int32 [num_nodes]
    local_row: torch.Tensor  # int32 [num_nodes]: the node's row in its owner's part
    indptr: torch.Tensor  # int64 [owned + 1]
    indices: torch.Tensor  # int32 global ids (int64 beyond 2^31 nodes, as the store)
    features: torch.Tensor  # [owned, F]
    labels: torch.Tensor | None = None  # [owned]
    # The link-prediction anchors of a process that owns no part (a graph-store compute process): its share of
    # the graph's nodes with edges, as it cannot find them in rows of its own.
    anchors: torch.Tensor | None = None

    @classmethod
    def from_store(
        cls, store: GraphStore, labels: torch.Tensor | None, owner: torch.Tensor, rank: int, num_parts: int
    ) -> PartitionedGraph:
        """Copies part ``rank`` out of the whole ``store`` (which may then be dropped or unmapped)."""
        owner = owner.to(torch.int32)
        sizes = torch.bincount(owner.long(), minlength=num_parts)
        # Rows of a part in global id order: position in the owner-sorted order minus the part's first position.
        by_owner = torch.argsort(owner, stable=True)
        local_row = torch.empty(store.num_nodes, dtype=torch.int32)
        local_row[by_owner] = (
            torch.arange(store.num_nodes) - (torch.cumsum(sizes, 0) - sizes)[owner[by_owner].long()]
        ).to(torch.int32)
        owned = by_owner[int(sizes[:rank].sum()) : int(sizes[: rank + 1].sum())]
        start, degree = store.indptr[owned], store.indptr[owned + 1] - store.indptr[owned]
        indptr = torch.zeros(owned.numel() + 1, dtype=torch.int64)
        torch.cumsum(degree, 0, out=indptr[1:])
        position = torch.repeat_interleave(start - indptr[:-1], degree) + torch.arange(int(indptr[-1]))
        return cls(
            rank,
            num_parts,
            owner,
            local_row,
            indptr,
            store.indices[position].clone(),
            store.features[owned].clone(),
            None if labels is None else labels[owned].clone(),
        )

    @property
    def num_nodes(self) -> int:
        """Nodes of the whole graph."""
        return self.owner.numel()

    @property
    def num_edges(self) -> int:
        """Edges stored in this part (out of its own rows)."""
        return self.indices.numel()

    @property
    def device(self) -> torch.device:
        return self.indptr.device

    def owned_nodes(self) -> torch.Tensor:
        """Global ids of this part's rows, in row order."""
        return torch.nonzero(self.owner == self.rank).flatten()

    def owns(self, nodes: torch.Tensor) -> torch.Tensor:
        return self.owner[nodes] == self.rank

    def nodes_with_edges(self) -> torch.Tensor:
        """Global ids of this part's nodes with at least one edge (the anchors it trains link prediction on), or
        the anchors it was given."""
        if self.anchors is not None:
            return self.anchors
        return self.owned_nodes()[self.indptr.diff() > 0]

    def tables(self) -> list[torch.Tensor]:
        """The per-owned-node tables a batch fetches: features, then labels if the graph has them."""
        return [self.features] + ([] if self.labels is None else [self.labels])

    def share_of(self, whole_bytes: int, holder: str) -> str:
        """The log line saying what ``holder`` (``rank 3``, ``storage rank 2``) keeps of a graph of ``whole_bytes``."""
        held = self.held_bytes()
        return (
            f"[trainyard] {holder} holds {held / 2**20:.1f} MiB of the graph's {whole_bytes / 2**20:.1f} MiB "
            f"({held / whole_bytes:.1%})"
        )

    def held_bytes(self) -> int:
        """Bytes this process holds for the graph: its part plus the two per-node routing tables."""
        tensors = [self.owner, self.local_row, self.indptr, self.indices, *self.tables()]
        if self.anchors is not None:
            tensors.append(self.anchors)
        return sum(t.numel() * t.element_size() for t in tensors)
