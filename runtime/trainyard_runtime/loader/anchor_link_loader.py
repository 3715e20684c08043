"""Anchor-based link-prediction batches, like GiGL's ``DistABLPLoader`` with its random negative loader."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch_geometric.data import Data

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.loader.node_loader import to_data
from trainyard_runtime.loader.seed_batches import SeedBatches
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.partition.partitioned_graph import PartitionedGraph
from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.factory import uniform_sampler


def label_graph(edges: torch.Tensor, num_nodes: int) -> GraphStore:
    """Anchor → positive label edges as a featureless CSR, so positives are looked up like neighbours."""
    return GraphStore.from_edge_index(edges, num_nodes, torch.empty(num_nodes, 0))


def sample_edges(store: GraphStore, fraction: float, seed: int) -> torch.Tensor:
    """A random ``fraction`` of the store's edges as ``[2, E]`` (GiGL's ``ssl_positive_label_percentage``: the
    share of edges taken as self-supervised positive labels). Every rank draws the same edges."""
    source = torch.repeat_interleave(torch.arange(store.num_nodes), store.indptr.diff().cpu())
    edges = torch.stack([source, store.indices.cpu().long()])
    generator = torch.Generator().manual_seed(seed)
    keep = torch.randperm(edges.size(1), generator=generator)[: max(1, round(fraction * edges.size(1)))]
    return edges[:, keep.sort().values]


def random_nodes(num_nodes: int, batch_size: int, seed: int) -> SeedBatches:
    """GiGL's random negative loader: every node, reshuffled each pass, forever, in full batches."""
    return SeedBatches(torch.arange(num_nodes), min(batch_size, num_nodes), True, True, seed, drop_last=True)


class AnchorLinkLoader:
    """Batches of anchor nodes with their positive label edges, and random negative nodes.

    The first ``batch_size`` nodes are the anchors; ``y_positive`` is a ``[2, E]`` tensor of local (anchor,
    positive) indices, up to ``max_positives_per_anchor`` positives per anchor drawn without replacement (-1:
    all); ``random_negative`` holds the local indices of the next batch from ``negatives``. Anchors, positives
    and negatives are sampled as one subgraph, so shared neighbourhoods are computed once. When the labels are
    edges of the message-passing graph (training), the batch's label edges are removed from message passing:
    the model never sees the edge it is asked to predict.
    """

    def __init__(
        self,
        dataset: GraphDataset | PartitionedDataset,
        sampler: HopSampler,
        labels: GraphStore | PartitionedGraph,
        batch_size: int,
        max_positives_per_anchor: int,
        remove_labels_from_message_passing: bool,
        device: torch.device,
        negatives: SeedBatches | None = None,
        shard: tuple[int, int] = (0, 1),
        shuffle: bool = True,
        infinite: bool = False,
        seed: int = 0,
    ):
        self.dataset = dataset
        self.sampler = sampler
        self.device = device
        self.negatives = negatives
        self.remove_labels = remove_labels_from_message_passing
        anchors = labels.nodes_with_edges().cpu()  # seed order is drawn on the CPU
        rank, world_size = shard
        self.anchors = anchors[rank::world_size]
        self.seed_batches = SeedBatches(self.anchors, batch_size, shuffle, infinite, seed)
        # Positives are "neighbours" in the label graph: the uniform sampler draws them without replacement.
        self.positive_sampler = uniform_sampler(labels, [max_positives_per_anchor], seed + 7919, sampler.device)

    def __len__(self) -> int:
        return len(self.seed_batches)

    def __iter__(self) -> Iterator[Data]:
        negatives = iter(self.negatives) if self.negatives is not None else None
        for anchors in self.seed_batches:
            yield self.batch(anchors, next(negatives) if negatives is not None else None)

    def batch(self, anchors: torch.Tensor, negatives: torch.Tensor | None = None) -> Data:
        device = self.sampler.device
        anchors = anchors.to(device)
        negatives = torch.empty(0, dtype=torch.int64, device=device) if negatives is None else negatives.to(device)
        positives, anchor_row, _ = self.positive_sampler.sample_hop(anchors, 0)
        label_edges = torch.stack([anchors[anchor_row], positives])
        subgraph = self.sampler.sample(
            torch.cat([anchors, positives, negatives]),
            exclude_edges=label_edges if self.remove_labels else None,
        )
        data = to_data(self.dataset, subgraph, self.device)
        data.batch_size = anchors.numel()
        seed_local = subgraph.seed_local.to(self.device)
        labelled = anchors.numel() + positives.numel()
        data.y_positive = torch.stack([anchor_row.to(self.device), seed_local[anchors.numel() : labelled]])
        data.random_negative = seed_local[labelled:]
        return data
