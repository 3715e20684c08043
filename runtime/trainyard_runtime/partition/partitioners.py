"""Partitioners: an owner (part number) per node. Edge-cut partitioning: every node has one owner, and an edge
whose ends have different owners is cut (a request to another process when sampling crosses it)."""

from __future__ import annotations

import torch

from trainyard_runtime.data.graph_store import GraphStore

# Fibonacci hashing's multiplier (2^64 / golden ratio, as a signed int64): spreads runs of consecutive ids.
_GOLDEN = -7046029254386353131


def hash_owners(num_nodes: int, num_parts: int) -> torch.Tensor:
    """Owner of node ``v``: a hash of ``v`` modulo ``num_parts``. Balanced and oblivious to the structure: it
    cuts about ``1 - 1/num_parts`` of the edges, but needs nothing but the node count."""
    mixed = (torch.arange(num_nodes, dtype=torch.int64) * _GOLDEN) >> 17  # the well-mixed high bits
    return torch.remainder(mixed, num_parts).to(torch.int32)


def metis_owners(store: GraphStore, num_parts: int, seed: int) -> torch.Tensor:
    """Owner of each node by METIS (``pymetis``): k-way partitions that cut few edges, so most of a
    neighbourhood stays on the process that samples it. Wants a symmetric graph (both directions stored, as
    every undirected store here is).

    Each node weighs the bytes its row takes in a part (its features, row pointer and column indices), so the
    parts balance memory, which is what partitioning is for. With unit weights METIS filled one part of an RMAT
    graph with its many isolated nodes (cut 0.3 %, node balance 1.0, and the other part held nearly every
    edge); weighted by degree alone it balanced edges but not the features, which dominate the bytes."""
    if num_parts == 1:
        return torch.zeros(store.num_nodes, dtype=torch.int32)
    import pymetis  # only METIS jobs need it

    adjacency = pymetis.CSRAdjacency(store.indptr.cpu().numpy(), store.indices.cpu().numpy())
    row_bytes = store.features[:1].numel() * store.features.element_size() + store.indptr.element_size()
    weights = (store.indptr.diff().cpu() * store.indices.element_size() + row_bytes).numpy()
    _, parts = pymetis.part_graph(num_parts, adjacency, vweights=weights, options=pymetis.Options(seed=seed))
    return torch.as_tensor(parts, dtype=torch.int32)


def partition_nodes(store: GraphStore, num_parts: int, partitioner: str, seed: int = 0) -> torch.Tensor:
    """``partitioner`` is the trainer argument: ``hash`` or ``metis``."""
    if num_parts < 1:
        raise ValueError(f"the graph needs at least one part, got {num_parts}")
    if partitioner == "hash":
        return hash_owners(store.num_nodes, num_parts)
    if partitioner == "metis":
        return metis_owners(store, num_parts, seed)
    raise ValueError(f"unknown partitioner {partitioner!r}")
