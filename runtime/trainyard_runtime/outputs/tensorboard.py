"""TensorBoard scalars, written by rank 0 only."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from torch.utils.tensorboard import SummaryWriter


class ScalarLog:
    """Writes scalars under ``folder``; with no folder (or on ranks other than 0) it writes nothing."""

    def __init__(self, folder: Optional[Path]):
        self._writer = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            self._writer = SummaryWriter(log_dir=str(folder), flush_secs=10)

    def add(self, tag: str, value: float, step: int) -> None:
        if self._writer is not None:
            self._writer.add_scalar(tag, value, step)

    def add_all(self, prefix: str, values: dict[str, float], step: int) -> None:
        for name, value in values.items():
            if isinstance(value, float):
                self.add(f"{prefix}/{name}", value, step)

    def flush(self) -> None:
        if self._writer is not None:
            self._writer.flush()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
