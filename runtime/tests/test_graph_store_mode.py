"""GiGL's graph-store mode on one host: storage processes hold the graph's parts, compute processes train through
them, all as the server starts a vertexAiGraphStoreTrainerConfig job (compute ranks first, storage last)."""

import copy
import re

import pytest
import torch
from jobs import RESOURCE_CONFIG, Job, free_port, task_config
from test_partitioned_graphs import LINK_ARGS, LINK_DATA, NODE_ARGS, NODE_DATA

STORAGE = "trainyard_runtime.graph_store_mode.storage_main"


def graph_store_resource(storage_replicas: int) -> dict:
    resource = copy.deepcopy(RESOURCE_CONFIG)
    pool = {"machineType": "n1-standard-4", "gpuType": "ACCELERATOR_TYPE_UNSPECIFIED", "gpuLimit": 0}
    resource["trainerResourceConfig"] = {
        "vertexAiGraphStoreTrainerConfig": {
            "graphStorePool": {**pool, "numReplicas": storage_replicas},
            "computePool": {**pool, "numReplicas": 1},
            "computeClusterLocalWorldSize": 2,
        }
    }
    return resource


def run_graph_store_job(job: Job, compute: int, storage: int) -> list[str]:
    """Starts the world (compute ranks, then storage ranks) and returns each process's stdout."""
    world, port = compute + storage, free_port()
    processes = [job.start_rank(rank, world, port) for rank in range(compute)]
    processes += [job.start_rank(rank, world, port, module=STORAGE) for rank in range(compute, world)]
    outputs = []
    for process in processes:
        stdout, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr
        outputs.append(stdout)
    return outputs


@pytest.mark.parametrize(
    ("task", "data", "args", "metric", "tolerance"),
    [
        ("link_prediction", LINK_DATA, LINK_ARGS, "mrr", 0.1),
        ("node_classification", NODE_DATA, NODE_ARGS, "acc", 0.06),
    ],
)
def test_two_compute_processes_train_through_one_storage_process_as_well_as_one_process(
    tmp_path, task, data, args, metric, tolerance
):
    whole = Job(tmp_path / "whole", task_config(task, data, args))
    result = whole.run(timeout=240)
    assert result.returncode == 0, result.stderr
    graph_store = Job(
        tmp_path / "graph-store", task_config(task, data, {**args, "partitioner": "metis"}), graph_store_resource(1)
    )

    outputs = run_graph_store_job(graph_store, compute=2, storage=1)

    single, served = whole.metrics(), graph_store.metrics()
    queries = "num_queries" if task == "link_prediction" else "num_nodes"
    assert served[queries] == single[queries]  # the two compute processes together evaluate every test seed
    assert served[metric] >= single[metric] - tolerance, (single, served)
    assert "storage process(es); graph partitioned (metis)" in outputs[0]
    assert re.search(r"storage rank 2 answered [1-9]\d* rounds", outputs[2])


def test_two_storage_processes_each_hold_about_half_of_the_graph_and_compute_none_of_it(tmp_path):
    args = {**LINK_ARGS, "num_max_train_batches": 8, "val_every_n_batch": 8}
    job = Job(tmp_path, task_config("link_prediction", LINK_DATA, args), graph_store_resource(2))

    outputs = run_graph_store_job(job, compute=1, storage=2)

    shares = [float(re.search(r"storage rank \d holds .* \(([\d.]+)%\)", out).group(1)) for out in outputs[1:]]
    assert all(40 <= share <= 60 for share in shares), shares
    compute = re.search(r"compute rank 0 holds ([\d.]+) MiB of the graph's ([\d.]+) MiB", outputs[0])
    assert float(compute.group(1)) < 0.1 * float(compute.group(2)), compute.group(0)


@pytest.mark.parametrize(
    ("rank", "module", "message"),
    [
        (1, "trainyard_runtime.train", "rank 1 is a storage process of graph-store mode (the last 1 of 2)"),
        (0, STORAGE, "rank 0 is a compute process of graph-store mode (the first 1 of 2)"),
    ],
)
def test_a_process_started_as_the_other_role_is_refused_before_it_joins_the_world(tmp_path, rank, module, message):
    job = Job(tmp_path, task_config("link_prediction", LINK_DATA, LINK_ARGS), graph_store_resource(1))

    process = job.start_rank(rank, 2, free_port(), module=module)
    _, stderr = process.communicate(timeout=120)

    assert process.returncode == 2, stderr
    assert message in stderr


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_a_compute_process_on_cuda_trains_through_a_storage_process_on_the_cpu(tmp_path):
    """The world is gloo (the storage process has no GPU); the compute process trains on its GPU, in an NCCL group."""
    job = Job(tmp_path, task_config("link_prediction", LINK_DATA, LINK_ARGS), graph_store_resource(1))
    world, port = 2, free_port()
    processes = [job.start_rank(0, world, port, "--use_cuda"), job.start_rank(1, world, port, module=STORAGE)]
    for process in processes:
        _, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr
    assert job.metrics()["mrr"] >= 0.3
