"""Uniform sampling without replacement for a whole frontier at once: Floyd's algorithm without its loop."""

from __future__ import annotations

import torch

# Random 62-bit integers reduced modulo the bound: the bias is below bound / 2^62.
_RANDOM_BITS = 2**62


class DistinctPositions:
    """Draws ``fanout`` distinct positions per row, uniformly, in a fixed handful of tensor operations.

    Floyd's algorithm takes ``f`` distinct values of ``[1, d]`` in ``f`` steps: step ``i`` draws ``r_i`` uniformly
    in ``[1, u_i]`` with ``u_i = d - f + i + 1`` and takes ``r_i``, or ``u_i`` when ``r_i`` was taken before. The
    steps depend on each other only through "was taken before", which has a closed form: the values taken
    before step ``i`` are the earlier draws plus ``u_k`` for every earlier refused step ``k``. So step ``i`` is
    refused iff ``r_i`` repeats an earlier draw, or ``r_i = u_k`` for a refused ``k < i``. With ``b_i`` the
    number of earlier draws equal to ``r_i`` and ``x_i = b_i + x_k`` (``k`` the earlier step with
    ``u_k = r_i``, if any), step ``i`` is refused iff ``x_i > 0``: one unit lower-triangular solve per row
    (integer counts, exact in float32) instead of ``f`` dependent steps of ~10 kernels each.

    Rows shorter than the fanout run Floyd with ``d = f``, which takes every value of ``[1, f]``; the caller keeps
    those up to the degree. Positions count from the row's end (``end - position`` is the neighbour's index),
    so a position beyond a short row still indexes inside the array (earlier rows, or from the back for the
    first row) and needs no clamping before the mask applies.
    """

    def __init__(self, fanout: int, device: torch.device):
        if fanout <= 0:
            raise ValueError(f"a fanout must be positive, got {fanout}")
        self.fanout = fanout
        self._bound_offsets = torch.arange(1 - fanout, 1, device=device).view(fanout, 1)
        self._minus_one = torch.tensor(-1.0, device=device)  # tensors, not Python numbers: no conversion per call
        self._zero = torch.tensor(0.0, device=device)

    def __call__(self, degree: torch.Tensor, generator: torch.Generator | None) -> torch.Tensor:
        """``degree``: shape ``[..., 1, 1]``; returns positions ``[..., fanout, 1]`` in ``[1, max(degree, fanout)]``,
        distinct within a row; those ``<= degree`` are the sample."""
        # bound_i = u_i for d = max(degree, fanout)
        bound = degree.clamp(min=self.fanout) + self._bound_offsets
        random = torch.randint(_RANDOM_BITS, bound.shape, generator=generator, device=bound.device)
        draws = bound - random % bound
        repeats = (draws == draws.mT).tril(-1).sum(-1, keepdim=True, dtype=torch.float32)
        # -1 at (i, k) where draw i is bound k: with unitriangular=True only k < i is read.
        points_to = torch.where(draws == bound.mT, self._minus_one, self._zero)
        refused = torch.linalg.solve_triangular(points_to, repeats, upper=False, unitriangular=True) > 0.5
        return torch.where(refused, bound, draws)
