"""The train/validation/test split a task config asks for; trainyard_runtime.data.splits applies it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SplitFractions:
    """Read from ``datasetConfig.splitGeneratorConfig`` (``train_split``/``val_split``/``test_split``/``seed``)."""

    train: float = 0.8
    val: float = 0.1
    test: float = 0.1
    seed: int = 42

    def __post_init__(self):
        if min(self.train, self.val, self.test) < 0 or abs(self.train + self.val + self.test - 1.0) > 1e-6:
            raise ValueError(f"split fractions must be non-negative and sum to 1, got {self}")
