"""A dataset whose graph is partitioned: this process's part, and the splits of the nodes it owns."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.partition.owner_exchange import OwnerExchange
from trainyard_runtime.partition.partitioned_graph import PartitionedGraph


@dataclass
class PartitionedDataset:
    """Like :class:`GraphDataset` for the tasks and loaders, but features and labels of a batch's nodes are
    fetched from their owners (a collective), and each split holds only this part's share: its own nodes
    (node classification), or the held-out edges whose anchor it owns (link prediction). So each process
    trains on the seeds it owns; their first hop is local."""

    graph: PartitionedGraph
    splits: dict[str, torch.Tensor]
    num_classes: int
    samples_with_collectives = True

    def __post_init__(self):
        self.exchange = OwnerExchange(self.graph)

    @classmethod
    def from_dataset(cls, dataset: GraphDataset, owner: torch.Tensor, rank: int, num_parts: int) -> PartitionedDataset:
        graph = PartitionedGraph.from_store(dataset.store, dataset.labels, owner, rank, num_parts)
        splits = {}
        for name, split in dataset.splits.items():
            anchors = split if split.dim() == 1 else split[0]
            splits[name] = split[..., graph.owns(anchors)].clone()
        return cls(graph, splits, dataset.num_classes)

    @classmethod
    def for_requester(
        cls, dataset: GraphDataset, owner: torch.Tensor, rank: int, num_parts: int, share: tuple[int, int]
    ) -> PartitionedDataset:
        """The view of a process that owns no part (``owner`` never names ``rank``) and only requests: a
        graph-store compute process. It keeps the routing tables, and trains on ``share`` = (index, count) of
        the requesters' seeds: every count-th anchor and split entry."""
        index, count = share
        graph = PartitionedGraph.from_store(dataset.store, dataset.labels, owner, rank, num_parts)
        graph.anchors = dataset.store.nodes_with_edges()[index::count].clone()
        splits = {name: split[..., index::count].clone() for name, split in dataset.splits.items()}
        return cls(graph, splits, dataset.num_classes)

    @property
    def store(self) -> PartitionedGraph:
        """What the tasks read of a store (node count, feature width) and sample from."""
        return self.graph

    def shard_of(self, rank: int, world_size: int) -> tuple[int, int]:
        """The splits are this process's already: no further sharding."""
        return 0, 1

    def gather(self, node: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Features and labels of ``node`` (global ids) from their owners, in the order of ``node``."""
        fetched = self.exchange.fetch_rows(node.cpu())
        return fetched[0], fetched[1] if len(fetched) > 1 else None
