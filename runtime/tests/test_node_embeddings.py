"""Learnable node embeddings: sparse updates touch only a batch's rows, replicas stay equal across processes,
and link prediction on a graph without any node features learns from them alone."""

from pathlib import Path

import torch
import torch.multiprocessing as mp
from jobs import Job, free_port, task_config

from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import build_dataset
from trainyard_runtime.distributed import join_loopback_world, leave_process_group, share_dataset
from trainyard_runtime.embeddings import NodeEmbeddings
from trainyard_runtime.outputs.progress import ProgressReporter
from trainyard_runtime.outputs.tensorboard import ScalarLog
from trainyard_runtime.tasks import LinkPredictionTask
from trainyard_runtime.training_loop import TrainingLoop

FEATURELESS = {
    "source": "planted_partition",
    "num_nodes": 1024,
    "num_communities": 32,
    "avg_degree": 12,
    "intra_fraction": 0.95,
    "feature_dim": 0,
    "seed": 5,
}


def test_a_step_reads_and_writes_only_the_rows_the_batch_touched():
    embeddings = NodeEmbeddings(100, 8, learning_rate=0.1, device=torch.device("cpu"), seed=3)
    before = embeddings.table.weight.detach().clone()
    touched = torch.tensor([4, 17, 17, 60])
    embeddings.zero_grad()
    embeddings(touched).pow(2).sum().backward()
    assert embeddings.table.weight.grad.is_sparse
    embeddings.step()
    changed = (embeddings.table.weight.detach() != before).any(dim=1).nonzero().flatten().tolist()
    assert changed == [4, 17, 60]


def _train(rank: int, port: int, folder: str) -> None:
    context = join_loopback_world(rank, 2, port)
    try:
        dataset = share_dataset(
            context,
            lambda: build_dataset(
                {k: str(v) for k, v in FEATURELESS.items()}, SplitFractions(), "link_prediction", None
            ),
            Path(folder) / "store",
        )
        args = TrainerArgs.parse(
            {
                "num_max_train_batches": "6",
                "main_batch_size": "32",
                "random_batch_size": "32",
                "num_val_batches": "2",
                "val_every_n_batch": "100",
                "log_every_n_batch": "100",
                "node_embedding_dim": "8",
            }
        )
        torch.manual_seed(0)
        task = LinkPredictionTask(dataset, args, context)
        initial = task.node_embeddings.table.weight.detach().clone()
        TrainingLoop(task, args, context, ScalarLog(None), ProgressReporter(1, False)).run()
        torch.save({"initial": initial, "final": task.node_embeddings.table.weight.detach()}, f"{folder}/rank{rank}.pt")
    finally:
        leave_process_group(context)


def test_two_processes_keep_identical_tables_after_sparse_updates(tmp_path):
    mp.spawn(_train, args=(free_port(), str(tmp_path)), nprocs=2, join=True)
    first, second = torch.load(tmp_path / "rank0.pt"), torch.load(tmp_path / "rank1.pt")
    assert torch.equal(first["initial"], second["initial"])
    assert torch.equal(first["final"], second["final"])
    moved = (first["final"] != first["initial"]).any(dim=1)
    assert 0 < int(moved.sum()) < moved.numel(), "only the rows the batches reached may move"


def test_link_prediction_on_a_featureless_graph_learns_with_two_processes(tmp_path):
    args = {
        "num_neighbors": "[8, 8]",
        "main_batch_size": 64,
        "random_batch_size": 64,
        "hid_dim": 32,
        "out_dim": 32,
        "learning_rate": 0.005,
        "num_max_train_batches": 160,
        "num_val_batches": 2,
        "val_every_n_batch": 80,
        "log_every_n_batch": 40,
        "node_embedding_dim": 16,
        "node_embedding_learning_rate": 0.05,
    }
    job = Job(tmp_path, task_config("link_prediction", FEATURELESS, args))
    result = job.run("--nproc=2")
    assert result.returncode == 0, result.stderr
    assert "2 process(es)" in result.stdout, result.stdout
    metrics = job.metrics()
    # Random scores give MRR ≈ H(257)/257 ≈ 0.024 against 256 sampled negatives.
    assert metrics["mrr"] > 0.15, metrics
    table = torch.load(tmp_path / "outputs" / "model.node_embeddings.pt", weights_only=True)["table.weight"]
    assert table.shape == (FEATURELESS["num_nodes"], 16)


def test_a_featureless_graph_without_embeddings_is_refused_before_training(tmp_path):
    job = Job(tmp_path, task_config("link_prediction", FEATURELESS, {"num_max_train_batches": 2}))
    result = job.run()
    assert result.returncode == 2
    assert "node_embedding_dim" in result.stderr
