"""Sampling and training throughput of the Trainyard runtime on an RMAT graph.

    runtime/.venv/bin/python bench/runtime/sampling_bench.py [--scale 20 --degree 32 --fanout 15,10,5 --batch 1024]
    runtime/.venv/bin/python bench/runtime/sampling_bench.py --compare-dgl   # needs bash bench/runtime/install-dgl.sh

Prints, on CPU and (when present) CUDA: sampled edges per second, mini-batches per second, the graph store's
bytes per edge, and GraphSAGE training seconds per epoch (one epoch = every node once as a seed; estimated
from the measured batches, since a full epoch takes long on a laptop CPU).

``--compare-dgl`` instead times the CPU sampler against DGL 2.1.0 on the same graph and seed batches
(see dgl_comparison.py). For a GPU: ``--products --cuda-only --training-batches 0`` builds an ogbn-products-sized
RMAT graph and times one whole GraphSAGE epoch on CUDA; ``--training-batches 20 --profile trace`` instead
profiles 20 steps with torch.profiler (top operators printed, Chrome trace written).
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import time

import torch
from dgl_comparison import compare_with_dgl

from trainyard_runtime.allocator import retain_freed_memory
from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.edge_lists import both_directions
from trainyard_runtime.data.generators import rmat
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.loader.node_loader import to_data
from trainyard_runtime.loader.prefetch import prefetched
from trainyard_runtime.models import GraphSAGE, NodeClassifier
from trainyard_runtime.sampler import NeighborSampler
from trainyard_runtime.training_loop import adamw

# ogbn-products trains on 196,615 of its 2.45 M nodes: published epoch times (DGL's, SALIENT's) are over these
# seeds, while this bench's epoch takes every node of the graph as a seed once.
PRODUCTS_TRAINING_SEEDS = 196_615


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure_sampling(store: GraphStore, fanout: list[int], batch: int, batches: int, device: torch.device) -> dict:
    sampler = NeighborSampler(store, fanout, seed=1)
    generator = torch.Generator().manual_seed(2)
    warm_up = 5  # allocator pools, page faults, CUDA kernels
    seed_batches = [
        torch.randint(store.num_nodes, (batch,), generator=generator).unique() for _ in range(batches + warm_up)
    ]
    for seeds in seed_batches[:warm_up]:
        sampler.sample(seeds)
    synchronize(device)
    started = time.perf_counter()
    edges = 0
    for seeds in seed_batches[warm_up:]:
        edges += sampler.sample(seeds).num_edges
    synchronize(device)
    elapsed = time.perf_counter() - started
    return {"batches_per_s": batches / elapsed, "edges_per_s": edges / elapsed, "edges_per_batch": edges / batches}


def measure_training(
    dataset: GraphDataset,
    fanout: list[int],
    batch: int,
    batches: int,
    device: torch.device,
    profile_to: str = "",
    compiled: bool = False,
) -> dict:
    """Times ``batches`` training steps (0: a whole epoch, every node once as a seed). With ``profile_to`` the
    timed steps run under torch.profiler: the top operators are printed and a Chrome trace is written there.
    With ``compiled`` each layer is compiled by ``torch.compile`` for any batch shape (compiled in warm-up)."""
    store = dataset.store
    sampler = NeighborSampler(store, fanout, seed=3)
    torch.manual_seed(5)  # the same initial weights in every run, so runs' losses compare
    model = NodeClassifier(GraphSAGE(store.features.size(1), 64, 64, len(fanout)), 64, dataset.num_classes).to(device)
    if compiled:
        for i, conv in enumerate(model.encoder.convs):
            model.encoder.convs[i] = torch.compile(conv, dynamic=True)
    optimizer = adamw(model.parameters(), 0.003, 0.01, device)  # as the trainer builds it
    order = torch.randperm(store.num_nodes, generator=torch.Generator().manual_seed(4))

    def sampled(first: int, count: int):
        """Batches ``first`` … ``first + count - 1`` of ``order``, sampled on a side stream on CUDA as the
        trainer's loop does (the next batch's sampling overlaps the current step)."""
        for i in range(first, first + count):
            yield to_data(dataset, sampler.sample(order[i * batch : (i + 1) * batch]), device)

    def step(data) -> torch.Tensor:
        loss = torch.nn.functional.cross_entropy(model(data), data.y[: data.batch_size])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.detach()

    warm_up = 3
    for data in prefetched(sampled(0, warm_up), device):
        step(data)
    synchronize(device)
    batches_per_epoch = -(-store.num_nodes // batch)
    timed = batches or batches_per_epoch
    order = torch.cat([order, order])  # a whole epoch after the warm-up steps wraps around
    profiler = profiling(device, profile_to)
    loss_sum = torch.zeros((), device=device)  # summed on the device: reading each loss would wait every step
    with profiler:
        started = time.perf_counter()
        for data in prefetched(sampled(warm_up, timed), device):
            loss_sum += step(data)
        synchronize(device)
        per_batch = (time.perf_counter() - started) / timed
    if profile_to:
        sort_by = "cuda_time_total" if device.type == "cuda" else "cpu_time_total"
        averages = profiler.key_averages()
        print(averages.table(sort_by=sort_by, row_limit=15))
        if device.type == "cuda":
            # The kernels only: an operator's row repeats the device time of the kernels it launched.
            kernels = [event for event in averages if event.device_type == torch.autograd.DeviceType.CUDA]
            kernel_seconds = sum(event.self_device_time_total for event in kernels) / 1e6
            print(
                f"GPU busy {100 * kernel_seconds / (per_batch * timed):.1f} % of the timed steps' wall time "
                f"({kernel_seconds:.3f} s of kernels in {per_batch * timed:.3f} s)"
            )
        profiler.export_chrome_trace(profile_to)
        print(f"Chrome trace of the {device.type} training steps: {profile_to}")
    return {
        "seconds_per_batch": per_batch,
        "seconds_per_epoch": per_batch * batches_per_epoch,
        "batches_per_epoch": batches_per_epoch,
        "mean_loss": loss_sum.item() / timed,
    }


def profiling(device: torch.device, trace_path: str):
    """torch.profiler over the timed steps (CPU activity, plus CUDA kernels on a GPU), or nothing."""
    if not trace_path:
        return contextlib.nullcontext()
    activities = [torch.profiler.ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    return torch.profiler.profile(activities=activities, record_shapes=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=20, help="log2 of the node count (default 20)")
    parser.add_argument("--degree", type=int, default=32, help="average degree before de-duplication (default 32)")
    parser.add_argument("--fanout", default="15,10,5", help="neighbours per hop (default 15,10,5)")
    parser.add_argument("--batch", type=int, default=1024, help="seed nodes per mini-batch (default 1024)")
    parser.add_argument("--feature-dim", type=int, default=64, help="node feature dimension (default 64)")
    parser.add_argument("--sampling-batches", type=int, default=20, help="timed sampling batches per device")
    parser.add_argument(
        "--training-batches", type=int, default=10, help="timed training batches per device (0: a whole epoch)"
    )
    parser.add_argument(
        "--products",
        action="store_true",
        help="ogbn-products-sized graph: RMAT scale 21 (2.1 M nodes), degree 60 (~62 M undirected edges), 100 features",
    )
    parser.add_argument(
        "--profile",
        default="",
        metavar="TRACE_PREFIX",
        help="run the timed training steps under torch.profiler; print the top operators and write "
        "TRACE_PREFIX-<device>.json (Chrome trace)",
    )
    parser.add_argument("--cuda-only", action="store_true", help="skip the CPU measurements (for GPU runs)")
    parser.add_argument(
        "--compile", action="store_true", help="train with each GraphSAGE layer compiled by torch.compile"
    )
    parser.add_argument("--threads", type=int, default=0, help="torch CPU threads (default: torch's choice)")
    parser.add_argument(
        "--compare-dgl",
        action="store_true",
        help="time the CPU sampler against DGL 2.1.0 (its own venv, install-dgl.sh) and print the ratio",
    )
    parser.add_argument(
        "--compare-batches", type=int, default=60, help="--compare-dgl: timed batches per run (default 60)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="--compare-dgl: alternating runs per sampler (default 5)")
    options = parser.parse_args()
    retain_freed_memory()  # as the trainer does
    if options.threads:
        torch.set_num_threads(options.threads)
    fanout = [int(k) for k in options.fanout.split(",")]
    if options.products:
        options.scale, options.degree, options.feature_dim = 21, 60, 100

    print(
        f"Trainyard runtime sampling benchmark — torch {torch.__version__}, "
        f"{platform.processor() or platform.machine()}, {torch.get_num_threads()} CPU threads"
    )
    started = time.perf_counter()
    raw = rmat(options.scale, options.degree, options.feature_dim, num_classes=8, seed=0)
    edge_index, _ = both_directions(raw.edge_index)
    store = GraphStore.from_edge_index(edge_index, raw.num_nodes, raw.features)
    dataset = GraphDataset(store, raw.labels)
    del raw, edge_index
    index_bytes = store.indices.numel() * store.indices.element_size()
    pointer_bytes = store.indptr.numel() * store.indptr.element_size()
    print(
        f"graph: RMAT scale {options.scale} (Graph500 a=.57 b=.19 c=.19 d=.05): {store.num_nodes:,} nodes, "
        f"{store.num_edges:,} directed edges (avg degree {store.num_edges / store.num_nodes:.1f}), "
        f"built in {time.perf_counter() - started:.1f}s"
    )
    print(
        f"graph store: structure {store.structure_bytes() / 2**20:.1f} MiB = "
        f"{index_bytes / store.num_edges:.2f} bytes/edge (int32 indices) + {pointer_bytes / store.num_nodes:.2f} "
        f"bytes/node (int64 indptr) = {store.structure_bytes() / store.num_edges:.2f} bytes per edge all in; "
        f"features {store.features.numel() * store.features.element_size() / 2**20:.1f} MiB"
    )
    if options.compare_dgl:
        compare_with_dgl(store, fanout, options.batch, options.compare_batches, options.rounds)
        return
    print(
        f"workload: fanout {fanout}, batch {options.batch} seeds, GraphSAGE hidden 64 on {options.feature_dim} features"
    )

    devices = [] if options.cuda_only else [torch.device("cpu")]
    if torch.cuda.is_available():
        devices.append(torch.device("cuda"))
    else:
        print("CUDA: not available")
    for device in devices:
        placed = dataset if device.type == "cpu" else GraphDataset(store.to(device), dataset.labels.to(device))
        name = "CPU" if device.type == "cpu" else f"CUDA ({torch.cuda.get_device_name(device)})"
        sampling = measure_sampling(placed.store, fanout, options.batch, options.sampling_batches, device)
        print(
            f"{name}: sampling {sampling['edges_per_s'] / 1e6:.2f} M sampled edges/s, "
            f"{sampling['batches_per_s']:.2f} mini-batches/s ({sampling['edges_per_batch'] / 1e3:.0f}k edges/batch, "
            f"{options.sampling_batches} batches)"
        )
        trace = f"{options.profile}-{device.type}.json" if options.profile else ""
        training = measure_training(
            placed, fanout, options.batch, options.training_batches, device, trace, options.compile
        )
        basis = f"estimated from {options.training_batches} batches" if options.training_batches else "one whole epoch"
        basis += ", layers compiled" if options.compile else ""
        print(
            f"{name}: GraphSAGE training {training['seconds_per_batch']:.3f} s/batch -> "
            f"{training['seconds_per_epoch']:.2f} s/epoch ({training['batches_per_epoch']} batches of {options.batch}; "
            f"{basis}); mean training loss over those batches {training['mean_loss']:.4f}"
        )
        if options.products:
            split_batches = -(-PRODUCTS_TRAINING_SEEDS // options.batch)
            print(
                f"{name}: at ogbn-products' training split ({PRODUCTS_TRAINING_SEEDS:,} seeds, {split_batches} "
                f"batches; the epoch of DGL's 1.69 s) {training['seconds_per_batch'] * split_batches:.2f} s/epoch"
            )


if __name__ == "__main__":
    main()
