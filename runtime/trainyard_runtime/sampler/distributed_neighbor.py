"""Uniform neighbour sampling over a partitioned graph: each hop's frontier goes to its owners and back."""

from __future__ import annotations

import torch

from trainyard_runtime.partition.owner_exchange import OwnerExchange
from trainyard_runtime.partition.partitioned_graph import PartitionedGraph
from trainyard_runtime.sampler.base import HopSampler


class DistributedNeighborSampler(HopSampler):
    """The :class:`NeighborSampler`'s uniform sampling, hop by hop through an :class:`OwnerExchange`.

    The hop's stream key comes from this (requesting) process's seeded generator and travels with the request;
    the owner draws node ``v``'s neighbours from the stream (key, ``v``). So a batch is the same whatever the
    number of parts and whoever owns what. Relabelling, label-edge exclusion and the mean weights are the
    base class's. Every process of the world must call :meth:`sample` as often as the others (an empty batch
    takes part in the collectives too).
    """

    supports_native = True

    def __init__(self, graph: PartitionedGraph, num_neighbors: list[int], seed: int = 0):
        if any(k == 0 or k < -1 for k in num_neighbors):
            raise ValueError(f"num_neighbors entries must be positive or -1, got {num_neighbors}")
        super().__init__(graph, len(num_neighbors), seed, native=True)
        self.exchange = OwnerExchange(graph)
        self.num_neighbors = list(num_neighbors)

    def sample_hop(self, frontier: torch.Tensor, hop: int) -> tuple[torch.Tensor, torch.Tensor, None]:
        neighbour, row = self.exchange.sample_neighbours(frontier, self.num_neighbors[hop], self.next_key())
        return neighbour, row, None
