"""The native CPU sampler: reproducible for a seed whatever the thread count, and the same contract as the
tensor implementation (seeds first, relabelled edges that exist)."""

import pytest
import torch

from trainyard_runtime.sampler import NeighborSampler, RandomWalkSampler, WeightedNeighborSampler


def build(kind, store, seed):
    if kind == "uniform":
        return NeighborSampler(store, [15, 10, 5], seed=seed)
    if kind == "weighted":
        return WeightedNeighborSampler(store, [15, 10, 5], seed=seed)
    return RandomWalkSampler(store, [8, 4], num_walks=8, walk_length=3, seed=seed)


def sample_twice(kind, store, seed, seeds):
    sampler = build(kind, store, seed)
    return [sampler.sample(seeds) for _ in range(2)]


def same(first, second):
    return (
        torch.equal(first.node, second.node)
        and torch.equal(first.edge_index, second.edge_index)
        and torch.equal(first.edge_weight, second.edge_weight)
    )


@pytest.fixture
def threads():
    before = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(before)


@pytest.mark.parametrize("kind", ["uniform", "weighted", "random_walk"])
def test_a_seed_gives_the_same_batches_with_one_thread_or_several(rmat_store, threads, kind):
    seeds = torch.randperm(rmat_store.num_nodes, generator=torch.Generator().manual_seed(1))[:600]
    assert build(kind, rmat_store, 7).native
    threads(1)
    single = sample_twice(kind, rmat_store, 7, seeds)
    threads(4)
    several = sample_twice(kind, rmat_store, 7, seeds)
    assert all(same(a, b) for a, b in zip(single, several, strict=True))
    assert not same(single[0], single[1]), "consecutive batches must draw fresh randomness"
    other_seed = sample_twice(kind, rmat_store, 8, seeds)
    assert not same(single[0], other_seed[0])


def test_seeds_come_first_in_order_and_repeated_seeds_share_a_local_id(rmat_store):
    seeds = torch.tensor([40, 3, 40, 977, 3])
    subgraph = NeighborSampler(rmat_store, [4, 4], seed=0).sample(seeds)
    assert subgraph.node[: subgraph.batch_size].tolist() == [40, 3, 977]
    assert subgraph.seed_local.tolist() == [0, 1, 0, 2, 1]


def test_fanout_minus_one_takes_every_neighbour(rmat_store):
    hub = int(torch.argmax(rmat_store.indptr.diff()))
    subgraph = NeighborSampler(rmat_store, [-1], seed=0).sample(torch.tensor([hub]))
    got = sorted(subgraph.node[subgraph.edge_index[0]].tolist())
    assert got == sorted(rmat_store.neighbours(hub).tolist())
