"""``NeighborLoader``-style batches: seed nodes plus their sampled neighbourhood, features and labels."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch_geometric.data import Data

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.loader.seed_batches import SeedBatches
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.subgraph import SampledSubgraph


def to_device(tensor: torch.Tensor, device: torch.device) -> torch.Tensor:
    """Host-to-GPU copies go through pinned memory and do not block the host (the caching host allocator keeps
    the pinned buffer until the copy is done); anything else is a plain ``.to``."""
    if tensor.device.type == "cpu" and device.type == "cuda":
        return tensor.pin_memory().to(device, non_blocking=True)
    return tensor.to(device)


def to_data(dataset: GraphDataset | PartitionedDataset, subgraph: SampledSubgraph, device: torch.device) -> Data:
    """Gathers features (and labels) for a sampled subgraph; ``x`` is float32 whatever the store keeps."""
    node = subgraph.node
    features, labels = dataset.gather(node)
    data = Data(
        x=to_device(features, device).float(),
        edge_index=to_device(subgraph.edge_index, device),
        edge_weight=to_device(subgraph.edge_weight, device),
        node=to_device(node, device),
        batch_size=subgraph.batch_size,
        num_sampled_nodes=subgraph.num_sampled_nodes,
        num_sampled_edges=subgraph.num_sampled_edges,
    )
    if labels is not None:
        data.y = to_device(labels, device)
    return data


class NodeBatchLoader:
    """Iterates ``input_nodes`` in batches of ``batch_size`` seeds; each batch is a PyG ``Data`` whose first
    ``batch_size`` nodes are the seeds. With ``infinite`` it reshuffles and goes on (GiGL's InfiniteIterator)."""

    def __init__(
        self,
        dataset: GraphDataset | PartitionedDataset,
        sampler: HopSampler,
        input_nodes: torch.Tensor,
        batch_size: int,
        device: torch.device,
        shuffle: bool = True,
        infinite: bool = False,
        seed: int = 0,
    ):
        self.dataset = dataset
        self.sampler = sampler
        self.device = device
        self.seed_batches = SeedBatches(input_nodes, batch_size, shuffle, infinite, seed)

    def __len__(self) -> int:
        return len(self.seed_batches)

    def __iter__(self) -> Iterator[Data]:
        for seeds in self.seed_batches:
            yield self.batch(seeds)

    def batch(self, seeds: torch.Tensor) -> Data:
        return to_data(self.dataset, self.sampler.sample(seeds), self.device)
