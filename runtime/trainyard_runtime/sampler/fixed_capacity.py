"""Uniform neighbour sampling as tensor code that never waits for the device until the batch is complete.

This is the path CUDA takes (and the CPU with ``native=False``). A hop has a fixed capacity, ``fanout`` slots
per slot of the previous hop, whether or not the node has that many neighbours or is a node at all (a slot
whose node was seen before stays empty). Masks say which slots hold a sampled edge and which a node seen for
the first time, so no hop needs to know how many nodes the previous one found. At the end one device-to-host
read of the counts sizes one compaction of all hops: one synchronisation per batch and about a hundred tensor
operations, where compacting every hop cost six and ~570 (the host issuing kernels was the GPU's bottleneck).

Every operation writes into buffers laid out once per batch size (``out=``), read back through views made
then: views and concatenations cost host time per call like any other operation.

The capacity is the product of the fanouts (1,024 seeds with ``[15, 10, 5]``: 0.94 M slots), most of them empty
on a power-law graph; a few bytes each per operation, which a GPU streams in microseconds.
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass

import torch

from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.sampler.floyd import DistinctPositions
from trainyard_runtime.sampler.subgraph import SampledSubgraph

# index_reduce_ is the scatter that takes the store's int32 node ids as an index; it warns once that it is beta.
warnings.filterwarnings("ignore", message=r"index_reduce\(\) is in beta")

_ABSENT = torch.iinfo(torch.int64).max  # first-slot table entry of a node the batch has not reached


@dataclass
class _HopSlots:
    """One hop's slots in the batch buffers: views shaped ``[seeds, fanout_1, …, fanout_h, 1]`` (and flat)."""

    position: torch.Tensor  # node-slot number of each slot (constant)
    position_flat: torch.Tensor
    neighbour: torch.Tensor  # global id drawn into the slot (meaningless where not ``valid``)
    neighbour_flat: torch.Tensor
    target: torch.Tensor  # the neighbour where ``valid``, else the sink
    target_flat: torch.Tensor
    first: torch.Tensor  # node-slot number of the neighbour's first occurrence in the batch
    first_flat: torch.Tensor
    valid: torch.Tensor  # the slot holds a sampled edge
    new: torch.Tensor  # the slot holds a node seen for the first time
    node: torch.Tensor  # the neighbour where ``new``, else the sink: the next hop's frontier


class BatchLayout:
    """The slots of a batch of ``batch_size`` seeds, and the buffers every batch of that size reuses.

    Node slots are the seeds', then each hop's (``capacity_h = capacity_{h-1} * fanout_h``). Every slot of a hop
    is also an edge slot (its neighbour → the frontier slot it was drawn for). The mask covers the node slots
    then the edge slots, so one prefix sum numbers the new nodes and the sampled edges together.
    """

    def __init__(self, batch_size: int, fanouts: list[int], index_dtype: torch.dtype, device: torch.device):
        shapes = [[batch_size]]
        for fanout in fanouts:
            shapes.append(shapes[-1] + [fanout])
        capacity = [math.prod(shape) for shape in shapes]
        start = [sum(capacity[:h]) for h in range(len(shapes) + 1)]
        num_nodes = start[-1]  # node slots
        length = 2 * num_nodes - batch_size  # node slots, then edge slots

        def buffer(size, dtype=torch.int64):
            return torch.zeros(size, dtype=dtype, device=device)

        position = torch.arange(num_nodes, device=device)
        neighbour, target, self.node = buffer(num_nodes, index_dtype), buffer(num_nodes), buffer(num_nodes)
        self.mask = buffer(length, torch.bool)
        self.prefix = buffer(length + 1)  # prefix[i]: marked slots before slot i (local ids, edge ranks)
        self.marked_up_to = self.prefix[1:]  # cumsum target
        self.counting = torch.arange(1, length + 1, device=device)
        # Row 0: first node slot of the edge's neighbour (written by each hop); row 1: its frontier slot.
        self.ends = buffer((2, length))
        self.seed_position = position[:batch_size]
        self.seed_new = self.mask[:batch_size]
        self.seed_node = self.node[:batch_size]
        self.hops = []
        for h in range(1, len(shapes)):
            nodes = slice(start[h], start[h + 1])
            edges = slice(num_nodes + start[h] - batch_size, num_nodes + start[h + 1] - batch_size)
            shape = shapes[h] + [1]
            self.ends[1, edges] = start[h - 1] + torch.arange(capacity[h], device=device) // fanouts[h - 1]
            self.hops.append(
                _HopSlots(
                    position[nodes].view(shape),
                    position[nodes],
                    neighbour[nodes].view(shape),
                    neighbour[nodes],
                    target[nodes].view(shape),
                    target[nodes],
                    self.ends[0, edges].view(shape),
                    self.ends[0, edges],
                    self.mask[edges].view(shape),
                    self.mask[nodes].view(shape),
                    self.node[nodes].view(shape),
                )
            )
        self.seed_frontier = self.seed_node.view(batch_size, 1)
        # prefix entries holding the running totals after each hop's node slots, then after its edge slots
        node_totals = [start[h + 1] for h in range(len(shapes))]
        edge_totals = [num_nodes + start[h + 1] - batch_size for h in range(1, len(shapes))]
        self.totals_at = torch.tensor(node_totals + edge_totals, device=device)


