"""Random-walk sampling (PinSage): a node's neighbours are the nodes its restarting random walks visit most."""

from __future__ import annotations

import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler import native as native_kernels
from trainyard_runtime.sampler.base import HopSampler


class RandomWalkSampler(HopSampler):
    """For each frontier node, ``num_walks`` walks of ``walk_length`` steps that jump back home with
    probability ``restart_probability`` after each step; the ``num_neighbors[hop]`` most visited nodes become
    its neighbours, weighted by visit count (PinSage's importance pooling). Neighbours may be several hops away.
    """

    supports_native = True

    def __init__(
        self,
        store: GraphStore,
        num_neighbors: list[int],
        num_walks: int = 16,
        walk_length: int = 3,
        restart_probability: float = 0.5,
        seed: int = 0,
        native: bool | None = None,
    ):
        super().__init__(store, len(num_neighbors), seed, native)
        if any(k <= 0 for k in num_neighbors):
            raise ValueError(f"num_neighbors entries must be positive for random-walk sampling, got {num_neighbors}")
        if num_walks <= 0 or walk_length <= 0 or not 0.0 <= restart_probability < 1.0:
            raise ValueError("random walks need num_walks > 0, walk_length > 0 and 0 <= restart_probability < 1")
        self.num_neighbors = list(num_neighbors)
        self.num_walks = num_walks
        self.walk_length = walk_length
        self.restart_probability = restart_probability

    def sample_hop(self, frontier: torch.Tensor, hop: int):
        indptr, indices = self.store.indptr, self.store.indices
        if self.native:
            return native_kernels.random_walk_neighbours(
                indptr,
                indices,
                frontier,
                self.num_neighbors[hop],
                self.num_walks,
                self.walk_length,
                self.restart_probability,
                self.next_key(),
            )
        walk_row = torch.arange(frontier.numel(), device=self.device).repeat_interleave(self.num_walks)
        home = frontier[walk_row]
        position = home
        visited_rows, visited_nodes = [], []
        last_edge = max(self.store.num_edges - 1, 0)
        for _ in range(self.walk_length):
            start = indptr[position]
            degree = indptr[position + 1] - start
            step = (self.rand(position.numel(), torch.float64) * degree).long()
            can_move = degree > 0
            # Clamp keeps the gather in bounds for dead ends; their result is replaced by `home` anyway.
            target = indices[(start + step).clamp(max=last_edge)].long() if self.store.num_edges else home
            target = torch.where(can_move, target, home)
            counted = can_move & (target != home)
            visited_rows.append(walk_row[counted])
            visited_nodes.append(target[counted])
            restart = self.rand(position.numel()) < self.restart_probability
            position = torch.where(restart | ~can_move, home, target)
        rows, nodes = torch.cat(visited_rows), torch.cat(visited_nodes)
        num_nodes = self.store.num_nodes
        pairs, visits = torch.unique(rows * num_nodes + nodes, return_counts=True)
        pair_row, pair_node = pairs // num_nodes, pairs % num_nodes
        # Most visited first within each row; the random fraction breaks ties without favouring small ids.
        order = torch.argsort(visits.float() + 0.5 * self.rand(visits.numel()), descending=True)
        order = order[torch.argsort(pair_row[order], stable=True)]
        per_row = torch.bincount(pair_row, minlength=frontier.numel())
        rank = torch.arange(order.numel(), device=self.device) - (torch.cumsum(per_row, 0) - per_row)[pair_row[order]]
        kept = order[rank < self.num_neighbors[hop]]
        return pair_node[kept], pair_row[kept], visits[kept].float()
