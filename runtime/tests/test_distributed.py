"""Data-parallel training: two gloo processes, each on its own seeds, end a step with the same parameters."""

import torch
import torch.multiprocessing as mp
from jobs import free_port

from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.dataset import build_dataset
from trainyard_runtime.distributed import interface_towards, join_loopback_world, leave_process_group, share_dataset
from trainyard_runtime.outputs.progress import ProgressReporter
from trainyard_runtime.outputs.tensorboard import ScalarLog
from trainyard_runtime.tasks import LinkPredictionTask
from trainyard_runtime.training_loop import TrainingLoop


def _one_step(rank: int, port: int, folder: str) -> None:
    context = join_loopback_world(rank, 2, port)
    try:
        data_args = {"source": "planted_partition", "num_nodes": "400", "num_communities": "8"}
        dataset = share_dataset(
            context,
            lambda: build_dataset(data_args, SplitFractions(), "link_prediction", None),
            __import__("pathlib").Path(folder) / "store",
        )
        args = TrainerArgs.parse(
            {
                "num_max_train_batches": "2",
                "main_batch_size": "32",
                "random_batch_size": "32",
                "num_val_batches": "2",
                "val_every_n_batch": "100",
                "log_every_n_batch": "100",
            }
        )
        torch.manual_seed(0)  # the same initial parameters on both ranks, as DDP's broadcast would make them
        task = LinkPredictionTask(dataset, args, context)
        initial = {k: v.clone() for k, v in task.model.state_dict().items()}
        batch = next(iter(task.training_batches()))
        torch.save({"initial": initial, "anchors": batch.node[: batch.batch_size]}, f"{folder}/batch{rank}.pt")
        TrainingLoop(task, args, context, ScalarLog(None), ProgressReporter(1, False)).run()
        torch.save(task.model.state_dict(), f"{folder}/rank{rank}.pt")
    finally:
        leave_process_group(context)


def test_two_gloo_processes_agree_on_parameters_after_training(tmp_path):
    mp.spawn(_one_step, args=(free_port(), str(tmp_path)), nprocs=2, join=True)
    first, second = torch.load(tmp_path / "rank0.pt"), torch.load(tmp_path / "rank1.pt")
    batches = [torch.load(tmp_path / f"batch{rank}.pt") for rank in (0, 1)]
    # Each rank sampled its own shard of anchors...
    assert not set(batches[0]["anchors"].tolist()) & set(batches[1]["anchors"].tolist())
    # ...and the parameters moved, identically on both ranks.
    for name in first:
        assert torch.allclose(first[name], second[name], atol=1e-6), name
    assert any(not torch.equal(first[name], batches[0]["initial"][name]) for name in first)
    assert not (tmp_path / "store").exists()  # the shared store's files are gone once mapped


def test_the_interface_towards_an_address_is_the_one_holding_the_route_s_local_address():
    # Loopback is the one interface every host has; the netns test of the server covers a veth between hosts.
    assert interface_towards("127.0.0.1") == "lo"
    assert interface_towards("localhost") == "lo"
