"""Human progress lines on stdout: step, epoch fraction, loss, throughput, ETA."""

from __future__ import annotations

import sys
import time


def _duration(seconds: float) -> str:
    seconds = max(round(seconds), 0)
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{seconds:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _count(value: float) -> str:
    for unit, size in (("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:.1f}{unit}"
    return f"{value:.0f}"


class ProgressReporter:
    def __init__(self, total_steps: int, enabled: bool):
        self.total_steps = total_steps
        self.enabled = enabled
        self.started = time.monotonic()

    def say(self, message: str) -> None:
        if self.enabled:
            print(message, file=sys.stdout, flush=True)

    def report(self, step: int, epoch: float, loss: float, batches_per_s: float, edges_per_s: float) -> None:
        elapsed = time.monotonic() - self.started
        remaining = elapsed / max(step, 1) * (self.total_steps - step)
        self.say(
            f"[train] step {step}/{self.total_steps} | epoch {epoch:.2f} | loss {loss:.4f} | "
            f"{batches_per_s:.1f} batches/s, {_count(edges_per_s)} sampled edges/s | "
            f"elapsed {_duration(elapsed)}, ETA {_duration(remaining)}"
        )
