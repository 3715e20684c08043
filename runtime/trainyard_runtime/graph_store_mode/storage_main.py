"""A storage process of GiGL's graph-store mode: ``python -m trainyard_runtime.graph_store_mode.storage_main
--job_name=… --task_config_uri=… --resource_config_uri=… [--<trainer arg>=<value> …]``, the
``graphStoreStorageConfig.command`` of a graph-store task config (its ``storageArgs`` are trainer arguments, e.g.
``graph_store_dir``).

It holds one part of the graph (partitioned as the trainer arguments say) and answers the compute processes'
sampling and feature rounds until they are done. Exit status as the trainer's: 0 done, 2 bad arguments or
configuration, 1 anything else.
"""

from __future__ import annotations

import sys

from trainyard_runtime.allocator import retain_freed_memory
from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.distributed import join_process_group, leave_process_group, share_dataset
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset
from trainyard_runtime.train import TrainingJob, exit_status, prepare


def serve(job: TrainingJob) -> None:
    retain_freed_memory()
    cluster = job.graph_store
    if cluster is None:
        raise ConfigError(
            "the storage program runs in graph-store mode only: the resource config has no "
            "vertexAiGraphStoreTrainerConfig"
        )
    cluster.expect_role(storage=True)
    world = join_process_group(use_cuda=False)
    try:
        cluster.join(world)
        # The collectives in the order the compute processes make them (_build_compute_task), then the rounds.
        whole = share_dataset(world, job.build_dataset, job.store_folder())
        whole_bytes = whole.held_bytes()
        owner, _ = cluster.assign_owners(world, whole.store, job.args.partitioner, job.args.seed)
        part = PartitionedDataset.from_dataset(whole, owner, world.rank, world.world_size)
        del whole
        print(part.graph.share_of(whole_bytes, f"storage rank {world.rank}"), flush=True)
        rounds = part.exchange.serve()
        print(f"[trainyard] storage rank {world.rank} answered {rounds} rounds", flush=True)
    finally:
        leave_process_group(world)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    return exit_status("trainyard_runtime.graph_store_mode.storage_main", lambda: serve(prepare(argv)))


if __name__ == "__main__":
    sys.exit(main())
