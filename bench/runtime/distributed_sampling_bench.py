"""Partitioned graphs: sampling throughput with 1, 2 and 4 gloo processes, and memory per process.

    runtime/.venv/bin/python bench/runtime/distributed_sampling_bench.py \
        [--scale 20 --degree 16 --feature-dim 32 --processes 1,2,4 --partitioners hash,metis --batches 20]
    runtime/.venv/bin/python bench/runtime/distributed_sampling_bench.py --memory-only --products --processes 4

Each run starts N gloo processes as the trainer does with ``graph_partitions: N``: local rank 0 builds the RMAT
graph and shares it, rank 0 partitions it, every process copies its part out and lets go of the whole
(``partition_dataset``). Then each process samples ``--batches`` mini-batches (``--batch`` seeds drawn from the
nodes it owns, as the trainer's seeds are, fanout ``--fanout``) and fetches their features, all through the
all_to_all exchanges, after 2 warm-up batches. Printed per partitioner and N: mini-batches/s of all processes
together, scaling efficiency (that rate / (N x the 1-process rate)), bytes each process sent to the others per
batch, the share of the time spent inside the all_to_all collectives (waiting for the other processes
included), edge cut and balance, and memory per process (the part's bytes, peak RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import tempfile
import time
from pathlib import Path

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from trainyard_runtime.allocator import retain_freed_memory
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.data.dataset import build_dataset
from trainyard_runtime.distributed import (
    ProcessContext,
    join_loopback_world,
    leave_process_group,
    partition_dataset,
    share_dataset,
)
from trainyard_runtime.sampler.distributed_neighbor import DistributedNeighborSampler

MIB = 2**20
WARM_UP_BATCHES = 2


def status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def join(rank: int, world_size: int, port: int) -> ProcessContext:
    if world_size == 1:
        return ProcessContext(0, 1, 0, 1, torch.device("cpu"))
    return join_loopback_world(rank, world_size, port)


class CollectiveClock:
    """Seconds spent inside ``all_to_all_single`` (synchronous with gloo): how much of a batch is exchanges,
    waiting for the other processes included."""

    def __init__(self):
        self.seconds = 0.0
        self._all_to_all_single = dist.all_to_all_single
        dist.all_to_all_single = self._timed

    def _timed(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self._all_to_all_single(*args, **kwargs)
        finally:
            self.seconds += time.perf_counter() - started


def measure(context: ProcessContext, part, options: argparse.Namespace, clock: CollectiveClock) -> dict:
    """Batches of seeds this process owns: sampled, then their features fetched (what a training batch costs
    before the model)."""
    fanout = [int(k) for k in options.fanout.split(",")]
    sampler = DistributedNeighborSampler(part.graph, fanout, seed=context.rank)
    owned = part.graph.owned_nodes()
    generator = torch.Generator().manual_seed(context.rank)
    edges = 0
    exchanges = [sampler.exchange, part.exchange]
    for batch in range(WARM_UP_BATCHES + options.batches):
        if batch == WARM_UP_BATCHES:
            context.barrier()
            started, edges = time.perf_counter(), 0
            sent_before = sum(exchange.bytes_sent for exchange in exchanges)
            clock.seconds = 0.0
        seeds = owned[torch.randint(owned.numel(), (options.batch,), generator=generator)]
        subgraph = sampler.sample(seeds)
        part.gather(subgraph.node)
        edges += subgraph.num_edges
    seconds = time.perf_counter() - started
    sent = sum(exchange.bytes_sent for exchange in exchanges) - sent_before
    return {"seconds": seconds, "edges": edges, "bytes_sent": sent, "collective_seconds": clock.seconds}


def worker(rank: int, world_size: int, port: int, options: argparse.Namespace, out: str) -> None:
    context = join(rank, world_size, port)
    try:
        folder = Path(options.store_dir) / f"trainyard-partition-bench-{port}"
        data_args = {
            "source": "rmat",
            "scale": options.scale,
            "avg_degree": options.degree,
            "feature_dim": options.feature_dim,
        }
        build_started = time.perf_counter()
        whole = share_dataset(
            context, lambda: build_dataset(data_args, SplitFractions(), "node_classification", Path.cwd()), folder
        )
        whole_bytes = sum(t.numel() * t.element_size() for t in [*whole.store.tensors().values(), whole.labels])
        num_nodes, num_edges = whole.store.num_nodes, whole.store.num_edges
        build_seconds = time.perf_counter() - build_started
        partitioners = options.partitioners.split(",")
        parts, reports = {}, {}
        for partitioner in partitioners:
            partition_started = time.perf_counter()
            parts[partitioner], quality = partition_dataset(context, whole, partitioner, seed=0)
            reports[partitioner] = {
                "partition_seconds": time.perf_counter() - partition_started,
                "held_bytes": parts[partitioner].graph.held_bytes(),
                "quality": None if quality is None else vars(quality),
            }
        # Memory with the parts only: the whole graph's shared pages go once every process has let go of them
        # (its builder's temporaries went back to the system: the allocator is tuned only from here on).
        del whole
        context.barrier()
        rss_with_parts = status_kib("VmRSS")
        retain_freed_memory()
        clock = CollectiveClock()
        for partitioner in partitioners:
            if not options.memory_only:
                reports[partitioner].update(measure(context, parts[partitioner], options, clock))
        summary = {
            "rank": rank,
            "num_nodes": num_nodes,
            "num_edges": num_edges,
            "whole_bytes": whole_bytes,
            "build_seconds": build_seconds,
            "peak_rss_kib": status_kib("VmHWM"),
            "rss_with_parts_kib": rss_with_parts,
            "partitioners": reports,
        }
        Path(out, f"rank{rank}.json").write_text(json.dumps(summary))
    finally:
        leave_process_group(context)


def run(world_size: int, options: argparse.Namespace) -> list[dict]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as out:
        if world_size == 1:
            worker(0, 1, port, options, out)
        else:
            mp.spawn(worker, args=(world_size, port, options, out), nprocs=world_size, join=True)
        return [json.loads(Path(out, f"rank{rank}.json").read_text()) for rank in range(world_size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=20, help="log2 of the node count (default 20)")
    parser.add_argument("--degree", type=int, default=16, help="average degree before de-duplication (default 16)")
    parser.add_argument("--feature-dim", type=int, default=32)
    parser.add_argument(
        "--products", action="store_true", help="ogbn-products-sized: scale 21, degree 60, 100 features"
    )
    parser.add_argument("--fanout", default="15,10,5")
    parser.add_argument("--batch", type=int, default=1024, help="seeds per mini-batch and process")
    parser.add_argument("--batches", type=int, default=20, help="timed mini-batches per process")
    parser.add_argument("--processes", default="1,2,4", help="process counts (= parts) to run")
    parser.add_argument("--partitioners", default="hash,metis")
    parser.add_argument("--memory-only", action="store_true", help="partition and report memory; no sampling")
    parser.add_argument("--store-dir", default="/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir())
    options = parser.parse_args()
    if options.products:
        options.scale, options.degree, options.feature_dim = 21, 60, 100
    torch.set_num_threads(1)  # the trainer's share per process on a small host; one thread per process here
    rates: dict[str, float] = {}
    for world_size in [int(n) for n in options.processes.split(",")]:
        reports = run(world_size, options)
        first = reports[0]
        print(
            f"== {world_size} process(es): RMAT scale {options.scale}, {first['num_nodes']:,} nodes, "
            f"{first['num_edges']:,} directed edges, {options.feature_dim} features; whole graph "
            f"{first['whole_bytes'] / MIB:.1f} MiB, built in {first['build_seconds']:.1f}s"
        )
        for partitioner in options.partitioners.split(","):
            parts = [report["partitioners"][partitioner] for report in reports]
            quality = parts[0]["quality"]
            held = max(part["held_bytes"] for part in parts)
            line = (
                f"{partitioner:>5}: edge cut {quality['edge_cut']:.1%}, balance {quality['balance']:.3f} "
                f"(edges {quality['edge_balance']:.3f}), "
                f"partitioned in {parts[0]['partition_seconds']:.1f}s; largest part holds {held / MIB:.1f} MiB "
                f"({held / first['whole_bytes']:.1%} of the graph)"
            )
            if not options.memory_only:
                seconds = max(part["seconds"] for part in parts)
                batches_per_s = world_size * options.batches / seconds
                edges_per_batch = sum(part["edges"] for part in parts) / (world_size * options.batches)
                sent_per_batch = sum(part["bytes_sent"] for part in parts) / (world_size * options.batches)
                in_collectives = sum(part["collective_seconds"] for part in parts) / sum(p["seconds"] for p in parts)
                if world_size == 1:
                    rates[partitioner] = batches_per_s
                one = rates.get(partitioner, float("nan"))
                line += (
                    f" | {batches_per_s:.2f} batches/s all processes, scaling efficiency "
                    f"{batches_per_s / (world_size * one):.0%}, {edges_per_batch / 1e3:.0f}k edges/batch, "
                    f"{sent_per_batch / MIB:.2f} MiB sent per batch and process, {in_collectives:.0%} of the time "
                    "inside all_to_all"
                )
            print(line)
        for report in reports:
            print(
                f"  rank {report['rank']}: peak RSS {report['peak_rss_kib'] / 1024:.0f} MiB (loading); RSS with the "
                f"part(s) ({options.partitioners}), the whole let go: {report['rss_with_parts_kib'] / 1024:.0f} MiB"
            )


if __name__ == "__main__":
    main()
