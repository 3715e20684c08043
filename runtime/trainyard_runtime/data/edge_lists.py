"""Edge-list transformations shared by the generators, the file reader and the splits."""

from __future__ import annotations

import torch


def canonical_pairs(
    edge_index: torch.Tensor, num_nodes: int, edge_weight: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """Undirected simple graph: one ``(low, high)`` pair per connected node pair, no self-loops.

    Duplicates (RMAT draws many) collapse into one pair keeping the first weight seen.
    """
    low = torch.minimum(edge_index[0], edge_index[1]).long()
    high = torch.maximum(edge_index[0], edge_index[1]).long()
    proper = low != high
    low, high = low[proper], high[proper]
    keys, inverse = torch.unique(low * num_nodes + high, return_inverse=True)
    pairs = torch.stack([keys // num_nodes, keys % num_nodes])
    if edge_weight is None:
        return pairs, None
    weight = torch.zeros(keys.numel(), dtype=torch.float32).scatter_(0, inverse, edge_weight[proper].float())
    return pairs, weight


def both_directions(
    pairs: torch.Tensor, edge_weight: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor | None]:
    edge_index = torch.cat([pairs, pairs.flip(0)], dim=1)
    return edge_index, None if edge_weight is None else torch.cat([edge_weight, edge_weight])
