"""Anchor-based link prediction (GiGL's ABLP): retrieval loss in training, MRR / hits@k in evaluation."""

from __future__ import annotations

from typing import Iterator, Optional

import torch
from torch import nn
from torch_geometric.data import Data

from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.loader import AnchorLinkLoader, NodeBatchLoader
from trainyard_runtime.loader.anchor_link_loader import label_graph
from trainyard_runtime.metrics import RankingMetrics
from trainyard_runtime.models import GraphSAGE, LinkPredictionModel, RetrievalLoss
from trainyard_runtime.sampler.factory import build_sampler


def _joint_forward(model: nn.Module, main: Data, negatives: Data) -> tuple[torch.Tensor, torch.Tensor]:
    """One forward pass over both subgraphs side by side (disjoint union): one DDP forward per step, and one
    large matrix product instead of two small ones. Returns (main embeddings, negative seed embeddings)."""
    joint = Data(
        x=torch.cat([main.x, negatives.x]),
        edge_index=torch.cat([main.edge_index, negatives.edge_index + main.num_nodes], dim=1),
        edge_weight=torch.cat([main.edge_weight, negatives.edge_weight]),
    )
    embeddings = model(joint)
    return embeddings[: main.num_nodes], embeddings[main.num_nodes : main.num_nodes + negatives.batch_size]


class LinkPredictionTask:
    name = "link_prediction"

    def __init__(self, dataset: GraphDataset, args: TrainerArgs, context: ProcessContext):
        self.dataset = dataset
        self.args = args
        self.context = context
        store = dataset.store
        encoder = GraphSAGE(store.features.size(1), args.hid_dim, args.out_dim, len(args.num_neighbors), args.dropout)
        self.model = LinkPredictionModel(encoder, args.should_l2_normalize_embedding_layer_output).to(context.device)
        self.loss_fn = RetrievalLoss(args.softmax_temp, args.should_remove_accidental_hits)
        self.shard = (context.rank, context.world_size)
        seed = args.seed * 1000 + context.rank
        # Training labels are message-passing edges, so each batch removes its own from message passing.
        self.train_loader = AnchorLinkLoader(
            dataset, build_sampler(args, store, seed), store, args.main_batch_size, args.max_positives_per_anchor,
            remove_labels_from_message_passing=True, device=context.device, shard=self.shard, shuffle=True,
            infinite=True, seed=seed,
        )
        self.negative_loader = self._random_nodes(args.random_batch_size, seed + 1)

    @property
    def seeds_per_epoch(self) -> int:
        return max(self.train_loader.anchors.numel(), 1)

    def _random_nodes(self, batch_size: int, seed: int) -> NodeBatchLoader:
        """GiGL's random negative loader: all nodes, shuffled, forever."""
        store = self.dataset.store
        nodes = torch.arange(store.num_nodes)
        return NodeBatchLoader(
            self.dataset, build_sampler(self.args, store, seed), nodes, min(batch_size, store.num_nodes),
            self.context.device, shuffle=True, infinite=True, seed=seed,
        )

    def training_batches(self) -> Iterator[tuple[Data, Data]]:
        return zip(self.train_loader, self.negative_loader)

    def loss(self, model: nn.Module, batch: tuple[Data, Data]) -> tuple[torch.Tensor, int]:
        main, negatives = batch
        main_embeddings, negative_embeddings = _joint_forward(model, main, negatives)
        query_local, positive_local = main.y_positive
        candidates = torch.cat([main_embeddings[positive_local], negative_embeddings])
        scores = LinkPredictionModel.decode(main_embeddings[query_local], candidates)
        candidate_ids = torch.cat([main.node[positive_local], negatives.node[: negatives.batch_size]])
        loss = self.loss_fn(scores, candidate_ids, main.node[query_local])
        return loss, main.num_edges + negatives.num_edges

    @torch.no_grad()
    def evaluate(self, model: nn.Module, split: str, max_batches: Optional[int]) -> dict[str, float]:
        """Ranks every held-out edge of ``split`` against ``num_eval_negatives`` random nodes (see README)."""
        args, store = self.args, self.dataset.store
        edges = self.dataset.splits[f"{split}_edges"]
        seed = 10_000 + self.context.rank  # the same validation subset every time, so curves are comparable
        loader = AnchorLinkLoader(
            self.dataset, build_sampler(args, store, seed), label_graph(edges, store.num_nodes), args.main_batch_size,
            max_positives_per_anchor=-1, remove_labels_from_message_passing=False, device=self.context.device,
            shard=self.shard, shuffle=max_batches is not None, infinite=False, seed=seed,
        )
        negatives = iter(self._random_nodes(args.num_eval_negatives, seed + 1))
        ranking, loss_sum, batches = RankingMetrics(), 0.0, 0
        was_training = model.training
        model.eval()
        for main in loader:
            if max_batches is not None and batches >= max_batches:
                break
            negative = next(negatives)
            main_embeddings, negative_embeddings = _joint_forward(model, main, negative)
            query_local, positive_local = main.y_positive
            query = main_embeddings[query_local]
            query_ids, positive_ids = main.node[query_local], main.node[positive_local]
            negative_ids = negative.node[: negative.batch_size]
            # A sampled negative that is the anchor itself or one of its held-out positives is no negative.
            pair_keys = query_ids.unsqueeze(1) * store.num_nodes + negative_ids.unsqueeze(0)
            valid = (negative_ids.unsqueeze(0) != query_ids.unsqueeze(1)) & ~torch.isin(
                pair_keys, query_ids * store.num_nodes + positive_ids
            )
            ranking.update((query * main_embeddings[positive_local]).sum(-1), query @ negative_embeddings.T, valid)
            scores = query @ torch.cat([main_embeddings[positive_local], negative_embeddings]).T
            loss_sum += self.loss_fn(scores, torch.cat([positive_ids, negative_ids]), query_ids).item()
            batches += 1
        model.train(was_training)
        metrics = ranking.compute(self.context.all_reduce_sum)
        totals = self.context.all_reduce_sum(torch.tensor([loss_sum, batches], dtype=torch.float64))
        metrics["loss"] = totals[0].item() / max(totals[1].item(), 1.0)
        metrics["num_negatives_per_query"] = min(args.num_eval_negatives, store.num_nodes)
        return metrics
