"""Neighbour sampling on a heterogeneous graph, composed of one homogeneous sampler per edge type."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.config.graph_metadata import EdgeType
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler.neighbor import NeighborSampler
from trainyard_runtime.sampler.subgraph import LocalIdTable


@dataclass
class HeteroSubgraph:
    """A relabelled typed neighbourhood: ``node`` global ids (seeds first, as given), ``edge_index`` local
    (row 0 the neighbour, row 1 the node it was sampled for), ``edge_type`` the index of each edge's type.
    ``seed_local`` is the local id of every seed as requested, duplicates included. Nodes are numbered hop by
    hop: ``num_sampled_nodes[h]`` nodes were first reached by hop ``h`` (hop 0: the seeds)."""

    node: torch.Tensor
    edge_index: torch.Tensor
    edge_type: torch.Tensor
    batch_size: int
    seed_local: torch.Tensor
    num_sampled_nodes: list[int]

    @property
    def num_edges(self) -> int:
        return self.edge_index.size(1)


class HeteroNeighborSampler:
    """Uniform neighbour sampling with a fanout per edge type and hop (GiGL's dict-form ``num_neighbors``).

    Every edge type's store is a CSR over the shared global id space whose rows are the edge type's
    destination nodes, so a hop asks each edge type's :class:`NeighborSampler` for the frontier's neighbours:
    frontier nodes of other types have no row entries there and get none.
    """

    def __init__(self, stores: dict[EdgeType, GraphStore], fanout: dict[EdgeType, list[int]], seed: int = 0):
        self.edge_types = list(stores)
        self.num_hops = len(next(iter(fanout.values())))
        self.samplers = [
            NeighborSampler(stores[e], fanout[e], seed + 104_729 * i) for i, e in enumerate(self.edge_types)
        ]
        first = stores[self.edge_types[0]]
        self.device = first.device
        self.num_nodes = first.num_nodes
        self._ids = LocalIdTable(self.num_nodes, self.device)

    def sample(self, seeds: torch.Tensor, exclude_edges: torch.Tensor | None = None) -> HeteroSubgraph:
        """Like :meth:`HopSampler.sample`: edges in ``exclude_edges`` ([2, K] global, either direction, any
        edge type) never appear — the labels a link-prediction batch must not see."""
        seeds = seeds.to(self.device, torch.int64)
        n = self.num_nodes
        excluded = None
        if exclude_edges is not None and exclude_edges.numel():
            pairs = exclude_edges.to(self.device, torch.int64)
            excluded = torch.cat([pairs[0] * n + pairs[1], pairs[1] * n + pairs[0]])
        ids = self._ids
        try:
            seed_local = ids.add(seeds, keep_order=True)
            batch_size = ids.count
            frontier, frontier_start = ids.nodes(), 0
            sources, targets, types = [], [], []
            num_sampled_nodes = [batch_size]
            for hop in range(self.num_hops):
                count_before = ids.count
                for index, sampler in enumerate(self.samplers):
                    neighbour, row, _ = sampler.sample_hop(frontier, hop)
                    if excluded is not None and neighbour.numel():
                        keep = ~torch.isin(frontier[row] * n + neighbour, excluded)
                        neighbour, row = neighbour[keep], row[keep]
                    sources.append(ids.add(neighbour))
                    targets.append(row + frontier_start)
                    types.append(torch.full((neighbour.numel(),), index, dtype=torch.int64, device=self.device))
                num_sampled_nodes.append(ids.count - count_before)
                frontier, frontier_start = ids.added_since(count_before), count_before
            node = ids.nodes()
        finally:
            ids.reset()
        edge_index = torch.stack([torch.cat(sources), torch.cat(targets)])
        return HeteroSubgraph(node, edge_index, torch.cat(types), batch_size, seed_local, num_sampled_nodes)
