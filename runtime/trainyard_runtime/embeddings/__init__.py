"""Learnable node embeddings kept outside the graph and trained with sparse updates."""

from trainyard_runtime.embeddings.node_embeddings import NodeEmbeddings, build_node_embeddings

__all__ = ["NodeEmbeddings", "build_node_embeddings"]
