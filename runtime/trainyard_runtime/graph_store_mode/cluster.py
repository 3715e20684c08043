"""Who is what in a graph-store job's world, as GiGL numbers it: compute processes first, storage processes last."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist

from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.distributed import ProcessContext, assign_owners
from trainyard_runtime.partition import PartitionQuality


@dataclass(frozen=True)
class GraphStoreCluster:
    """``compute_processes`` trainers (ranks 0 ..) and ``storage_processes`` holders of the graph's parts (the
    last ranks, one part each)."""

    compute_processes: int
    storage_processes: int

    @classmethod
    def of(cls, resource_config: dict[str, Any], world_size: int) -> GraphStoreCluster | None:
        """The cluster of a resource config with ``vertexAiGraphStoreTrainerConfig``: one storage process per
        ``graphStorePool`` replica (as the server starts them), the rest of the world computes. None for any
        other resource config."""
        trainer = resource_config.get("trainer_resource_config") or resource_config.get("trainer_config") or {}
        pools = trainer.get("vertex_ai_graph_store_trainer_config")
        if pools is None:
            return None
        storage = int((pools.get("graph_store_pool") or {}).get("num_replicas") or 1)
        if world_size <= storage:
            raise ConfigError(
                f"graph-store mode: {storage} storage process(es) (graphStorePool.numReplicas) leave no compute "
                f"process in a world of {world_size} (WORLD_SIZE)"
            )
        return cls(world_size - storage, storage)

    def is_storage(self, rank: int) -> bool:
        return rank >= self.compute_processes

    def expect_role(self, storage: bool) -> None:
        """Refuses, before it joins the world, a process started as the other role than its rank has."""
        rank = int(os.environ.get("RANK") or 0)
        if self.is_storage(rank) != storage:
            world = self.compute_processes + self.storage_processes
            raise ConfigError(
                f"rank {rank} is a storage process of graph-store mode (the last {self.storage_processes} of "
                f"{world}): it runs graphStoreStorageConfig.command"
                if self.is_storage(rank)
                else f"rank {rank} is a compute process of graph-store mode (the first {self.compute_processes} of "
                f"{world}): it runs trainerConfig.command"
            )

    def join(self, world: ProcessContext) -> ProcessContext | None:
        """The compute processes' own training world (their DDP, metrics and lockstep), on NCCL when rank 0
        trains on a GPU; None on a storage process. Every process of the world calls it, together: a group is
        made by all."""
        on_gpu = torch.tensor([world.device.type == "cuda"], dtype=torch.int64)
        dist.broadcast(on_gpu, src=0)  # the world is gloo: on the CPU, whatever this process trains on
        backend = "nccl" if bool(on_gpu.item()) else "gloo"
        group = dist.new_group(list(range(self.compute_processes)), backend=backend)
        if self.is_storage(world.rank):
            return None
        return ProcessContext(
            world.rank, self.compute_processes, world.local_rank, world.local_world_size, world.device, group
        )

    def assign_owners(
        self, world: ProcessContext, store: GraphStore, partitioner: str, seed: int
    ) -> tuple[torch.Tensor, PartitionQuality | None]:
        """One part per storage process: each node's owner is a storage rank (see :func:`assign_owners`)."""
        return assign_owners(world, store, self.storage_processes, partitioner, seed, self.compute_processes)
