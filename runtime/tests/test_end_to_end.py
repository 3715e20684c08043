"""The real trainer, run as a subprocess on real YAML files, learns and leaves its outputs behind."""

import glob

import pytest
import torch
from jobs import Job, free_port, task_config
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

LINK_DATA = {
    "source": "planted_partition",
    "num_nodes": 2048,
    "num_communities": 128,
    "avg_degree": 12,
    "intra_fraction": 0.95,
    "feature_dim": 16,
    "seed": 3,
}
LINK_ARGS = {
    "num_neighbors": "[8, 8]",
    "main_batch_size": 128,
    "random_batch_size": 128,
    "hid_dim": 32,
    "out_dim": 32,
    "learning_rate": 0.005,
    "num_max_train_batches": 120,
    "num_val_batches": 2,
    "val_every_n_batch": 60,
    "log_every_n_batch": 20,
}


@pytest.fixture(scope="module")
def link_job(tmp_path_factory):
    job = Job(tmp_path_factory.mktemp("link"), task_config("link_prediction", LINK_DATA, LINK_ARGS))
    result = job.run()
    assert result.returncode == 0, result.stderr
    return job, result


def test_link_prediction_ranks_held_out_edges_far_above_random(link_job):
    job, _ = link_job
    test = job.metrics()
    # Random scores would give MRR ≈ H(257)/257 ≈ 0.024 against 256 sampled negatives.
    assert test["num_negatives_per_query"] == 256
    assert test["num_queries"] > 500
    assert test["mrr"] >= 0.5
    assert test["hits@1"] <= test["hits@10"] <= test["hits@50"]


def test_link_prediction_prints_progress_and_writes_loadable_outputs(link_job):
    job, result = link_job
    progress = [line for line in result.stdout.splitlines() if line.startswith("[train] step")]
    assert len(progress) == 6  # every 20 of 120 batches
    assert "epoch" in progress[0] and "loss" in progress[0] and "batches/s" in progress[0] and "ETA" in progress[0]
    state = torch.load(job.work_dir / "outputs" / "model.pt", weights_only=True)
    assert any(name.startswith("encoder.convs.0") for name in state)
    events = EventAccumulator(glob.glob(str(job.work_dir / "outputs" / "tensorboard"))[0])
    events.Reload()
    tags = set(events.Tags()["scalars"])
    for tag in (
        "train/loss",
        "train/learning_rate",
        "train/mini_batches_per_second",
        "train/sampled_edges_per_second",
        "val/loss",
        "val/mrr",
        "test/mrr",
    ):
        assert tag in tags
    losses = [event.value for event in events.Scalars("train/loss")]
    assert len(losses) == 6 and losses[-1] < losses[0]
    assert [event.step for event in events.Scalars("val/mrr")] == [60, 120]


def test_skip_training_evaluates_the_saved_model(link_job, tmp_path):
    job, _ = link_job
    trained = job.metrics()
    config = task_config("link_prediction", LINK_DATA, LINK_ARGS, shouldSkipTraining=True)
    evaluate_only = Job(job.work_dir, config)
    result = evaluate_only.run()
    assert result.returncode == 0, result.stderr
    assert "[train] step" not in result.stdout
    assert evaluate_only.metrics()["mrr"] == pytest.approx(trained["mrr"], abs=1e-9)


def test_node_classification_reaches_high_accuracy(tmp_path):
    data = {
        "source": "planted_partition",
        "num_nodes": 2000,
        "num_communities": 6,
        "avg_degree": 10,
        "intra_fraction": 0.85,
        "feature_dim": 16,
        "feature_noise": 4.0,
        "seed": 5,
    }
    args = {
        "num_neighbors": "[10, 5]",
        "train_batch_size": 64,
        "num_classes": 6,
        "hid_dim": 32,
        "out_dim": 32,
        "learning_rate": 0.01,
        "num_max_train_batches": 80,
        "num_val_batches": 4,
        "val_every_n_batch": 40,
        "log_every_n_batch": 20,
    }
    job = Job(tmp_path, task_config("node_classification", data, args))
    result = job.run()
    assert result.returncode == 0, result.stderr
    metrics = job.metrics()
    assert metrics["acc"] >= 0.9
    assert metrics["num_nodes"] == 200  # the default 0.8/0.1/0.1 split
    assert (tmp_path / "outputs" / "model.pt").is_file()


def test_two_server_started_ranks_train_together(tmp_path):
    """WORLD_SIZE=2 processes started separately (as the server does) join one gloo world."""
    data = {
        "source": "planted_partition",
        "num_nodes": 800,
        "num_communities": 4,
        "avg_degree": 8,
        "feature_dim": 8,
        "seed": 1,
    }
    args = {
        "num_neighbors": "[5, 5]",
        "train_batch_size": 32,
        "num_classes": 4,
        "hid_dim": 16,
        "out_dim": 16,
        "num_max_train_batches": 8,
        "num_val_batches": 2,
        "val_every_n_batch": 4,
        "log_every_n_batch": 2,
    }
    job = Job(tmp_path, task_config("node_classification", data, args))
    port = free_port()
    ranks = [job.start_rank(rank, 2, port) for rank in (0, 1)]
    outputs = [rank.communicate(timeout=240) for rank in ranks]
    assert [rank.returncode for rank in ranks] == [0, 0], [err for _, err in outputs]
    assert "[train] step 4/4" in outputs[0][0]
    assert outputs[1][0] == ""  # only rank 0 reports
    assert "2 process(es)" in outputs[0][0]
    assert "acc" in job.metrics()
