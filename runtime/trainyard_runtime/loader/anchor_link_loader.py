"""Anchor-based link-prediction batches, like GiGL's ``DistABLPLoader``."""

from __future__ import annotations

from typing import Iterator

import torch
from torch_geometric.data import Data

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.loader.node_loader import to_data
from trainyard_runtime.loader.seed_batches import SeedBatches
from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.neighbor import NeighborSampler


def label_graph(edges: torch.Tensor, num_nodes: int) -> GraphStore:
    """Anchor → positive label edges as a featureless CSR, so positives are looked up like neighbours."""
    return GraphStore.from_edge_index(edges, num_nodes, torch.empty(num_nodes, 0))


class AnchorLinkLoader:
    """Batches of anchor nodes with their positive label edges.

    Each batch samples the neighbourhoods of the anchors and their positives together: the first
    ``batch_size`` nodes are the anchors, and ``y_positive`` is a ``[2, E]`` tensor of local (anchor,
    positive) indices. Up to ``max_positives_per_anchor`` positives are drawn per anchor without replacement
    (-1: all). When the labels are edges of the message-passing graph (training), the batch's label edges are
    removed from message passing, so the model never sees the edge it is asked to predict.
    """

    def __init__(
        self,
        dataset: GraphDataset,
        sampler: HopSampler,
        labels: GraphStore,
        batch_size: int,
        max_positives_per_anchor: int,
        remove_labels_from_message_passing: bool,
        device: torch.device,
        shard: tuple[int, int] = (0, 1),
        shuffle: bool = True,
        infinite: bool = False,
        seed: int = 0,
    ):
        self.dataset = dataset
        self.sampler = sampler
        self.device = device
        self.remove_labels = remove_labels_from_message_passing
        anchors = torch.nonzero(labels.indptr.diff() > 0).flatten().cpu()  # seed order is drawn on the CPU
        rank, world_size = shard
        self.anchors = anchors[rank::world_size]
        self.seed_batches = SeedBatches(self.anchors, batch_size, shuffle, infinite, seed)
        # Positives are "neighbours" in the label graph: the uniform sampler draws them without replacement.
        self.positive_sampler = NeighborSampler(labels.to(sampler.device), [max_positives_per_anchor], seed + 7919)

    def __len__(self) -> int:
        return len(self.seed_batches)

    def __iter__(self) -> Iterator[Data]:
        for anchors in self.seed_batches:
            yield self.batch(anchors)

    def batch(self, anchors: torch.Tensor) -> Data:
        anchors = anchors.to(self.sampler.device)
        positives, anchor_row, _ = self.positive_sampler.sample_hop(anchors, 0)
        label_edges = torch.stack([anchors[anchor_row], positives])
        subgraph = self.sampler.sample(
            torch.cat([anchors, positives]), exclude_edges=label_edges if self.remove_labels else None
        )
        data = to_data(self.dataset, subgraph, self.device)
        data.batch_size = anchors.numel()
        data.y_positive = torch.stack([anchor_row, subgraph.seed_local[anchors.numel() :]]).to(self.device)
        return data
