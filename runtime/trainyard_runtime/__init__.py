"""Trainyard's in-memory neighbourhood-sampling GNN training runtime (GiGL trainer contract)."""

import time

# The trainer's clock: `python -m trainyard_runtime.train` imports this package before anything else.
STARTED = time.monotonic()

__version__ = "0.1.0"
