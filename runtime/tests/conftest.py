import pytest
import torch

from trainyard_runtime.data.edge_lists import both_directions
from trainyard_runtime.data.generators import rmat
from trainyard_runtime.data.graph_store import GraphStore

# CI shares two cores with a Java build; one intra-op thread keeps the tests predictable.
torch.set_num_threads(1)

DEVICES = [torch.device("cpu")] + ([torch.device("cuda")] if torch.cuda.is_available() else [])
# Sampler implementations: (device of the store, native kernels?). On CPU both the native kernels (the default)
# and the tensor code the GPU runs are checked.
SAMPLER_BACKENDS = [
    pytest.param((torch.device("cpu"), True), id="cpu-native"),
    pytest.param((torch.device("cpu"), False), id="cpu-tensor"),
] + ([pytest.param((torch.device("cuda"), False), id="cuda")] if torch.cuda.is_available() else [])


@pytest.fixture(scope="session")
def rmat_store() -> GraphStore:
    """A small power-law graph: hubs far above any fanout next to degree-1 leaves."""
    raw = rmat(scale=10, avg_degree=16, feature_dim=4, num_classes=4, seed=3)
    edge_index, weight = both_directions(raw.edge_index, raw.edge_weight)
    return GraphStore.from_edge_index(edge_index, raw.num_nodes, raw.features, weight)


def star_forest(num_stars: int, leaves: int, weights: torch.Tensor | None = None) -> GraphStore:
    """``num_stars`` disjoint stars; centre ``s * (leaves + 1)`` has leaves at the next ``leaves`` ids."""
    centre = torch.arange(num_stars) * (leaves + 1)
    leaf = centre.repeat_interleave(leaves) + torch.arange(1, leaves + 1).repeat(num_stars)
    src = torch.cat([centre.repeat_interleave(leaves), leaf])
    dst = torch.cat([leaf, centre.repeat_interleave(leaves)])
    num_nodes = num_stars * (leaves + 1)
    weight = None
    if weights is not None:
        weight = torch.cat([weights.repeat(num_stars), torch.ones(num_stars * leaves)])
    return GraphStore.from_edge_index(torch.stack([src, dst]), num_nodes, torch.zeros(num_nodes, 1), weight)


def chi_square(observed: torch.Tensor, expected: torch.Tensor) -> float:
    return float(((observed - expected) ** 2 / expected).sum())
