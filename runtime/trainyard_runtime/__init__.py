"""Trainyard's in-memory neighbourhood-sampling GNN training runtime (GiGL trainer contract)."""

__version__ = "0.1.0"
