"""Batches sampled ahead on a side CUDA stream are the batches the loader makes (plain iteration elsewhere)."""

import threading
from types import SimpleNamespace

import pytest
import torch
from conftest import DEVICES

from trainyard_runtime.data.dataset import GraphDataset
from trainyard_runtime.loader import NodeBatchLoader
from trainyard_runtime.loader.prefetch import prefetched
from trainyard_runtime.sampler import NeighborSampler


@pytest.mark.parametrize("device", DEVICES, ids=str)
def test_prefetched_batches_equal_the_loaders(rmat_store, device):
    store = rmat_store.to(device)
    dataset = GraphDataset(store, torch.zeros(store.num_nodes, dtype=torch.int64, device=device))

    def loader():
        sampler = NeighborSampler(store, [6, 4], seed=7, native=False)
        return NodeBatchLoader(dataset, sampler, torch.arange(300), 64, device, shuffle=True, seed=1)

    plain, ahead = list(loader()), list(prefetched(loader(), device))
    assert len(plain) == len(ahead) == 5
    for a, b in zip(plain, ahead, strict=True):
        assert torch.equal(a.node, b.node) and torch.equal(a.edge_index, b.edge_index)
        assert torch.equal(a.x, b.x) and a.num_sampled_nodes == b.num_sampled_nodes


@pytest.mark.parametrize("device", DEVICES, ids=str)
def test_an_error_while_sampling_reaches_the_training_loop(device):
    def failing():
        yield SimpleNamespace(x=torch.ones(2, device=device))
        raise ValueError("row 7 has no neighbours")

    batches = prefetched(failing(), device)
    next(batches)
    with pytest.raises(ValueError, match="row 7"):
        next(batches)


@pytest.mark.parametrize("device", DEVICES, ids=str)
def test_leaving_early_ends_the_sampling_thread(rmat_store, device):
    store = rmat_store.to(device)
    dataset = GraphDataset(store, torch.zeros(store.num_nodes, dtype=torch.int64, device=device))
    sampler = NeighborSampler(store, [6, 4], seed=7, native=False)
    endless = NodeBatchLoader(dataset, sampler, torch.arange(300), 64, device, infinite=True)
    batches = prefetched(endless, device)
    for _ in range(3):
        next(batches)
    batches.close()
    assert not any(thread.name == "trainyard-sampling" for thread in threading.enumerate())
