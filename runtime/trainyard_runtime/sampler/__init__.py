"""Vectorised subgraph samplers (CPU and CUDA): uniform and weighted neighbour, layer-wise, random walk."""

from trainyard_runtime.sampler.base import HopSampler
from trainyard_runtime.sampler.layerwise import LayerwiseSampler
from trainyard_runtime.sampler.neighbor import NeighborSampler, WeightedNeighborSampler
from trainyard_runtime.sampler.random_walk import RandomWalkSampler
from trainyard_runtime.sampler.subgraph import SampledSubgraph

__all__ = [
    "HopSampler",
    "LayerwiseSampler",
    "NeighborSampler",
    "RandomWalkSampler",
    "SampledSubgraph",
    "WeightedNeighborSampler",
]
