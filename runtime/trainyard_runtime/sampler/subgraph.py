"""The sampled subgraph (PyG loader shape) and the global→local relabelling used to build it."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.sampler import native as native_kernels


@dataclass
class SampledSubgraph:
    """A relabelled neighbourhood, shaped like a PyG ``NeighborLoader`` batch.

    ``node[i]`` is the global id of local node ``i``; the first ``batch_size`` nodes are the seeds in the order
    given. ``edge_index`` holds local ids, row 0 the neighbour (message source), row 1 the node it was sampled
    for (message target). ``edge_weight`` is the aggregation weight of each edge; the weights into one target
    sum to 1, so a weighted sum is the sampler's (debiased) neighbourhood mean. ``seed_local`` is the local id
    of every seed as requested, duplicates included.
    """

    node: torch.Tensor
    edge_index: torch.Tensor
    edge_weight: torch.Tensor
    batch_size: int
    num_sampled_nodes: list[int]
    num_sampled_edges: list[int]
    seed_local: torch.Tensor

    @property
    def num_nodes(self) -> int:
        return self.node.numel()

    @property
    def num_edges(self) -> int:
        return self.edge_index.size(1)


def unique_in_order(ids: torch.Tensor) -> torch.Tensor:
    """Distinct values of ``ids`` in order of first occurrence (so seeds keep the caller's order)."""
    if ids.numel() == 0:
        return ids
    distinct, inverse = torch.unique(ids, return_inverse=True)
    positions = torch.arange(ids.numel(), device=ids.device)
    first = torch.full((distinct.numel(),), ids.numel(), dtype=torch.int64, device=ids.device)
    first.scatter_reduce_(0, inverse, positions, reduce="amin")
    return ids[first.sort().values]


class LocalIdTable:
    """Maps global node ids to the local ids of the subgraph being built.

    A dense table (4 bytes per graph node) instead of a hash map: lookups are one gather, identical on CPU and
    GPU. Only the entries a batch touched are reset, so a batch costs time proportional to its own size.
    """

    def __init__(self, num_nodes: int, device: torch.device, native: bool = False):
        # Local ids always fit int32; the tensor code's claims (``-(position + 2)``) may need int64.
        dtype = torch.int32 if num_nodes < 2**31 or native else torch.int64
        self._table = torch.full((num_nodes,), -1, dtype=dtype, device=device)
        self._chunks: list[torch.Tensor] = []
        self.count = 0
        self.native = native  # relabel in one sequential C++ pass (CPU) instead of tensor operations

    def add(self, ids: torch.Tensor, keep_order: bool = False) -> torch.Tensor:
        """Returns the local id of every entry of ``ids``, giving unseen ids the next local ids.

        With ``keep_order`` new ids are numbered in order of first occurrence (seeds must come first, as given);
        otherwise in an arbitrary order, found in O(n) without sorting. The native pass always numbers in order
        of first occurrence.
        """
        if self.native:
            local, fresh = native_kernels.relabel(self._table, ids, self.count)
            if fresh.numel():
                self._chunks.append(fresh)
                self.count += fresh.numel()
            return local
        local = self._table[ids].long()
        unseen = ids[local < 0]
        if unseen.numel():
            fresh = unique_in_order(unseen) if keep_order else self._distinct(unseen)
            self._table[fresh] = torch.arange(
                self.count, self.count + fresh.numel(), dtype=self._table.dtype, device=ids.device
            )
            self._chunks.append(fresh)
            self.count += fresh.numel()
            local = self._table[ids].long()
        return local

    def _distinct(self, unseen: torch.Tensor) -> torch.Tensor:
        """Distinct values of ``unseen`` (all absent from the table) via the table itself: every occurrence
        writes a claim ``-(position + 2)`` into its slot, exactly one claim per slot survives, and the
        occurrences that read back their own claim are one per distinct id. Works alike on CPU and GPU."""
        claims = -2 - torch.arange(unseen.numel(), dtype=self._table.dtype, device=unseen.device)
        self._table[unseen] = claims
        return unseen[self._table[unseen] == claims]

    @property
    def table(self) -> torch.Tensor:
        """The dense global -> local table (-1: absent), for the native kernels that relabel on their own."""
        return self._table

    def nodes(self) -> torch.Tensor:
        if not self._chunks:
            return torch.empty(0, dtype=torch.int64, device=self._table.device)
        return torch.cat(self._chunks)

    def added_since(self, count: int) -> torch.Tensor:
        """Global ids of the nodes that got local ids ``count`` and later (the next frontier)."""
        return self.nodes()[count:]

    def reset(self) -> None:
        if self._chunks:
            self._table[torch.cat(self._chunks)] = -1
        self._chunks = []
        self.count = 0
