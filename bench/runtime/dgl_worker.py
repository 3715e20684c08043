"""DGL's side of ``sampling_bench.py --compare-dgl``; runs in bench/runtime/.venv-dgl (see install-dgl.sh).

    .venv-dgl/bin/python dgl_worker.py <folder written by the benchmark>

Loads the benchmark's CSR graph and seed batches, then, for every ``run`` line on stdin, samples all batches
with DGL's own ``NeighborSampler.sample_blocks`` (``dgl.sampling.sample_neighbors`` hop by hop on the CSC
graph, then ``dgl.to_block`` relabelling, as DGL's data loaders do) and answers one JSON line with the timing.
It stays alive between runs so that the two samplers can alternate without paying DGL's start-up each time.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import dgl
import numpy as np
import torch


def main() -> None:
    folder = Path(sys.argv[1])
    spec = json.loads((folder / "workload.json").read_text())
    indptr = torch.from_numpy(np.load(folder / "indptr.npy"))
    indices = torch.from_numpy(np.load(folder / "indices.npy").astype(np.int64))
    batches = torch.from_numpy(np.load(folder / "seeds.npy"))
    # The graph is symmetric, so its CSR is also its CSC: in-neighbours of v = neighbours of v.
    graph = dgl.graph(("csc", (indptr, indices, torch.tensor([], dtype=torch.int64))), num_nodes=spec["num_nodes"])
    graph = graph.formats("csc")
    # DGL lists fanouts from the input layer inwards: the first hop out of the seeds uses the last entry.
    sampler = dgl.dataloading.NeighborSampler(list(reversed(spec["fanout"])))
    for seeds in batches[: spec["warm_up"]]:
        sampler.sample_blocks(graph, seeds)
    print(
        json.dumps(
            {"ready": True, "dgl": dgl.__version__, "torch": torch.__version__, "threads": torch.get_num_threads()}
        ),
        flush=True,
    )
    for line in sys.stdin:
        if line.strip() != "run":
            continue
        edges = 0
        started = time.perf_counter()
        for seeds in batches[spec["warm_up"] :]:
            _, _, blocks = sampler.sample_blocks(graph, seeds)
            edges += sum(block.num_edges() for block in blocks)
        elapsed = time.perf_counter() - started
        print(json.dumps({"seconds": elapsed, "edges": edges, "batches": len(batches) - spec["warm_up"]}), flush=True)


if __name__ == "__main__":
    main()
