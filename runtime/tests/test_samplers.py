"""Sampler behaviour a user relies on: real edges, no duplicates, all small neighbourhoods, right distribution."""

import pytest
import torch
from conftest import SAMPLER_BACKENDS, chi_square, star_forest

from trainyard_runtime.sampler import (
    LayerwiseSampler,
    NeighborSampler,
    RandomWalkSampler,
    WeightedNeighborSampler,
)

# Chi-square critical values at p = 0.001: a correct sampler fails these one run in a thousand.
CHI2_CRITICAL_19_DOF = 43.82
CHI2_CRITICAL_9_DOF = 27.88


def edge_keys(store):
    rows = torch.repeat_interleave(torch.arange(store.num_nodes), store.indptr.diff().cpu())
    return set((rows * store.num_nodes + store.indices.cpu().long()).tolist())


def sampled_graph_edges(subgraph):
    """Global (target, neighbour) pairs of the sampled edges: the CSR edge they were drawn from."""
    node = subgraph.node.cpu()
    edge_index = subgraph.edge_index.cpu()
    return node[edge_index[1]], node[edge_index[0]]


def make_samplers(store, native=None):
    return {
        "uniform": NeighborSampler(store, [6, 4], seed=1, native=native),
        "weighted": WeightedNeighborSampler(store, [6, 4], seed=1, native=native),
        "layerwise": LayerwiseSampler(store, [150, 300], seed=1),
    }


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
@pytest.mark.parametrize("kind", ["uniform", "weighted", "layerwise"])
def test_every_sampled_edge_exists_and_none_repeats(rmat_store, backend, kind):
    device, native = backend
    store = rmat_store.to(device)
    sampler = make_samplers(store, native)[kind]
    known = edge_keys(rmat_store)
    seeds = torch.randperm(store.num_nodes, generator=torch.Generator().manual_seed(0))[:128]
    subgraph = sampler.sample(seeds)
    target, neighbour = sampled_graph_edges(subgraph)
    keys = (target * store.num_nodes + neighbour).tolist()
    assert subgraph.num_edges > 200
    assert set(keys) <= known
    assert len(keys) == len(set(keys)), "a neighbour was sampled twice for one node"
    assert torch.equal(subgraph.node[: subgraph.batch_size].cpu(), seeds)
    assert len(subgraph.node.unique()) == subgraph.num_nodes
    assert sum(subgraph.num_sampled_nodes) == subgraph.num_nodes
    assert sum(subgraph.num_sampled_edges) == subgraph.num_edges


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
def test_fanout_is_respected_and_small_neighbourhoods_come_whole(rmat_store, backend):
    device, native = backend
    store = rmat_store.to(device)
    fanout = 6
    seeds = torch.arange(0, 400)
    subgraph = NeighborSampler(store, [fanout], seed=5, native=native).sample(seeds)
    target, neighbour = sampled_graph_edges(subgraph)
    degree = rmat_store.degree(seeds)
    assert (degree > fanout).any() and (degree <= fanout).any()
    for seed, deg in zip(seeds.tolist(), degree.tolist(), strict=True):
        got = set(neighbour[target == seed].tolist())
        if deg <= fanout:
            assert got == set(rmat_store.neighbours(seed).tolist())
        else:
            assert len(got) == fanout


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
def test_uniform_sampling_is_uniform_on_a_star(backend):
    device, native = backend
    leaves, fanout, stars = 20, 5, 800
    store = star_forest(stars, leaves).to(device)
    centres = torch.arange(stars) * (leaves + 1)
    subgraph = NeighborSampler(store, [fanout], seed=11, native=native).sample(centres)
    target, neighbour = sampled_graph_edges(subgraph)
    assert neighbour.numel() == stars * fanout
    observed = torch.bincount(neighbour - target - 1, minlength=leaves).double()
    expected = torch.full((leaves,), stars * fanout / leaves, dtype=torch.float64)
    assert chi_square(observed, expected) < CHI2_CRITICAL_19_DOF


def test_uniformity_check_rejects_a_biased_choice():
    """The chi-square bound above is tight enough to catch "always the first neighbours"."""
    leaves, fanout, stars = 20, 5, 800
    observed = torch.zeros(leaves, dtype=torch.float64)
    observed[:fanout] = stars
    expected = torch.full((leaves,), stars * fanout / leaves, dtype=torch.float64)
    assert chi_square(observed, expected) > CHI2_CRITICAL_19_DOF


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
def test_weighted_sampling_follows_the_weights(backend):
    device, native = backend
    leaves, stars = 10, 4000
    weights = torch.arange(1, leaves + 1, dtype=torch.float32)
    store = star_forest(stars, leaves, weights).to(device)
    centres = torch.arange(stars) * (leaves + 1)
    subgraph = WeightedNeighborSampler(store, [1], seed=2, native=native).sample(centres)
    target, neighbour = sampled_graph_edges(subgraph)
    observed = torch.bincount(neighbour - target - 1, minlength=leaves).double()
    expected = (weights / weights.sum() * stars).double()
    assert chi_square(observed, expected) < CHI2_CRITICAL_9_DOF
    uniform = torch.full((leaves,), stars / leaves, dtype=torch.float64)
    assert chi_square(observed, uniform) > CHI2_CRITICAL_9_DOF  # and it is clearly not uniform


