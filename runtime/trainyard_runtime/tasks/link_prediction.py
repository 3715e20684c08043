"""Anchor-based link prediction (GiGL's ABLP): retrieval loss in training, MRR / hits@k in evaluation."""

from __future__ import annotations

from collections.abc import Iterator

import torch
from torch import nn
from torch_geometric.data import Data

from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.embeddings import build_node_embeddings
from trainyard_runtime.loader import AnchorLinkLoader
from trainyard_runtime.loader.anchor_link_loader import label_graph, random_nodes, sample_edges
from trainyard_runtime.loader.lockstep import in_lockstep
from trainyard_runtime.metrics import RankingMetrics
from trainyard_runtime.metrics.evaluation import evaluate_batches
from trainyard_runtime.models import GraphSAGE, LinkPredictionModel, RetrievalLoss
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.sampler.factory import build_sampler


class LinkPredictionTask:
    name = "link_prediction"

    def __init__(self, dataset: GraphDataset | PartitionedDataset, args: TrainerArgs, context: ProcessContext):
        self.dataset = dataset
        self.args = args
        self.context = context
        store = dataset.store
        self.node_embeddings = build_node_embeddings(args, store.num_nodes, store.features.size(1), context.device)
        in_dim = store.features.size(1) + args.node_embedding_dim
        encoder = GraphSAGE(in_dim, args.hid_dim, args.out_dim, len(args.num_neighbors), args.dropout)
        self.model = LinkPredictionModel(encoder, args.should_l2_normalize_embedding_layer_output).to(context.device)
        self.loss_fn = RetrievalLoss(args.softmax_temp, args.should_remove_accidental_hits)
        self.samples_with_collectives = dataset.samples_with_collectives
        self.shard = dataset.shard_of(context.rank, context.world_size)
        seed = args.seed * 1000 + context.rank
        # Training labels are message-passing edges, so each batch removes its own from message passing.
        labels = (
            store
            if args.ssl_positive_label_percentage is None
            else label_graph(sample_edges(store, args.ssl_positive_label_percentage, args.seed), store.num_nodes)
        )
        self.train_loader = AnchorLinkLoader(
            dataset,
            build_sampler(args, store, seed),
            labels,
            args.main_batch_size,
            args.max_positives_per_anchor,
            remove_labels_from_message_passing=True,
            device=context.device,
            negatives=random_nodes(store.num_nodes, args.random_batch_size, seed + 1),
            shard=self.shard,
            shuffle=True,
            infinite=True,
            seed=seed,
        )

    def _inputs(self, batch: Data) -> Data:
        return batch if self.node_embeddings is None else self.node_embeddings.attach(batch)

    @property
    def seeds_per_epoch(self) -> int:
        return max(self.train_loader.anchors.numel(), 1)

    def training_batches(self) -> Iterator[Data]:
        return iter(self.train_loader)

    def _scores(self, model: nn.Module, batch: Data) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Scores of each positive pair's anchor against [its batch's positives, random negatives], with the
        candidates' and queries' global ids."""
        embeddings = model(self._inputs(batch))
        query_local, positive_local = batch.y_positive
        candidates = torch.cat([embeddings[positive_local], embeddings[batch.random_negative]])
        scores = LinkPredictionModel.decode(embeddings[query_local], candidates)
        candidate_ids = torch.cat([batch.node[positive_local], batch.node[batch.random_negative]])
        return scores, candidate_ids, batch.node[query_local]

    def loss(self, model: nn.Module, batch: Data) -> tuple[torch.Tensor, int]:
        scores, candidate_ids, query_ids = self._scores(model, batch)
        return self.loss_fn(scores, candidate_ids, query_ids), batch.num_edges

    @torch.no_grad()
    def evaluate(self, model: nn.Module, split: str, max_batches: int | None) -> dict[str, float]:
        """Ranks every held-out edge of ``split`` against ``num_eval_negatives`` random nodes (see README)."""
        args, store = self.args, self.dataset.store
        edges = self.dataset.splits[f"{split}_edges"]
        seed = 10_000 + self.context.rank  # the same validation subset every time, so curves are comparable
        loader = AnchorLinkLoader(
            self.dataset,
            build_sampler(args, store, seed),
            label_graph(edges, store.num_nodes),
            args.main_batch_size,
            max_positives_per_anchor=-1,
            remove_labels_from_message_passing=False,
            device=self.context.device,
            negatives=random_nodes(store.num_nodes, args.num_eval_negatives, seed + 1),
            shard=self.shard,
            shuffle=max_batches is not None,
            infinite=False,
            seed=seed,
        )
        ranking = RankingMetrics()

        def step(batch: Data) -> float:
            scores, candidate_ids, query_ids = self._scores(model, batch)
            ranking.update_with_candidates(scores, candidate_ids, query_ids, store.num_nodes)
            return self.loss_fn(scores, candidate_ids, query_ids).item()

        batches = in_lockstep(loader, max_batches, self.context) if self.samples_with_collectives else loader
        metrics = evaluate_batches(model, batches, max_batches, ranking, step, self.context.all_reduce_sum)
        metrics["num_negatives_per_query"] = min(args.num_eval_negatives, store.num_nodes)
        return metrics
