"""Synthetic graphs, so a job trains without downloading anything: RMAT (Graph500) and planted partition."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.data.edge_lists import canonical_pairs

# Graph500's RMAT quadrant probabilities (d = 1 - a - b - c = 0.05).
GRAPH500_A, GRAPH500_B, GRAPH500_C = 0.57, 0.19, 0.19


@dataclass
class RawGraph:
    """A source graph before splitting: undirected pairs or directed edges, features, optional labels."""

    num_nodes: int
    edge_index: torch.Tensor  # [2, E]; (low, high) pairs when `undirected`
    undirected: bool
    features: torch.Tensor
    labels: torch.Tensor | None = None
    edge_weight: torch.Tensor | None = None


def rmat(scale: int, avg_degree: int, feature_dim: int, num_classes: int, seed: int) -> RawGraph:
    """An RMAT graph with ``2**scale`` nodes and about ``avg_degree * 2**scale`` directed edges.

    Each edge picks one quadrant per bit of its endpoints with Graph500's probabilities; node ids are then
    permuted so the hubs are not all at small ids. Duplicates and self-loops are dropped, so the average degree
    ends a little below the requested one. Labels are log-degree buckets, weights uniform in (0, 1].
    """
    if not 1 <= scale <= 40:
        raise ValueError(f"RMAT scale must lie in [1, 40], got {scale}")
    generator = torch.Generator().manual_seed(seed)
    num_nodes = 1 << scale
    num_draws = num_nodes * avg_degree // 2
    src = torch.zeros(num_draws, dtype=torch.int64)
    dst = torch.zeros(num_draws, dtype=torch.int64)
    for bit in range(scale):
        r = torch.rand(num_draws, generator=generator)
        lower_half = r >= GRAPH500_A + GRAPH500_B  # quadrants c and d
        right_half = ((r >= GRAPH500_A) & ~lower_half) | (r >= GRAPH500_A + GRAPH500_B + GRAPH500_C)
        src |= lower_half.long() << bit
        dst |= right_half.long() << bit
        del r, lower_half, right_half
    permutation = torch.randperm(num_nodes, generator=generator)
    pairs, _ = canonical_pairs(torch.stack([permutation[src], permutation[dst]]), num_nodes)
    del src, dst
    degree = torch.bincount(pairs.reshape(-1), minlength=num_nodes)
    labels = torch.log2(degree.float() + 1).long().clamp(max=num_classes - 1)
    features = torch.randn(num_nodes, feature_dim, generator=generator)
    weight = 1.0 - torch.rand(pairs.size(1), generator=generator)
    return RawGraph(num_nodes, pairs, True, features, labels, weight)


def planted_partition(
    num_nodes: int,
    num_communities: int,
    avg_degree: int,
    intra_fraction: float,
    feature_dim: int,
    feature_noise: float,
    inter_edge_weight: float,
    seed: int,
) -> RawGraph:
    """A planted-partition (stochastic block) graph whose classes and links are learnable.

    Nodes fall into balanced communities (the class labels). A fraction ``intra_fraction`` of the edges joins
    two nodes of one community, the rest join random nodes. Features are the community's random centroid plus
    Gaussian noise of scale ``feature_noise`` (the noise also makes every node distinguishable). Intra-community
    edges weigh 1, the others ``inter_edge_weight``, so weighted sampling prefers the informative ones.
    """
    if num_communities < 1 or num_communities > num_nodes:
        raise ValueError("num_communities must lie in [1, num_nodes]")
    if not 0.0 <= intra_fraction <= 1.0:
        raise ValueError("intra_fraction must lie in [0, 1]")
    generator = torch.Generator().manual_seed(seed)
    community = torch.randperm(num_nodes, generator=generator) % num_communities
    members = torch.argsort(community, stable=True)  # node ids grouped by community
    size = torch.bincount(community, minlength=num_communities)
    first = torch.cumsum(size, 0) - size
    num_draws = num_nodes * avg_degree // 2
    src = torch.randint(num_nodes, (num_draws,), generator=generator)
    intra = torch.rand(num_draws, generator=generator) < intra_fraction
    own = community[src]
    mate = members[first[own] + (torch.rand(num_draws, generator=generator) * size[own]).long().minimum(size[own] - 1)]
    dst = torch.where(intra, mate, torch.randint(num_nodes, (num_draws,), generator=generator))
    weight = torch.where(community[src] == community[dst], 1.0, inter_edge_weight)
    pairs, weight = canonical_pairs(torch.stack([src, dst]), num_nodes, weight)
    centroids = torch.randn(num_communities, feature_dim, generator=generator)
    features = centroids[community] + feature_noise * torch.randn(num_nodes, feature_dim, generator=generator)
    return RawGraph(num_nodes, pairs, True, features, community, weight)
