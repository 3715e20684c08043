"""Mini-batch loaders: seed batches expanded by a sampler into PyG ``Data`` objects."""

from trainyard_runtime.loader.anchor_link_loader import AnchorLinkLoader
from trainyard_runtime.loader.node_loader import NodeBatchLoader

__all__ = ["AnchorLinkLoader", "NodeBatchLoader"]
