"""Node classification of one node type of a heterogeneous graph."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch import nn

from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.hetero_dataset import HeteroGraphDataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.loader.hetero_loaders import HeteroBatch, HeteroNodeLoader
from trainyard_runtime.metrics import Accuracy
from trainyard_runtime.metrics.evaluation import evaluate_batches
from trainyard_runtime.models import NodeClassifier
from trainyard_runtime.models.hetero_graphsage import HeteroGraphSAGE
from trainyard_runtime.sampler.hetero import HeteroNeighborSampler


class HeteroNodeClassificationTask:
    name = "node_classification"
    samples_with_collectives = False

    def __init__(self, dataset: HeteroGraphDataset, args: TrainerArgs, context: ProcessContext, node_type: str):
        num_classes = dataset.num_classes(node_type)
        if num_classes < 2:
            raise ConfigError(f"node classification needs at least two classes in the {node_type} labels")
        if num_classes > args.num_classes:
            raise ConfigError(
                f"the {node_type} labels hold {num_classes} classes but trainer argument "
                f"num_classes is {args.num_classes}"
            )
        self.dataset = dataset
        self.args = args
        self.context = context
        self.fanout = args.fanout_for(dataset.edge_types)
        feature_dims = {kind: dataset.features[kind].size(1) for kind in dataset.node_types}
        encoder = HeteroGraphSAGE(
            feature_dims, dataset.edge_types, args.hid_dim, args.out_dim, len(args.num_neighbors), args.dropout
        )
        self.model = NodeClassifier(encoder, args.out_dim, args.num_classes).to(context.device)
        self.node_embeddings = None  # learnable node embeddings: homogeneous graphs only (train.py refuses them here)
        self.train_loader = self._loader("train", args.seed * 1000 + context.rank, shuffle=True, infinite=True)

    def _loader(self, split: str, seed: int, shuffle: bool, infinite: bool) -> HeteroNodeLoader:
        seeds = self.dataset.splits[f"{split}_nodes"][self.context.rank :: self.context.world_size]
        sampler = HeteroNeighborSampler(self.dataset.stores, self.fanout, seed)
        return HeteroNodeLoader(
            self.dataset, sampler, seeds, self.args.main_batch_size, self.context.device, shuffle, infinite, seed
        )

    @property
    def seeds_per_epoch(self) -> int:
        return max(self.train_loader.seed_batches.seeds.numel(), 1)

    def training_batches(self) -> Iterator[HeteroBatch]:
        return iter(self.train_loader)

    def loss(self, model: nn.Module, batch: HeteroBatch) -> tuple[torch.Tensor, int]:
        return nn.functional.cross_entropy(model(batch), batch.labels[: batch.batch_size]), batch.num_edges

    @torch.no_grad()
    def evaluate(self, model: nn.Module, split: str, max_batches: int | None) -> dict[str, float]:
        loader = self._loader(split, 10_000 + self.context.rank, shuffle=max_batches is not None, infinite=False)
        accuracy = Accuracy()

        def step(batch: HeteroBatch) -> float:
            logits, labels = model(batch), batch.labels[: batch.batch_size]
            accuracy.update(logits, labels)
            return nn.functional.cross_entropy(logits, labels).item()

        return evaluate_batches(model, loader, max_batches, accuracy, step, self.context.all_reduce_sum)
