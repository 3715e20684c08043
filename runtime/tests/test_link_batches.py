"""Anchor-based link-prediction batches, the retrieval loss and the ranking metrics."""

import pytest
import torch

from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import build_dataset
from trainyard_runtime.distributed import ProcessContext
from trainyard_runtime.loader import AnchorLinkLoader
from trainyard_runtime.metrics import RankingMetrics
from trainyard_runtime.models import RetrievalLoss
from trainyard_runtime.outputs.progress import ProgressReporter
from trainyard_runtime.outputs.tensorboard import ScalarLog
from trainyard_runtime.sampler.factory import build_sampler
from trainyard_runtime.tasks import LinkPredictionTask
from trainyard_runtime.training_loop import TrainingLoop


def make_dataset(tmp_path):
    args = {"source": "planted_partition", "num_nodes": "600", "num_communities": "6", "avg_degree": "12"}
    return build_dataset(args, SplitFractions(), "link_prediction", tmp_path, with_edge_weights=True)


def test_label_edges_never_appear_in_message_passing(tmp_path):
    dataset = make_dataset(tmp_path)
    store = dataset.store
    for sampler in ("neighbor", "weighted", "layerwise", "random_walk"):
        args = TrainerArgs.parse({"sampler": sampler, "num_neighbors": "[10, 10]", "main_batch_size": "64"})
        loader = AnchorLinkLoader(dataset, build_sampler(args, store, 0), store, 64, 4, True, torch.device("cpu"))
        batch = next(iter(loader))
        anchors, positives = batch.node[batch.y_positive[0]], batch.node[batch.y_positive[1]]
        assert torch.equal(batch.node[: batch.batch_size].unique(), batch.node[: batch.batch_size].sort().values)
        assert batch.y_positive.size(1) > batch.batch_size  # several positives per anchor
        # Every positive is a real edge of the anchor in the graph...
        for anchor, positive in zip(anchors.tolist(), positives.tolist(), strict=True):
            assert positive in set(store.neighbours(anchor).tolist())
        # ...and neither direction of it reaches message passing.
        n = store.num_nodes
        labels = set((anchors * n + positives).tolist()) | set((positives * n + anchors).tolist())
        source, target = batch.node[batch.edge_index[0]], batch.node[batch.edge_index[1]]
        assert batch.num_edges > 0
        assert not labels & set((source * n + target).tolist()), sampler


def test_validation_edges_are_held_out_of_the_graph(tmp_path):
    dataset = make_dataset(tmp_path)
    store = dataset.store
    for split in ("val_edges", "test_edges"):
        edges = dataset.splits[split]
        assert edges.size(1) > 100
        for anchor, positive in edges.T.tolist():
            assert positive not in set(store.neighbours(anchor).tolist())


def test_retrieval_loss_ignores_accidental_hits():
    scores = torch.tensor([[2.0, 0.5, 1.0], [0.3, 1.5, 0.2]])
    query_ids = torch.tensor([10, 11])
    # Candidate 2 is a random negative that happens to be row 0's positive (node 20).
    with_hit = RetrievalLoss(1.0, True)(scores, torch.tensor([20, 21, 20]), query_ids)
    row0 = torch.nn.functional.cross_entropy(scores[:1, :2], torch.tensor([0]))  # the hit is no negative for row 0
    row1 = torch.nn.functional.cross_entropy(scores[1:], torch.tensor([1]))  # but a real one for row 1
    assert torch.isclose(with_hit, (row0 + row1) / 2)
    kept = RetrievalLoss(1.0, False)(scores, torch.tensor([20, 21, 20]), query_ids)
    assert kept > with_hit


def test_ranking_metrics_count_ties_as_half():
    metrics = RankingMetrics(ks=(1, 2))
    positive = torch.tensor([5.0, 1.0, 3.0])
    negatives = torch.tensor([[1.0, 2.0, 9.0], [3.0, 2.0, 0.0], [3.0, 0.0, 0.0]])
    valid = torch.tensor([[True, True, False], [True, True, True], [True, True, True]])
    metrics.update(positive, negatives, valid)
    result = metrics.compute()
    # ranks: 1 (the 9.0 is masked), 3, 1.5 (one tie)
    assert abs(result["mrr"] - (1 + 1 / 3 + 1 / 1.5) / 3) < 1e-12
    assert result["hits@1"] == 1 / 3 and result["hits@2"] == 2 / 3 and result["num_queries"] == 3


@pytest.mark.parametrize("sampler", ["weighted", "layerwise", "random_walk"])
def test_every_sampler_trains_link_prediction(sampler):
    data_args = {
        "source": "planted_partition",
        "num_nodes": "1024",
        "num_communities": "64",
        "avg_degree": "12",
        "intra_fraction": "0.95",
        "feature_dim": "16",
        "feature_noise": "2.5",
        "seed": "2",
    }
    dataset = build_dataset(
        data_args, SplitFractions(), "link_prediction", None, with_edge_weights=sampler == "weighted"
    )
    args = TrainerArgs.parse(
        {
            "sampler": sampler,
            "num_neighbors": "[8, 8]",
            "main_batch_size": "64",
            "random_batch_size": "64",
            "hid_dim": "32",
            "out_dim": "32",
            "learning_rate": "0.01",
            "num_max_train_batches": "80",
            "val_every_n_batch": "1000",
            "log_every_n_batch": "1000",
        }
    )
    torch.manual_seed(0)
    task = LinkPredictionTask(dataset, args, ProcessContext(0, 1, 0, 1, torch.device("cpu")))
    before = task.evaluate(task.model, "val", None)["mrr"]
    TrainingLoop(task, args, task.context, ScalarLog(None), ProgressReporter(1, False)).run()
    after = task.evaluate(task.model, "val", None)["mrr"]
    assert after >= 0.4 and after > before + 0.1


def test_random_negatives_ride_along_in_the_same_subgraph(tmp_path):
    dataset = make_dataset(tmp_path)
    store = dataset.store
    args = TrainerArgs.parse({"num_neighbors": "[5, 5]"})
    loader = AnchorLinkLoader(dataset, build_sampler(args, store, 0), store, 32, 2, True, torch.device("cpu"))
    negatives = torch.tensor([5, 17, 42, 99, 300])
    batch = loader.batch(torch.arange(100, 132), negatives)
    assert torch.equal(batch.node[batch.random_negative], negatives)
    assert torch.equal(batch.node[: batch.batch_size], torch.arange(100, 132))
