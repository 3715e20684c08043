"""Anchor-based link prediction on one supervision edge type of a heterogeneous graph."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch import nn

from trainyard_runtime.config.graph_metadata import EdgeType
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.hetero_dataset import HeteroGraphDataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.loader.hetero_loaders import HeteroAnchorLinkLoader, HeteroBatch
from trainyard_runtime.loader.seed_batches import SeedBatches
from trainyard_runtime.metrics import RankingMetrics
from trainyard_runtime.metrics.evaluation import evaluate_batches
from trainyard_runtime.models import LinkPredictionModel, RetrievalLoss
from trainyard_runtime.models.hetero_graphsage import HeteroGraphSAGE
from trainyard_runtime.sampler.hetero import HeteroNeighborSampler


class HeteroLinkPredictionTask:
    """Queries are the supervision edge type's source nodes, candidates its destination nodes: each positive
    pair is scored against the batch's positives, the anchors' hard negatives (``y_negative``, where the data
    has them) and random destination-type nodes, with GiGL's retrieval loss."""

    name = "link_prediction"
    samples_with_collectives = False

    def __init__(self, dataset: HeteroGraphDataset, args: TrainerArgs, context: ProcessContext, supervision: EdgeType):
        self.dataset = dataset
        self.args = args
        self.context = context
        self.supervision = supervision
        self.fanout = args.fanout_for(dataset.edge_types)
        feature_dims = {kind: dataset.features[kind].size(1) for kind in dataset.node_types}
        encoder = HeteroGraphSAGE(
            feature_dims, dataset.edge_types, args.hid_dim, args.out_dim, len(args.num_neighbors), args.dropout
        )
        self.model = LinkPredictionModel(encoder, args.should_l2_normalize_embedding_layer_output).to(context.device)
        self.node_embeddings = None  # learnable node embeddings: homogeneous graphs only (train.py refuses them here)
        self.loss_fn = RetrievalLoss(args.softmax_temp, args.should_remove_accidental_hits)
        self.shard = (context.rank, context.world_size)
        seed = args.seed * 1000 + context.rank
        positives = dataset.splits["train_edges"]
        if args.ssl_positive_label_percentage is not None:
            generator = torch.Generator().manual_seed(args.seed)
            count = max(1, round(args.ssl_positive_label_percentage * positives.size(1)))
            positives = positives[:, torch.randperm(positives.size(1), generator=generator)[:count].sort().values]
        self.train_loader = HeteroAnchorLinkLoader(
            dataset,
            HeteroNeighborSampler(dataset.stores, self.fanout, seed),
            positives,
            dataset.splits.get("hard_negatives"),
            self._random_candidates(args.random_batch_size, seed + 1),
            args.main_batch_size,
            args.max_positives_per_anchor,
            remove_labels_from_message_passing=True,
            device=context.device,
            shard=self.shard,
            shuffle=True,
            infinite=True,
            seed=seed,
        )

    def _random_candidates(self, batch_size: int, seed: int) -> SeedBatches:
        """GiGL's random negative loader over the destination type's nodes, reshuffled every pass."""
        start, end = self.dataset.type_range(self.supervision.dst)
        return SeedBatches(torch.arange(start, end), min(batch_size, end - start), True, True, seed, drop_last=True)

    @property
    def seeds_per_epoch(self) -> int:
        return max(self.train_loader.anchors.numel(), 1)

    def training_batches(self) -> Iterator[HeteroBatch]:
        return iter(self.train_loader)

    def _scores(self, model: nn.Module, batch: HeteroBatch) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        embeddings = model(batch)
        query_local, positive_local = batch.y_positive
        candidates_local = torch.cat([positive_local, batch.y_negative[1], batch.random_negative])
        scores = LinkPredictionModel.decode(embeddings[query_local], embeddings[candidates_local])
        return scores, batch.node[candidates_local], batch.node[query_local]

    def loss(self, model: nn.Module, batch: HeteroBatch) -> tuple[torch.Tensor, int]:
        scores, candidate_ids, query_ids = self._scores(model, batch)
        return self.loss_fn(scores, candidate_ids, query_ids), batch.num_edges

    @torch.no_grad()
    def evaluate(self, model: nn.Module, split: str, max_batches: int | None) -> dict[str, float]:
        """Ranks every held-out supervision edge of ``split`` against ``num_eval_negatives`` random
        destination-type nodes, as the homogeneous task does (no hard negatives in evaluation)."""
        args = self.args
        seed = 10_000 + self.context.rank
        loader = HeteroAnchorLinkLoader(
            self.dataset,
            HeteroNeighborSampler(self.dataset.stores, self.fanout, seed),
            self.dataset.splits[f"{split}_edges"],
            None,
            self._random_candidates(args.num_eval_negatives, seed + 1),
            args.main_batch_size,
            -1,
            remove_labels_from_message_passing=False,
            device=self.context.device,
            shard=self.shard,
            shuffle=max_batches is not None,
            infinite=False,
            seed=seed,
        )
        ranking = RankingMetrics()

        def step(batch: HeteroBatch) -> float:
            scores, candidate_ids, query_ids = self._scores(model, batch)
            ranking.update_with_candidates(scores, candidate_ids, query_ids, self.dataset.num_nodes)
            return self.loss_fn(scores, candidate_ids, query_ids).item()

        metrics = evaluate_batches(model, loader, max_batches, ranking, step, self.context.all_reduce_sum)
        start, end = self.dataset.type_range(self.supervision.dst)
        metrics["num_negatives_per_query"] = min(args.num_eval_negatives, end - start)
        return metrics
