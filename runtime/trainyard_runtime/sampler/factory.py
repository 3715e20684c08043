"""Builds the sampler the trainer arguments ask for."""

from __future__ import annotations

import torch

from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.partition.partitioned_graph import PartitionedGraph
from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.distributed_neighbor import DistributedNeighborSampler
from trainyard_runtime.sampler.layerwise import LayerwiseSampler
from trainyard_runtime.sampler.neighbor import NeighborSampler, WeightedNeighborSampler
from trainyard_runtime.sampler.random_walk import RandomWalkSampler


def build_sampler(args: TrainerArgs, store: GraphStore | PartitionedGraph, seed: int) -> HopSampler:
    if isinstance(store, PartitionedGraph):
        return DistributedNeighborSampler(store, args.num_neighbors, seed)  # the arguments allow only `neighbor`
    if args.sampler == "weighted":
        return WeightedNeighborSampler(store, args.num_neighbors, seed)
    if args.sampler == "layerwise":
        budgets = args.layer_node_budget or [args.main_batch_size * (k if k > 0 else 10) for k in args.num_neighbors]
        return LayerwiseSampler(store, budgets, seed)
    if args.sampler == "random_walk":
        return RandomWalkSampler(
            store,
            args.num_neighbors,
            num_walks=args.num_random_walks,
            walk_length=args.random_walk_length,
            restart_probability=args.random_walk_restart_probability,
            seed=seed,
        )
    return NeighborSampler(store, args.num_neighbors, seed)


def uniform_sampler(
    graph: GraphStore | PartitionedGraph, num_neighbors: list[int], seed: int, device: torch.device
) -> HopSampler:
    """Uniform neighbour sampling on ``graph`` (a label graph's positives): through the owners when it is
    partitioned, else on ``device``."""
    if isinstance(graph, PartitionedGraph):
        return DistributedNeighborSampler(graph, num_neighbors, seed)
    return NeighborSampler(graph.to(device), num_neighbors, seed)
