"""Node-wise neighbour sampling without replacement: uniform (GraphSAGE) and weighted by an edge weight."""

from __future__ import annotations

import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler import native as native_kernels
from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.fixed_capacity import FixedCapacitySampler
from trainyard_runtime.sampler.floyd import DistinctPositions
from trainyard_runtime.sampler.subgraph import SampledSubgraph

_NO_KEYS = torch.empty(0, dtype=torch.int64)


class NeighborSampler(HopSampler):
    """Samples ``num_neighbors[hop]`` distinct neighbours per node, uniformly; all of them when the degree is
    at most the fanout (or the fanout is -1, PyG's "all neighbours")."""

    supports_native = True

    def __init__(self, store: GraphStore, num_neighbors: list[int], seed: int = 0, native: bool | None = None):
        super().__init__(store, len(num_neighbors), seed, native)
        if any(k == 0 or k < -1 for k in num_neighbors):
            raise ValueError(f"num_neighbors entries must be positive or -1, got {num_neighbors}")
        self.num_neighbors = list(num_neighbors)
        self._fixed_capacity = None if self.native else self.fixed_capacity_sampler()

    def fixed_capacity_sampler(self) -> FixedCapacitySampler | None:
        """The tensor path with one synchronisation per batch, where it applies (bounded fanouts)."""
        if not FixedCapacitySampler.applies_to(self.store, self.num_neighbors):
            return None
        return FixedCapacitySampler(self.store, self.num_neighbors, self.generator)

    def sample(self, seeds: torch.Tensor, exclude_edges: torch.Tensor | None = None) -> SampledSubgraph:
        if self._fixed_capacity is not None:
            excluded = self.excluded_keys(exclude_edges)
            return self._fixed_capacity.sample(
                seeds.to(self.device, torch.int64), None if excluded is None else excluded.sort().values
            )
        if not self.native:
            return super().sample(seeds, exclude_edges)
        # Native: every hop, the relabelling and the weights in one call (one parallel region per hop).
        store = self.store
        excluded = self.excluded_keys(exclude_edges)
        node, edge_index, edge_weight, seed_local, num_sampled_nodes, num_sampled_edges = (
            native_kernels.sample_neighbourhood(
                store.indptr,
                store.indices,
                self.native_edge_weight(),
                self._ids.table,
                seeds.to(torch.int64),
                self.num_neighbors,
                _NO_KEYS if excluded is None else excluded,
                self.next_key(),
            )
        )
        return SampledSubgraph(
            node, edge_index, edge_weight, num_sampled_nodes[0], num_sampled_nodes, num_sampled_edges, seed_local
        )

    def native_edge_weight(self) -> torch.Tensor | None:
        """The weights the native kernel samples by (None: uniformly)."""
        return None

    def sample_hop(self, frontier: torch.Tensor, hop: int):
        indptr = self.store.indptr
        start = indptr[frontier]
        degree = indptr[frontier + 1] - start
        fanout = self.num_neighbors[hop]
        if fanout < 0:
            fanout = int(degree.max()) if degree.numel() else 0
        rows, offsets = self.neighbour_slots(frontier, degree.clamp(max=fanout))
        truncated = degree > fanout
        if bool(truncated.any()):
            picks = self.choose_offsets(start[truncated], degree[truncated], fanout)
            # Truncated rows own exactly `fanout` consecutive slots each, in row order, as `picks` does.
            offsets[truncated[rows]] = picks.reshape(-1)
        neighbour = self.store.indices[start[rows] + offsets].long()
        return neighbour, rows, None

    def choose_offsets(self, start: torch.Tensor, degree: torch.Tensor, fanout: int) -> torch.Tensor:
        """``fanout`` distinct offsets in ``[0, degree)`` per row (every degree above the fanout), uniformly:
        Floyd's algorithm (see :class:`DistinctPositions`). It touches O(fanout²) values per row instead of
        every neighbour of a hub."""
        degree = degree.view(-1, 1, 1)
        positions = DistinctPositions(fanout, self.device)(degree, self.generator)  # counted from the row's end
        return (degree - positions).view(-1, fanout)


class WeightedNeighborSampler(NeighborSampler):
    """Like :class:`NeighborSampler`, but a neighbour's chance is proportional to its edge weight
    (sampling without replacement by Efraimidis–Spirakis keys ``log(u) / w``, top ``fanout`` per row)."""

    def __init__(self, store: GraphStore, num_neighbors: list[int], seed: int = 0, native: bool | None = None):
        if store.edge_weight is None:
            raise ValueError("weighted sampling needs edge weights in the graph store")
        super().__init__(store, num_neighbors, seed, native)

    def native_edge_weight(self) -> torch.Tensor | None:
        return self.store.edge_weight

    def fixed_capacity_sampler(self) -> None:
        """None: weighted draws rank every neighbour of a row, a size only known once the frontier is."""
        return None

    def choose_offsets(self, start: torch.Tensor, degree: torch.Tensor, fanout: int) -> torch.Tensor:
        rows, offsets = self.neighbour_slots(start, degree)
        weight = self.store.edge_weight[start[rows] + offsets]
        keys = torch.log(self.rand(rows.numel())) / weight
        # Group by row, best key first within a row: sort by key, then stable-sort by row.
        order = torch.argsort(keys, descending=True)
        order = order[torch.argsort(rows[order], stable=True)]
        block_start = torch.cumsum(degree, 0) - degree
        rank = torch.arange(order.numel(), device=self.device) - block_start[rows[order]]
        return offsets[order[rank < fanout]].view(-1, fanout)
