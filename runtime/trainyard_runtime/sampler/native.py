"""The native CPU sampling kernels (``runtime/csrc``, C++ with OpenMP), built by ``runtime/install.sh``.

Each kernel is parallel over the frontier and draws node ``i``'s randomness from a counter-based stream keyed by
``(key, i)``: a sampler passes a fresh key per hop from its seeded generator, so results depend on the seed
only, not on the thread count or on scheduling.
"""

from __future__ import annotations

import torch

try:
    from trainyard_runtime.sampler import _native
except ImportError as error:  # pragma: no cover - only without a build
    raise ImportError(
        "trainyard_runtime's native sampler is not built; run runtime/install.sh (it needs g++ with OpenMP)"
    ) from error

_KEY_BOUND = 2**62


def next_key(generator: torch.Generator) -> int:
    """A fresh 62-bit stream key from the sampler's seeded generator (one per hop)."""
    return int(torch.randint(_KEY_BOUND, (1,), generator=generator, device=generator.device))


def sample_neighbourhood(
    indptr, indices, edge_weight, table, seeds, fanouts: list[int], excluded_keys, key: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, list[int], list[int]]:
    """All hops of uniform (``edge_weight`` None) or weighted neighbour sampling; see csrc/sampling.h."""
    return _native.sample_neighbourhood(
        indptr, indices, edge_weight, table, seeds.contiguous(), fanouts, excluded_keys.contiguous(), key
    )


def random_walk_neighbours(
    indptr, indices, frontier, fanout: int, num_walks: int, walk_length: int, restart_probability: float, key: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _native.random_walk_neighbours(
        indptr, indices, frontier.contiguous(), fanout, num_walks, walk_length, restart_probability, key
    )


def relabel(table: torch.Tensor, ids: torch.Tensor, count: int) -> tuple[torch.Tensor, torch.Tensor]:
    return _native.relabel(table, ids.contiguous(), count)


def sample_owned_rows(indptr, indices, rows, node_ids, fanout: int, key: int) -> tuple[torch.Tensor, torch.Tensor]:
    """One hop on a partition's ``rows``, node ``i`` drawing from the stream (key, ``node_ids[i]``)."""
    return _native.sample_owned_rows(indptr, indices, rows.contiguous(), node_ids.contiguous(), fanout, key)
