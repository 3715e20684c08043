"""Joining (or, by hand, starting) the torch.distributed world, and sharing the dataset between local ranks."""

from __future__ import annotations

import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import torch
import torch.distributed as dist

from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.data.shared_tensors import open_tensors, publish_tensors
from trainyard_runtime.partition import PartitionQuality, partition_nodes
from trainyard_runtime.partition.partitioned_dataset import PartitionedDataset


@dataclass
class ProcessContext:
    """This process's place in the training world and the device it trains on. The training world is the whole
    torch.distributed world, or a group of it (``group``: graph-store mode's compute processes, which are its
    first ranks, so their ranks in the group are their global ranks)."""

    rank: int
    world_size: int
    local_rank: int
    local_world_size: int
    device: torch.device
    group: Any = None  # the torch.distributed group of the training world; None: the whole world

    @property
    def is_leader(self) -> bool:
        return self.rank == 0

    @property
    def is_distributed(self) -> bool:
        return self.world_size > 1

    def barrier(self) -> None:
        if self.is_distributed:
            dist.barrier(group=self.group)

    def broadcast_from_leader(self, tensor: torch.Tensor) -> torch.Tensor:
        """Rank 0's ``tensor`` on every rank (same shape and dtype everywhere), on the CPU."""
        if not self.is_distributed:
            return tensor
        on_device = tensor.to(self.device)
        dist.broadcast(on_device, src=0, group=self.group)
        return on_device.cpu()

    def all_reduce_max(self, value: int) -> int:
        """The largest ``value`` over ranks."""
        if not self.is_distributed:
            return value
        on_device = torch.tensor([value], dtype=torch.int64, device=self.device)
        dist.all_reduce(on_device, op=dist.ReduceOp.MAX, group=self.group)
        return int(on_device.item())

    def all_reduce_sum(self, tensor: torch.Tensor) -> torch.Tensor:
        """Sums over ranks (a copy on the collective's device, returned on the CPU as float64)."""
        if not self.is_distributed:
            return tensor
        on_device = tensor.to(self.device)
        dist.all_reduce(on_device, op=dist.ReduceOp.SUM, group=self.group)
        return on_device.cpu()


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"environment variable {name}={raw!r} is not an integer") from None


def join_process_group(use_cuda: bool, backend: str | None = None) -> ProcessContext:
    """Joins the world described by the standard env vars (``WORLD_SIZE`` > 1), nccl on GPUs, gloo on CPUs,
    unless ``backend`` is given."""
    world_size = _env_int("WORLD_SIZE", 1)
    rank = _env_int("RANK", 0)
    local_rank = _env_int("LOCAL_RANK", rank)
    local_world_size = _env_int("LOCAL_WORLD_SIZE", world_size)
    if not 0 <= rank < world_size:
        raise ConfigError(f"RANK={rank} must lie in [0, WORLD_SIZE={world_size})")
    if use_cuda:
        if not torch.cuda.is_available():
            raise ConfigError("--use_cuda was given but no CUDA device is visible (check CUDA_VISIBLE_DEVICES)")
        # The server may show each process only its own GPU, or all of the job's GPUs.
        device = torch.device("cuda", local_rank % torch.cuda.device_count())
        torch.cuda.set_device(device)
    else:
        device = torch.device("cpu")
        # Local CPU ranks share the host's cores; without this each would start one thread per core.
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // max(local_world_size, 1)))
    if world_size > 1:
        for name in ("MASTER_ADDR", "MASTER_PORT"):
            if not os.environ.get(name):
                raise ConfigError(f"WORLD_SIZE={world_size} needs {name} in the environment")
        if world_size > local_world_size:
            _use_interface_towards_master()
        backend = backend or ("nccl" if use_cuda else "gloo")
        dist.init_process_group(backend, init_method="env://", rank=rank, world_size=world_size)
    return ProcessContext(rank, world_size, local_rank, local_world_size, device)


def join_loopback_world(rank: int, world_size: int, port: int) -> ProcessContext:
    """One rank of a world started by hand on this host (tests, benchmarks): the launch contract's variables,
    as an agent sets them for its workers, then :func:`join_process_group` on the CPU."""
    os.environ.update(
        MASTER_ADDR="127.0.0.1",
        MASTER_PORT=str(port),
        WORLD_SIZE=str(world_size),
        RANK=str(rank),
        LOCAL_RANK=str(rank),
        LOCAL_WORLD_SIZE=str(world_size),
    )
    return join_process_group(use_cuda=False)


