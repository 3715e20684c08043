"""Graph data: the shared CSR graph store, synthetic generators, file readers and splits."""

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.graph_store import GraphStore

__all__ = ["GraphDataset", "GraphStore"]