def test_weighted_sampling_without_replacement_takes_distinct_neighbours():
    leaves, stars = 10, 500
    store = star_forest(stars, leaves, torch.arange(1, leaves + 1, dtype=torch.float32))
    subgraph = WeightedNeighborSampler(store, [4], seed=3).sample(torch.arange(stars) * (leaves + 1))
    target, neighbour = sampled_graph_edges(subgraph)
    pairs = (target * store.num_nodes + neighbour).tolist()
    assert len(pairs) == stars * 4 == len(set(pairs))


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
@pytest.mark.parametrize("kind", ["uniform", "weighted", "layerwise"])
def test_excluded_label_edges_never_reach_message_passing(rmat_store, kind, backend):
    device, native = backend
    store = rmat_store.to(device)
    seeds = torch.arange(50)
    # Label edges: the first two edges of every seed, so the sampler is bound to meet some of them.
    firsts = [(s, n) for s in seeds.tolist() for n in rmat_store.neighbours(s)[:2].tolist()]
    labels = torch.tensor(firsts).T
    label_keys = set((labels[0] * rmat_store.num_nodes + labels[1]).tolist())
    label_keys |= set((labels[1] * rmat_store.num_nodes + labels[0]).tolist())

    def sampled_keys(subgraph):
        target, neighbour = sampled_graph_edges(subgraph)
        return set((target * rmat_store.num_nodes + neighbour).tolist())

    without = make_samplers(store, native)[kind].sample(seeds)
    assert sampled_keys(without) & label_keys, "the check needs label edges that would otherwise be sampled"
    excluded = make_samplers(store, native)[kind].sample(seeds, exclude_edges=labels)
    assert not sampled_keys(excluded) & label_keys
    assert excluded.num_edges > 0


def test_layerwise_keeps_to_the_node_budget_and_weights_are_means(rmat_store):
    sampler = LayerwiseSampler(rmat_store, [64, 96], seed=4)
    subgraph = sampler.sample(torch.arange(200, 264))
    assert subgraph.num_sampled_nodes[1] <= 64 and subgraph.num_sampled_nodes[2] <= 96
    totals = torch.zeros(subgraph.num_nodes).index_add_(0, subgraph.edge_index[1], subgraph.edge_weight)
    has_edges = torch.bincount(subgraph.edge_index[1], minlength=subgraph.num_nodes) > 0
    assert torch.allclose(totals[has_edges], torch.ones(int(has_edges.sum())))


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
def test_random_walk_neighbours_are_the_most_visited_nearby_nodes(backend):
    device, native = backend
    # A path 0-1-2-...-9: walks of length 2 reach at most 2 hops; the 1-hop nodes are visited most.
    src = torch.arange(9)
    edge_index = torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])])
    from trainyard_runtime.data.graph_store import GraphStore

    store = GraphStore.from_edge_index(edge_index, 10, torch.zeros(10, 1)).to(device)
    sampler = RandomWalkSampler(
        store, [2], num_walks=200, walk_length=2, restart_probability=0.3, seed=0, native=native
    )
    subgraph = sampler.sample(torch.tensor([5]))
    _, neighbour = sampled_graph_edges(subgraph)
    assert set(neighbour.tolist()) == {4, 6}
    far = RandomWalkSampler(store, [4], num_walks=200, walk_length=2, restart_probability=0.3, seed=0, native=native)
    _, neighbour = sampled_graph_edges(far.sample(torch.tensor([5])))
    assert set(neighbour.tolist()) == {3, 4, 6, 7}
    assert torch.isclose(far.sample(torch.tensor([5])).edge_weight.sum().cpu(), torch.tensor(1.0))


@pytest.mark.parametrize("backend", SAMPLER_BACKENDS)
def test_a_repeated_seed_keeps_the_local_id_of_its_first_occurrence(rmat_store, backend):
    device, native = backend
    sampler = NeighborSampler(rmat_store.to(device), [6, 4], seed=3, native=native)
    subgraph = sampler.sample(torch.tensor([5, 7, 5, 9, 7]))
    assert subgraph.batch_size == 3
    assert subgraph.node[:3].tolist() == [5, 7, 9]
    assert subgraph.seed_local.tolist() == [0, 1, 0, 2, 1]
    assert len(subgraph.node.unique()) == subgraph.num_nodes
    again = sampler.sample(torch.tensor([9, 5]))  # the lookup table was reset after the last batch
    assert again.node[:2].tolist() == [9, 5] and again.seed_local.tolist() == [0, 1]
