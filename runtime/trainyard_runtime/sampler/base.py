"""The hop-by-hop expansion shared by every sampler; a sampler only decides which edges one hop keeps."""

from __future__ import annotations

from abc import ABC, abstractmethod

import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler import native as native_kernels
from trainyard_runtime.sampler.subgraph import LocalIdTable, SampledSubgraph


class HopSampler(ABC):
    """Expands seeds hop by hop: each hop samples edges for the nodes first reached by the previous hop.

    Two implementations: on a CPU store the native kernels (C++/OpenMP, parallel over the frontier; the
    neighbour samplers run all hops in one call), on CUDA vectorised tensor code (every step one operation over
    the whole frontier). ``native`` forces the choice (the tensor code also runs on CPU; the native kernels only
    there). Both are deterministic for a seed. Not thread-safe: one sampler per process/worker.
    """

    supports_native = False  # whether this sampler has native hop kernels

    def __init__(self, store: GraphStore, num_hops: int, seed: int = 0, native: bool | None = None):
        if num_hops < 1:
            raise ValueError("a sampler needs at least one hop")
        self.store = store
        self.num_hops = num_hops
        self.device = store.device
        on_cpu = self.device.type == "cpu"
        self.native = self.supports_native and on_cpu if native is None else native
        if self.native and not (self.supports_native and on_cpu):
            raise ValueError(f"{type(self).__name__} has no native kernels for a store on {self.device}")
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(seed)
        self._ids = LocalIdTable(store.num_nodes, self.device, native=self.native)

    @abstractmethod
    def sample_hop(self, frontier: torch.Tensor, hop: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """Samples one hop for ``frontier`` (global ids).

        Returns (neighbour global ids, index into ``frontier`` of the node each was sampled for, raw
        aggregation weights or None for an unweighted mean).
        """

    def next_key(self) -> int:
        """The stream key of one native hop, drawn from the seeded generator."""
        return native_kernels.next_key(self.generator)

    def rand(self, count: int, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        return torch.rand(count, generator=self.generator, device=self.device, dtype=dtype)

    def neighbour_slots(self, frontier: torch.Tensor, counts: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """For ``counts[i]`` output slots per frontier node: each slot's frontier row and its offset in the row."""
        rows = torch.repeat_interleave(torch.arange(frontier.numel(), device=self.device), counts)
        block_start = torch.cumsum(counts, 0) - counts
        offsets = torch.arange(rows.numel(), device=self.device) - block_start[rows]
        return rows, offsets

    def excluded_keys(self, exclude_edges: torch.Tensor | None) -> torch.Tensor | None:
        """Keys ``target * num_nodes + neighbour`` of the excluded edges in both directions, or None."""
        if exclude_edges is None or not exclude_edges.numel():
            return None
        exclude_edges = exclude_edges.to(self.device, torch.int64)
        num_nodes = self.store.num_nodes
        return torch.cat(
            [exclude_edges[0] * num_nodes + exclude_edges[1], exclude_edges[1] * num_nodes + exclude_edges[0]]
        )

    def sample(self, seeds: torch.Tensor, exclude_edges: torch.Tensor | None = None) -> SampledSubgraph:
        """Samples the neighbourhood of ``seeds``; edges in ``exclude_edges`` ([2, K] global, either
        direction) never appear in the result: they are the labels a link-prediction batch must not see."""
        seeds = seeds.to(self.device, torch.int64)
        num_nodes = self.store.num_nodes
        excluded = self.excluded_keys(exclude_edges)
        ids = self._ids
        try:
            seed_local = ids.add(seeds, keep_order=True)
            batch_size = ids.count
            frontier, frontier_start = ids.nodes(), 0
            sources, targets, weights = [], [], []
            num_sampled_nodes, num_sampled_edges = [batch_size], []
            for hop in range(self.num_hops):
                neighbour, row, weight = self.sample_hop(frontier, hop)
                if weight is None:
                    weight = torch.ones(neighbour.numel(), device=self.device)
                if excluded is not None and neighbour.numel():
                    keep = ~torch.isin(frontier[row] * num_nodes + neighbour, excluded)
                    neighbour, row, weight = neighbour[keep], row[keep], weight[keep]
                count_before = ids.count
                sources.append(ids.add(neighbour))
                targets.append(row + frontier_start)
                weights.append(weight.float())
                num_sampled_nodes.append(ids.count - count_before)
                num_sampled_edges.append(neighbour.numel())
                frontier, frontier_start = ids.added_since(count_before), count_before
            node = ids.nodes()
        finally:
            ids.reset()
        edge_index = torch.stack([torch.cat(sources), torch.cat(targets)])
        edge_weight = torch.cat(weights)
        # Normalise per target: a weighted sum over a target's incoming edges becomes a (weighted) mean.
        totals = torch.zeros(node.numel(), device=self.device).index_add_(0, edge_index[1], edge_weight)
        edge_weight = edge_weight / totals[edge_index[1]].clamp(min=torch.finfo(torch.float32).tiny)
        return SampledSubgraph(
            node, edge_index, edge_weight, batch_size, num_sampled_nodes, num_sampled_edges, seed_local
        )
