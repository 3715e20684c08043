"""TensorBoard scalars, written by rank 0 only."""

from __future__ import annotations

from pathlib import Path


class ScalarLog:
    """Writes scalars under ``folder``; with no folder (or on ranks other than 0) it writes nothing.

    The writer is made at the first scalar: importing TensorBoard's (protobuf, NumPy, its TensorFlow stub)
    would otherwise delay the first training step, which has nothing to log yet.
    """

    def __init__(self, folder: Path | None):
        self._folder = folder
        self._writer = None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)

    def add(self, tag: str, value: float, step: int) -> None:
        if self._folder is None:
            return
        if self._writer is None:
            from torch.utils.tensorboard import SummaryWriter

            self._writer = SummaryWriter(log_dir=str(self._folder), flush_secs=10)
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
