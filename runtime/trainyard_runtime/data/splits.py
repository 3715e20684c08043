"""Train/validation/test splits: held-out edges for link prediction, node sets for node classification."""

from __future__ import annotations

import torch

from trainyard_runtime.config.split_fractions import SplitFractions


def split_edges(
    pairs: torch.Tensor, fractions: SplitFractions, random_orientation: bool = True
) -> dict[str, torch.Tensor]:
    """Splits undirected pairs; validation and test pairs are held out of the message-passing graph.

    Returns ``train_positions`` (columns of ``pairs`` that stay for message passing and training labels) and
    ``val_edges``/``test_edges``. A held-out pair becomes one query edge anchor → positive with a random
    orientation, so anchors are not biased towards small ids; without ``random_orientation`` row 0 stays the
    anchor (a supervision edge type between two node types fixes which end is the query).
    """
    generator = torch.Generator().manual_seed(fractions.seed)
    order = torch.randperm(pairs.size(1), generator=generator)
    num_val = round(fractions.val * pairs.size(1))
    num_test = round(fractions.test * pairs.size(1))
    flip = torch.rand(pairs.size(1), generator=generator) < 0.5
    oriented = torch.where(flip, pairs.flip(0), pairs) if random_orientation else pairs
    return {
        "train_positions": order[num_val + num_test :].sort().values,
        "val_edges": oriented[:, order[:num_val]],
        "test_edges": oriented[:, order[num_val : num_val + num_test]],
    }


def split_nodes(num_nodes: int, fractions: SplitFractions) -> dict[str, torch.Tensor]:
    generator = torch.Generator().manual_seed(fractions.seed)
    order = torch.randperm(num_nodes, generator=generator)
    num_val = round(fractions.val * num_nodes)
    num_test = round(fractions.test * num_nodes)
    return {
        "val_nodes": order[:num_val].sort().values,
        "test_nodes": order[num_val : num_val + num_test].sort().values,
        "train_nodes": order[num_val + num_test :].sort().values,
    }