def interface_towards(address: str) -> str | None:
    """The name of this host's network interface that routes to ``address`` (None if no interface has the
    address the route leaves from)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        # Connecting a UDP socket sends nothing: it only picks the route, and with it the local address.
        probe.connect((socket.gethostbyname(address), 9))
        local = probe.getsockname()[0]
    for name, addresses in psutil.net_if_addrs().items():
        if any(entry.family == socket.AF_INET and entry.address == local for entry in addresses):
            return name
    return None


def _use_interface_towards_master() -> None:
    """In a world spanning hosts, gloo and NCCL talk over the interface that reaches the first host. Left to
    themselves they take the address the host name resolves to, often 127.0.1.1 (Debian's /etc/hosts), which the
    other hosts cannot reach. A variable already set wins."""
    name = interface_towards(os.environ["MASTER_ADDR"])
    if name is not None:
        os.environ.setdefault("GLOO_SOCKET_IFNAME", name)
        os.environ.setdefault("NCCL_SOCKET_IFNAME", name)


def leave_process_group(context: ProcessContext) -> None:
    if context.is_distributed and dist.is_initialized():
        dist.destroy_process_group()


def share_dataset(
    context: ProcessContext,
    build: Callable[[], Any],
    folder: Path,
    restore: Callable[[dict[str, torch.Tensor]], Any] = GraphDataset.from_tensors,
) -> Any:
    """Builds the dataset once per host and maps it into every local process (``restore`` rebuilds it from
    its named tensors: a :class:`GraphDataset` by default, or a heterogeneous one).

    Local rank 0 builds and publishes it under ``folder``; after a barrier every local rank maps the files
    (one physical copy), and after a second barrier rank 0 unlinks them: the mappings stay valid, and nothing
    is left behind in /dev/shm if the job dies later.
    """
    if not context.is_distributed:
        return build()
    if context.local_rank == 0:
        publish_tensors(folder, build().tensors())
    context.barrier()
    dataset = restore(open_tensors(folder))
    context.barrier()
    if context.local_rank == 0:
        shutil.rmtree(folder, ignore_errors=True)
    return dataset


def partition_dataset(
    context: ProcessContext, dataset: GraphDataset, partitioner: str, seed: int
) -> tuple[PartitionedDataset, PartitionQuality]:
    """This rank's part of ``dataset`` (one part per rank)."""
    owner, quality = assign_owners(context, dataset.store, context.world_size, partitioner, seed)
    return PartitionedDataset.from_dataset(dataset, owner, context.rank, context.world_size), quality


def assign_owners(
    context: ProcessContext, store: GraphStore, num_parts: int, partitioner: str, seed: int, first_owner: int = 0
) -> tuple[torch.Tensor, PartitionQuality | None]:
    """Each node's owner, ranks ``first_owner`` .. ``first_owner + num_parts - 1`` of the world holding one part
    each, and on rank 0 the partition's quality. Rank 0 partitions (METIS may differ between runs of different
    machines, and every rank must agree) and broadcasts the owners."""
    if context.is_leader:
        parts = partition_nodes(store, num_parts, partitioner, seed)
        quality = PartitionQuality.of(store, parts, num_parts)
        owner = (parts + first_owner).to(torch.int32)
    else:
        quality, owner = None, torch.empty(store.num_nodes, dtype=torch.int32)
    return context.broadcast_from_leader(owner), quality


def default_store_folder(configured: str, job_name: str) -> Path:
    base = Path(configured) if configured else (Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path.cwd())
    port = os.environ.get("MASTER_PORT", "0")
    # The hosts of a job spanning several share the port: two of them on one machine must not share the folder.
    host = os.environ.get("GROUP_RANK", "0")
    safe_job = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in job_name)
    return base / f"trainyard-graph-store-{safe_job}-{port}-{host}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _spawned_process(local_rank: int, nproc: int, target: Callable[..., Any], args: tuple) -> None:
    os.environ.update(
        RANK=str(local_rank), LOCAL_RANK=str(local_rank), WORLD_SIZE=str(nproc), LOCAL_WORLD_SIZE=str(nproc)
    )
    target(*args)


def spawn_local_processes(nproc: int, target: Callable[..., Any], args: tuple) -> None:
    """``--nproc`` when launched by hand: starts ``nproc`` ranks on this host and waits for them."""
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(_free_port()))
    torch.multiprocessing.spawn(_spawned_process, args=(nproc, target, args), nprocs=nproc, join=True)
