"""``sampling_bench.py --compare-dgl``: Trainyard's sampler and DGL 2.1.0's on the same graph, seeds and fanout.

DGL needs torch 2.2.1 and numpy < 2, so it runs in its own virtual environment (``install-dgl.sh``) as a
worker process (``dgl_worker.py``) that loads the same CSR arrays and seed batches from a temporary folder.
Runs alternate (ours, DGL, ours, DGL, ...) so that both see the same load on a shared machine; the medians
are reported.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler import NeighborSampler

HERE = Path(__file__).resolve().parent
DGL_PYTHON = HERE / ".venv-dgl" / "bin" / "python"
WARM_UP = 5


def time_trainyard(sampler: NeighborSampler, batches: torch.Tensor) -> dict:
    edges = 0
    started = time.perf_counter()
    for seeds in batches:
        edges += sampler.sample(seeds).num_edges
    return {"seconds": time.perf_counter() - started, "edges": edges, "batches": len(batches)}


def rates(run: dict) -> tuple[float, float]:
    return run["edges"] / run["seconds"], run["batches"] / run["seconds"]


def compare_with_dgl(store: GraphStore, fanout: list[int], batch: int, num_batches: int, rounds: int) -> None:
    if not DGL_PYTHON.exists():
        sys.exit(f"--compare-dgl needs DGL's virtual environment: run bash {HERE / 'install-dgl.sh'}")
    generator = torch.Generator().manual_seed(7)
    batches = torch.randperm(store.num_nodes, generator=generator)[: (WARM_UP + num_batches) * batch].view(-1, batch)
    sampler = NeighborSampler(store, fanout, seed=1)
    with tempfile.TemporaryDirectory(prefix="trainyard-dgl-compare-") as folder:
        np.save(Path(folder) / "indptr.npy", store.indptr.numpy())
        np.save(Path(folder) / "indices.npy", store.indices.numpy())
        np.save(Path(folder) / "seeds.npy", batches.numpy())
        workload = {"num_nodes": store.num_nodes, "fanout": fanout, "warm_up": WARM_UP}
        (Path(folder) / "workload.json").write_text(json.dumps(workload))
        worker = subprocess.Popen(
            [str(DGL_PYTHON), str(HERE / "dgl_worker.py"), folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            ready = json.loads(worker.stdout.readline() or "{}")
            if not ready.get("ready"):
                sys.exit("the DGL worker did not start (see its error above)")
            print(
                f"DGL {ready['dgl']} on torch {ready['torch']}, {ready['threads']} threads, "
                f"in {DGL_PYTHON.parent.parent}"
            )
            for seeds in batches[:WARM_UP]:
                sampler.sample(seeds)
            ours, theirs = [], []
            for round_number in range(1, rounds + 1):
                ours.append(time_trainyard(sampler, batches[WARM_UP:]))
                worker.stdin.write("run\n")
                worker.stdin.flush()
                theirs.append(json.loads(worker.stdout.readline()))
                (our_edges, our_batches), (dgl_edges, dgl_batches) = rates(ours[-1]), rates(theirs[-1])
                print(
                    f"round {round_number}: trainyard {our_edges / 1e6:.2f} M edges/s {our_batches:.1f} batches/s | "
                    f"DGL {dgl_edges / 1e6:.2f} M edges/s {dgl_batches:.1f} batches/s"
                )
        finally:
            worker.stdin.close()
            worker.wait(timeout=60)
    our_edges = statistics.median(rates(run)[0] for run in ours)
    our_batches = statistics.median(rates(run)[1] for run in ours)
    dgl_edges = statistics.median(rates(run)[0] for run in theirs)
    dgl_batches = statistics.median(rates(run)[1] for run in theirs)
    print(
        f"workload: {num_batches} batches of {batch} distinct seeds, fanout {fanout}, "
        f"median of {rounds} alternating runs"
    )
    print(
        f"edges per batch: trainyard {ours[0]['edges'] / num_batches / 1e3:.1f}k, "
        f"DGL {theirs[0]['edges'] / num_batches / 1e3:.1f}k"
    )
    print(
        f"trainyard (native, {torch.get_num_threads()} threads): {our_edges / 1e6:.2f} M sampled edges/s, "
        f"{our_batches:.1f} batches/s"
    )
    print(
        f"DGL {ready['dgl']} sample_blocks:        {dgl_edges / 1e6:.2f} M sampled edges/s, {dgl_batches:.1f} batches/s"
    )
    print(f"ratio trainyard / DGL: {our_edges / dgl_edges:.2f}x edges/s, {our_batches / dgl_batches:.2f}x batches/s")