class FixedCapacitySampler:
    """Samples ``fanouts[h]`` distinct neighbours per node and hop, uniformly, in fixed-capacity hops."""

    def __init__(self, store: GraphStore, fanouts: list[int], generator: torch.Generator):
        if any(fanout <= 0 for fanout in fanouts):
            raise ValueError(f"fixed-capacity hops need positive fanouts, got {fanouts}")
        self.store = store
        self.fanouts = list(fanouts)
        self.generator = generator
        device = store.device
        # (start, end) of every row, plus an empty row for the sink id ``num_nodes`` that empty slots carry.
        indptr = torch.cat([store.indptr, store.indptr[-1:]])
        self._row_bounds = indptr.unfold(0, 2, 1)
        self._sink = torch.tensor([store.num_nodes], device=device)
        # Node-slot number of each node's first occurrence in the batch being sampled; one extra entry for the sink.
        self._first_slot = torch.full((store.num_nodes + 1,), _ABSENT, device=device)
        self._choosers = [DistinctPositions(fanout, device) for fanout in fanouts]
        self._layouts: dict[int, BatchLayout] = {}

    @staticmethod
    def applies_to(store: GraphStore, fanouts: list[int]) -> bool:
        """Whether the fixed-capacity path can sample this: every fanout bounded, and more edges than the
        largest fanout (an empty slot's position may reach that far before its row)."""
        return all(fanout > 0 for fanout in fanouts) and store.num_edges > max(fanouts)

    def _layout(self, batch_size: int) -> BatchLayout:
        if batch_size not in self._layouts:
            self._layouts[batch_size] = BatchLayout(
                batch_size, self.fanouts, self.store.indices.dtype, self.store.device
            )
        return self._layouts[batch_size]

    def sample(self, seeds: torch.Tensor, excluded_keys: torch.Tensor | None = None) -> SampledSubgraph:
        """``seeds``: int64 global ids on the store's device; ``excluded_keys``: sorted ``target * num_nodes +
        neighbour`` keys of edges that must not be sampled, or None."""
        layout = self._layout(seeds.numel())
        first_slot, sink = self._first_slot, self._sink
        # Seeds: a repeated seed keeps the local id of its first occurrence.
        first_slot.index_reduce_(0, seeds, layout.seed_position, "amin")
        seed_first = first_slot.take(seeds)
        torch.eq(seed_first, layout.seed_position, out=layout.seed_new)
        torch.where(layout.seed_new, seeds, sink, out=layout.seed_node)
        frontier = layout.seed_frontier
        for chooser, slots in zip(self._choosers, layout.hops, strict=True):
            self._sample_hop(frontier, chooser, slots, excluded_keys)
            frontier = slots.node
        # The one synchronisation: how many nodes and edges each hop found.
        torch.cumsum(layout.mask, 0, out=layout.marked_up_to)
        totals = layout.prefix[layout.totals_at].to("cpu", copy=True).tolist()
        hops = len(self.fanouts)
        num_nodes, num_edges = totals[hops], totals[-1] - totals[hops]
        marked = torch.searchsorted(layout.marked_up_to, layout.counting)  # slot of the k-th marked slot
        node_slots, edge_slots, _ = marked.split([num_nodes, num_edges, marked.numel() - num_nodes - num_edges])
        node = layout.node.take(node_slots)
        edge_index = layout.prefix.take(layout.ends.index_select(1, edge_slots))
        first_slot.index_fill_(0, node, _ABSENT)
        node_counts = [totals[0]] + [b - a for a, b in itertools.pairwise(totals[: hops + 1])]
        edge_counts = [b - a for a, b in itertools.pairwise(totals[hops:])]  # totals[hops] is num_nodes
        return SampledSubgraph(
            node,
            edge_index,
            mean_weights(edge_index[1]),
            totals[0],
            node_counts,
            edge_counts,
            layout.prefix.take(seed_first),
        )

    def _sample_hop(
        self,
        frontier: torch.Tensor,
        chooser: DistinctPositions,
        slots: _HopSlots,
        excluded_keys: torch.Tensor | None,
    ) -> None:
        start, end = self._row_bounds[frontier].split(1, -1)  # [..., 1, 1] each
        degree = end - start
        position = chooser(degree, self.generator)
        torch.le(position, degree, out=slots.valid)
        torch.take(self.store.indices, end - position, out=slots.neighbour)
        if excluded_keys is not None:
            self._drop_excluded(frontier, slots, excluded_keys)
        torch.where(slots.valid, slots.neighbour, self._sink, out=slots.target)
        self._first_slot.index_reduce_(0, slots.target_flat, slots.position_flat, "amin")
        torch.index_select(self._first_slot, 0, slots.neighbour_flat, out=slots.first_flat)
        torch.eq(slots.first, slots.position, out=slots.new)
        torch.where(slots.new, slots.neighbour, self._sink, out=slots.node)

    def _drop_excluded(self, frontier: torch.Tensor, slots: _HopSlots, excluded_keys: torch.Tensor) -> None:
        keys = frontier.unsqueeze(-1) * self.store.num_nodes + slots.neighbour
        found = excluded_keys.take(torch.searchsorted(excluded_keys, keys).clamp_(max=excluded_keys.numel() - 1))
        slots.valid.logical_and_(found != keys)


def mean_weights(target: torch.Tensor) -> torch.Tensor:
    """1 / (edges into the target) per edge, for edges sorted by target: the weights of a neighbourhood mean."""
    count = torch.searchsorted(target, target, side="right") - torch.searchsorted(target, target)
    return count.reciprocal()
