"""Batches on a heterogeneous graph: typed subgraphs for anchor link prediction and node classification."""

from __future__ import annotations

from collections.abc import Iterator

import torch

from trainyard_runtime.data.hetero_dataset import HeteroGraphDataset
from trainyard_runtime.loader.anchor_link_loader import label_graph
from trainyard_runtime.loader.seed_batches import SeedBatches
from trainyard_runtime.sampler.hetero import HeteroNeighborSampler, HeteroSubgraph
from trainyard_runtime.sampler.neighbor import NeighborSampler


class HeteroBatch:
    """A sampled typed subgraph with the features gathered per node type (float32, on the training device)."""

    def __init__(self, dataset: HeteroGraphDataset, subgraph: HeteroSubgraph, device: torch.device):
        node = subgraph.node
        self.node = node.to(device)
        self.node_type = dataset.node_type_of(node).to(device)
        self.edge_index = subgraph.edge_index.to(device)
        self.edge_type = subgraph.edge_type.to(device)
        self.batch_size = subgraph.batch_size
        self.num_edges = subgraph.num_edges
        self.seed_local = subgraph.seed_local.to(device)
        self.num_sampled_nodes = subgraph.num_sampled_nodes
        self.features: dict[int, torch.Tensor] = {}
        self.labels = torch.full((node.numel(),), -1, dtype=torch.int64, device=device)
        for index, kind in enumerate(dataset.node_types):
            start, _ = dataset.type_range(kind)
            mask = self.node_type == index
            ids = (self.node[mask] - start).to(dataset.features[kind].device)
            self.features[index] = dataset.features[kind][ids].to(device, torch.float32)
            if kind in dataset.labels:
                self.labels[mask] = dataset.labels[kind][ids].to(device)


class HeteroNodeLoader:
    """Batches of seed nodes (global ids of one node type) with their typed neighbourhoods."""

    def __init__(
        self,
        dataset: HeteroGraphDataset,
        sampler: HeteroNeighborSampler,
        seeds: torch.Tensor,
        batch_size: int,
        device: torch.device,
        shuffle: bool,
        infinite: bool,
        seed: int,
    ):
        self.dataset = dataset
        self.sampler = sampler
        self.device = device
        self.seed_batches = SeedBatches(seeds, batch_size, shuffle, infinite, seed)

    def __iter__(self) -> Iterator[HeteroBatch]:
        for seeds in self.seed_batches:
            yield HeteroBatch(self.dataset, self.sampler.sample(seeds), self.device)


class HeteroAnchorLinkLoader:
    """GiGL's ``DistABLPLoader`` on a supervision edge type ``(query type, relation, labelled type)``.

    Each batch holds anchors (query-type nodes), up to ``max_per_anchor`` of their positives and hard
    negatives (labelled-type nodes, drawn without replacement) and the next batch of random negatives, all
    sampled as one subgraph. ``y_positive`` / ``y_negative`` are ``[2, E]`` local (anchor, node) indices,
    ``random_negative`` the random negatives' local indices. With ``remove_labels_from_message_passing`` the
    batch's positive edges are excluded from message passing in either direction.
    """

    def __init__(
        self,
        dataset: HeteroGraphDataset,
        sampler: HeteroNeighborSampler,
        positives: torch.Tensor,
        hard_negatives: torch.Tensor | None,
        random_negatives: SeedBatches | None,
        batch_size: int,
        max_per_anchor: int,
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
        self.random_negatives = random_negatives
        self.remove_labels = remove_labels_from_message_passing
        labels = label_graph(positives, dataset.num_nodes)
        anchors = torch.nonzero(labels.indptr.diff() > 0).flatten()
        rank, world_size = shard
        self.anchors = anchors[rank::world_size]
        self.seed_batches = SeedBatches(self.anchors, batch_size, shuffle, infinite, seed)
        self.positive_sampler = NeighborSampler(labels.to(sampler.device), [max_per_anchor], seed + 7919)
        self.negative_sampler = None
        if hard_negatives is not None and hard_negatives.numel():
            negatives = label_graph(hard_negatives, dataset.num_nodes).to(sampler.device)
            self.negative_sampler = NeighborSampler(negatives, [max_per_anchor], seed + 7927)

    def __iter__(self) -> Iterator[HeteroBatch]:
        randoms = iter(self.random_negatives) if self.random_negatives is not None else None
        for anchors in self.seed_batches:
            yield self.batch(anchors, next(randoms) if randoms is not None else None)

    def batch(self, anchors: torch.Tensor, random_negatives: torch.Tensor | None) -> HeteroBatch:
        device = self.sampler.device
        anchors = anchors.to(device)
        empty = torch.empty(0, dtype=torch.int64, device=device)
        randoms = empty if random_negatives is None else random_negatives.to(device)
        positives, positive_row, _ = self.positive_sampler.sample_hop(anchors, 0)
        hard, hard_row = empty, empty
        if self.negative_sampler is not None:
            hard, hard_row, _ = self.negative_sampler.sample_hop(anchors, 0)
        label_edges = torch.stack([anchors[positive_row], positives])
        subgraph = self.sampler.sample(
            torch.cat([anchors, positives, hard, randoms]), exclude_edges=label_edges if self.remove_labels else None
        )
        batch = HeteroBatch(self.dataset, subgraph, self.device)
        local = batch.seed_local
        first_positive, first_hard = anchors.numel(), anchors.numel() + positives.numel()
        first_random = first_hard + hard.numel()
        batch.y_positive = torch.stack([positive_row.to(self.device), local[first_positive:first_hard]])
        batch.y_negative = torch.stack([hard_row.to(self.device), local[first_hard:first_random]])
        batch.random_negative = local[first_random:]
        return batch
