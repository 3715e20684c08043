"""The tensor sampling path (what CUDA runs) issues few operations and one device-to-host wait per batch.

On a GPU the tensor sampler was bound by the host issuing kernels and waiting for results, not by the kernels.
Counted here on CPU, where every ATen operator passes through the same dispatcher: a dispatch mode sees each
call, views included, and flags the ones that make a CUDA host wait for the device.
"""

import contextlib
import warnings
from collections import Counter

import pytest
import torch
from conftest import DEVICES
from torch.utils._python_dispatch import TorchDispatchMode

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.data.edge_lists import both_directions
from trainyard_runtime.data.generators import rmat
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.loader.node_loader import to_data
from trainyard_runtime.sampler import NeighborSampler

# Operators whose CUDA kernels copy a result to the host before returning (their output size or value).
_ALWAYS_SYNCHRONISING = {
    "aten._local_scalar_dense",
    "aten.item",
    "aten.nonzero",
    "aten.masked_select",
    "aten.bincount",
    "aten.unique",
    "aten._unique",
    "aten._unique2",
    "aten.unique_dim",
    "aten.unique_consecutive",
    "aten.equal",
    "aten.is_nonzero",
}


def synchronises(func, args, kwargs) -> bool:
    name = str(func.overloadpacket)
    if name in _ALWAYS_SYNCHRONISING:
        return True
    if name == "aten.repeat_interleave":
        return kwargs.get("output_size") is None
    if name in ("aten.index", "aten.index_put", "aten.index_put_"):  # a boolean mask index is a nonzero
        return any(index is not None and index.dtype == torch.bool for index in args[1])
    if name == "aten._to_copy":  # a copy to the host (the only kind on CPU asks for the device explicitly)
        return kwargs.get("device") == torch.device("cpu")
    return False


class OperatorCount(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.operators: Counter = Counter()
        self.synchronising: Counter = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.operators[str(func.overloadpacket)] += 1
        if synchronises(func, args, kwargs):
            self.synchronising[str(func.overloadpacket)] += 1
        return func(*args, **kwargs)


def products_shaped_batch(device: torch.device):
    """A power-law graph (hubs far above the fanouts), fanout [15, 10, 5] and 1,024 seeds, as in issue 23."""
    raw = rmat(scale=13, avg_degree=16, feature_dim=8, num_classes=4, seed=5)
    edge_index, _ = both_directions(raw.edge_index)
    store = GraphStore.from_edge_index(edge_index, raw.num_nodes, raw.features).to(device)
    seeds = torch.randperm(store.num_nodes, generator=torch.Generator().manual_seed(1))[:1024].to(device)
    dataset = GraphDataset(store, raw.labels.to(device))
    return dataset, NeighborSampler(store, [15, 10, 5], seed=2, native=False), seeds


@pytest.mark.parametrize("device", DEVICES, ids=str)
def test_a_tensor_path_batch_takes_one_synchronisation_and_at_most_100_operations(device):
    dataset, sampler, seeds = products_shaped_batch(device)
    to_data(dataset, sampler.sample(seeds), device)  # the first batch of a size lays out its buffers
    with OperatorCount() as count, host_waits(device) as waits:
        data = to_data(dataset, sampler.sample(seeds), device)
    assert data.num_edges > 10_000
    total = sum(count.operators.values())
    print(f"{device}: {total} operators, synchronising: {dict(count.synchronising)}, CUDA host waits: {len(waits)}")
    assert sum(count.synchronising.values()) <= 1, count.synchronising
    assert len(waits) <= 1, [str(w.message) for w in waits]
    assert total <= 100, f"{total} operators: {count.operators.most_common()}"


@contextlib.contextmanager
def host_waits(device: torch.device):
    """On CUDA, the synchronisations CUDA itself reports (``set_sync_debug_mode``), including any the
    dispatcher cannot name; elsewhere none."""
    waits: list = []
    if device.type != "cuda":
        yield waits
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            yield waits
        finally:
            torch.cuda.set_sync_debug_mode("default")
    # Only the reports of a wait: the mode also warns, once, that it is a prototype.
    waits.extend(w for w in caught if "called a synchronizing" in str(w.message))


def test_the_counter_sees_the_usual_synchronisations():
    values = torch.arange(10)
    with OperatorCount() as count:
        int(values.max())
        values[values > 4]
        values.nonzero()
        torch.repeat_interleave(values, values)
        torch.repeat_interleave(values, values, output_size=45)  # sized: no wait
        values.to("cpu", copy=True)
    assert sum(count.synchronising.values()) == 5, count.synchronising
