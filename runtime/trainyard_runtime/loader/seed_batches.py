"""Yields batches of seed ids from one rank's shard, reshuffled every epoch, optionally forever."""

from __future__ import annotations

from collections.abc import Iterator

import torch


class SeedBatches:
    def __init__(
        self, seeds: torch.Tensor, batch_size: int, shuffle: bool, infinite: bool, seed: int, drop_last: bool = False
    ):
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.seeds = seeds
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.infinite = infinite
        self.drop_last = drop_last and seeds.numel() >= batch_size
        self.generator = torch.Generator().manual_seed(seed)

    def __len__(self) -> int:
        """Batches per epoch."""
        return -(-self.seeds.numel() // self.batch_size)

    def __iter__(self) -> Iterator[torch.Tensor]:
        if self.seeds.numel() == 0:
            return
        while True:
            order = self.seeds
            if self.shuffle:
                order = self.seeds[torch.randperm(self.seeds.numel(), generator=self.generator)]
            for batch in torch.split(order, self.batch_size):
                if len(batch) == self.batch_size or not self.drop_last:
                    yield batch
            if not self.infinite:
                return
