"""The trained model's ``state_dict`` and the evaluation metrics JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import torch
from torch import nn


def _write_atomically(path: Path, write: Any) -> None:
    """Write to a sibling temp file, then rename: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    write(staging)
    staging.replace(path)


def save_state_dict(model: nn.Module, path: Path) -> None:
    state = {name: tensor.detach().cpu() for name, tensor in model.state_dict().items()}
    _write_atomically(path, lambda target: torch.save(state, target))


def load_state_dict(model: nn.Module, path: Path) -> None:
    if not path.is_file():
        raise FileNotFoundError(f"no trained model at {path} (shouldSkipTraining needs one)")
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))


# GiGL's metric names where this runtime's differ (GiGL's EvalMetricType: mrr, loss, hits, acc).
_GIGL_NAMES = {"accuracy": "acc"}


def write_metrics(metrics: dict[str, Any], path: Path) -> None:
    """GiGL's eval metrics file, which Vertex AI pipelines show as KFP metrics:
    ``{"metrics": [{"name": "mrr", "numberValue": "0.71", "format": "RAW"}, ...]}`` (the value as a string)."""
    entries = [
        {"name": _GIGL_NAMES.get(name, name), "numberValue": f"{float(value)}", "format": "RAW"}
        for name, value in metrics.items()
    ]
    _write_atomically(path, lambda target: target.write_text(json.dumps({"metrics": entries}, indent=2) + "\n"))
