"""Node classification on sampled neighbourhoods: cross-entropy loss, accuracy."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch import nn
from torch_geometric.data import Data

from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.embeddings import build_node_embeddings
from trainyard_runtime.loader import NodeBatchLoader
from trainyard_runtime.loader.lockstep import in_lockstep
from trainyard_runtime.metrics import Accuracy
from trainyard_runtime.metrics.evaluation import evaluate_batches
from trainyard_runtime.models import GraphSAGE, NodeClassifier
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.sampler.factory import build_sampler


class NodeClassificationTask:
    name = "node_classification"

    def __init__(self, dataset: GraphDataset | PartitionedDataset, args: TrainerArgs, context: ProcessContext):
        if dataset.num_classes < 2:
            raise ConfigError("node classification needs at least two classes in the node labels")
        if dataset.num_classes > args.num_classes:
            raise ConfigError(
                f"the node labels hold {dataset.num_classes} classes but trainer argument "
                f"num_classes is {args.num_classes}"
            )
        self.dataset = dataset
        self.args = args
        self.context = context
        self.samples_with_collectives = dataset.samples_with_collectives
        store = dataset.store
        self.node_embeddings = build_node_embeddings(args, store.num_nodes, store.features.size(1), context.device)
        in_dim = store.features.size(1) + args.node_embedding_dim
        encoder = GraphSAGE(in_dim, args.hid_dim, args.out_dim, len(args.num_neighbors), args.dropout)
        self.model = NodeClassifier(encoder, args.out_dim, args.num_classes).to(context.device)
        seed = args.seed * 1000 + context.rank
        self.train_loader = self._loader("train", seed, shuffle=True, infinite=True)

    def _loader(self, split: str, seed: int, shuffle: bool, infinite: bool) -> NodeBatchLoader:
        share, shares = self.dataset.shard_of(self.context.rank, self.context.world_size)
        nodes = self.dataset.splits[f"{split}_nodes"][share::shares]
        sampler = build_sampler(self.args, self.dataset.store, seed)
        return NodeBatchLoader(
            self.dataset, sampler, nodes, self.args.main_batch_size, self.context.device, shuffle, infinite, seed
        )

    def _inputs(self, batch: Data) -> Data:
        return batch if self.node_embeddings is None else self.node_embeddings.attach(batch)

    @property
    def seeds_per_epoch(self) -> int:
        return max(self.train_loader.seed_batches.seeds.numel(), 1)

    def training_batches(self) -> Iterator[Data]:
        return iter(self.train_loader)

    def loss(self, model: nn.Module, batch: Data) -> tuple[torch.Tensor, int]:
        logits = model(self._inputs(batch))
        return nn.functional.cross_entropy(logits, batch.y[: batch.batch_size]), batch.num_edges

    @torch.no_grad()
    def evaluate(self, model: nn.Module, split: str, max_batches: int | None) -> dict[str, float]:
        loader = self._loader(split, 10_000 + self.context.rank, shuffle=max_batches is not None, infinite=False)
        accuracy = Accuracy()

        def step(batch: Data) -> float:
            logits, labels = model(self._inputs(batch)), batch.y[: batch.batch_size]
            accuracy.update(logits, labels)
            return nn.functional.cross_entropy(logits, labels).item()

        batches = in_lockstep(loader, max_batches, self.context) if self.samples_with_collectives else loader
        return evaluate_batches(model, batches, max_batches, accuracy, step, self.context.all_reduce_sum)
