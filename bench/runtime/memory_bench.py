"""Memory of the shared graph store: peak RSS per process with 2 local workers on the same RMAT graph.

    runtime/.venv/bin/python bench/runtime/memory_bench.py [--scale 20 --degree 32 --feature-dim 64 --workers 2]

Starts ``--workers`` gloo processes exactly as the trainer does (``join_process_group`` + ``share_dataset``):
local rank 0 builds the graph and publishes it under /dev/shm, every rank maps it with ``mmap(MAP_SHARED)``,
then each samples ``--batches`` mini-batches of fanout [15, 10, 5] so the pages it needs are really touched.
Each process reports from /proc: peak RSS (VmHWM), its private memory before and after joining the store,
and the store's pages it maps (resident, proportional share, private). Rank 1's added private memory over
rank 0's graph memory is the figure to keep under 10 %.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import tempfile
from pathlib import Path

import torch
import torch.multiprocessing as mp

from trainyard_runtime.allocator import retain_freed_memory
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.data.dataset import build_dataset
from trainyard_runtime.distributed import join_loopback_world, leave_process_group, share_dataset
from trainyard_runtime.sampler import NeighborSampler

MIB = 2**20


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def store_mappings(folder: Path) -> dict[str, int]:
    """Resident, proportional (Pss) and private kiB of the mappings of the store's files."""
    totals = {"Rss": 0, "Pss": 0, "Private_Clean": 0, "Private_Dirty": 0}
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        first = line.split(maxsplit=1)[0]
        if "-" in first and not first.endswith(":"):  # a mapping's header line: address range, perms, ..., path
            inside = str(folder) in line
        elif inside and first[:-1] in totals:
            totals[first[:-1]] += int(line.split()[1])
    return totals


def worker(rank: int, world_size: int, port: int, options: argparse.Namespace, out: str) -> None:
    retain_freed_memory()
    context = join_loopback_world(rank, world_size, port)
    try:
        private_before = status_kib("RssAnon")
        folder = Path(options.store_dir) / f"trainyard-memory-bench-{port}"
        data_args = {
            "source": "rmat",
            "scale": options.scale,
            "avg_degree": options.degree,
            "feature_dim": options.feature_dim,
        }
        dataset = share_dataset(
            context, lambda: build_dataset(data_args, SplitFractions(), "node_classification", Path.cwd()), folder
        )
        store = dataset.store
        sampler = NeighborSampler(store, [15, 10, 5], seed=rank)
        generator = torch.Generator().manual_seed(rank)
        for _ in range(options.batches):
            sampler.sample(torch.randint(store.num_nodes, (1024,), generator=generator))
        context.barrier()
        report = {
            "rank": rank,
            "peak_rss_kib": status_kib("VmHWM"),
            "rss_kib": status_kib("VmRSS"),
            "private_before_kib": private_before,
            "private_after_kib": status_kib("RssAnon"),
            "store_mapping_kib": store_mappings(folder),
            "store_bytes": sum(t.numel() * t.element_size() for t in dataset.tensors().values()),
            "structure_bytes": store.structure_bytes(),
            "num_nodes": store.num_nodes,
            "num_edges": store.num_edges,
        }
        Path(out, f"rank{rank}.json").write_text(json.dumps(report))
    finally:
        leave_process_group(context)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=20)
    parser.add_argument("--degree", type=int, default=32)
    parser.add_argument("--feature-dim", type=int, default=64)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batches", type=int, default=20, help="mini-batches each worker samples")
    parser.add_argument("--store-dir", default="/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir())
    options = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as out:
        mp.spawn(worker, args=(options.workers, port, options, out), nprocs=options.workers, join=True)
        reports = [json.loads(Path(out, f"rank{rank}.json").read_text()) for rank in range(options.workers)]
    first = reports[0]
    store_mib = first["store_bytes"] / MIB
    print(
        f"graph: RMAT scale {options.scale}, {first['num_nodes']:,} nodes, {first['num_edges']:,} directed edges; "
        f"{options.workers} workers, {options.batches} batches of 1024 seeds, fanout [15, 10, 5] each"
    )
    print(
        f"graph store: {store_mib:.1f} MiB shared (structure {first['structure_bytes'] / MIB:.1f} MiB = "
        f"{first['structure_bytes'] / first['num_edges']:.2f} bytes per edge all in, features and labels the rest)"
    )
    for report in reports:
        mapping = report["store_mapping_kib"]
        private_added = (report["private_after_kib"] - report["private_before_kib"]) / 1024
        store_private = (mapping["Private_Clean"] + mapping["Private_Dirty"]) / 1024
        print(
            f"rank {report['rank']}: peak RSS {report['peak_rss_kib'] / 1024:.0f} MiB | store pages resident "
            f"{mapping['Rss'] / 1024:.0f} MiB (proportional share {mapping['Pss'] / 1024:.0f} MiB, private "
            f"{store_private:.0f} MiB) | private memory added by joining the store and sampling {private_added:.0f} MiB"
        )
    for report in reports[1:]:
        mapping = report["store_mapping_kib"]
        added = (report["private_after_kib"] - report["private_before_kib"]) / 1024
        added += (mapping["Private_Clean"] + mapping["Private_Dirty"]) / 1024
        print(
            f"rank {report['rank']} adds {added:.1f} MiB = {100 * added / max(store_mib, 1e-9):.1f} % of the "
            f"{store_mib:.1f} MiB graph rank 0 holds (target < 10 %)"
        )


if __name__ == "__main__":
    main()
