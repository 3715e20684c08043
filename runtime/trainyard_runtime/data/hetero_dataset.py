"""A heterogeneous training dataset: one graph store per edge type over a shared global id space.

Node types are numbered in graphMetadata's (condensed) order; type ``t``'s nodes take the global ids
``offsets[t] .. offsets[t + 1] - 1``, as PyG's ``to_homogeneous`` numbers them. Each edge type ``(src, rel, dst)``
has its own CSR whose rows are the ``dst`` nodes and whose columns are their ``src`` neighbours, so sampling a hop
for a frontier is the homogeneous samplers' job, run once per edge type.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import torch

from trainyard_runtime.config.graph_metadata import EdgeType, GraphMetadata
from trainyard_runtime.config.params import ConfigError, parse_params
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.data import hetero_generators
from trainyard_runtime.data.dataset import chosen_source, data_params
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.data.hetero_generators import RawHeteroGraph
from trainyard_runtime.data.splits import split_edges, split_nodes


@dataclass
class HeteroGraphDataset:
    """``splits`` holds global ids: ``train_edges``/``val_edges``/``test_edges`` ([2, E] anchor → positive of the
    supervision edge type) and ``hard_negatives`` ([2, K] anchor → hard negative) for link prediction, or
    ``train_nodes``/``val_nodes``/``test_nodes`` of the supervision node type for node classification. The
    stores lack the validation and test supervision edges (in either direction)."""

    node_types: tuple[str, ...]
    edge_types: tuple[EdgeType, ...]
    offsets: torch.Tensor  # [T + 1]
    features: dict[str, torch.Tensor]
    labels: dict[str, torch.Tensor]
    stores: dict[EdgeType, GraphStore]
    splits: dict[str, torch.Tensor] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        return int(self.offsets[-1])

    def type_range(self, node_type: str) -> tuple[int, int]:
        index = self.node_types.index(node_type)
        return int(self.offsets[index]), int(self.offsets[index + 1])

    def node_type_of(self, nodes: torch.Tensor) -> torch.Tensor:
        """Index into ``node_types`` of every global id."""
        return torch.bucketize(nodes, self.offsets.to(nodes.device)[1:], right=True)

    def num_classes(self, node_type: str) -> int:
        labels = self.labels.get(node_type)
        return int(labels.max()) + 1 if labels is not None and labels.numel() else 0

    def to(self, device: torch.device) -> HeteroGraphDataset:
        return HeteroGraphDataset(
            self.node_types,
            self.edge_types,
            self.offsets,
            {kind: tensor.to(device) for kind, tensor in self.features.items()},
            {kind: tensor.to(device) for kind, tensor in self.labels.items()},
            {edge_type: store.to(device) for edge_type, store in self.stores.items()},
            self.splits,
        )

    def tensors(self) -> dict[str, torch.Tensor]:
        named = {"offsets": self.offsets}
        for i, kind in enumerate(self.node_types):
            named[f"features.{i}"] = self.features[kind]
            if kind in self.labels:
                named[f"labels.{i}"] = self.labels[kind]
        for j, edge_type in enumerate(self.edge_types):
            named.update({f"store.{j}.{name}": tensor for name, tensor in self.stores[edge_type].tensors().items()})
        named.update({f"split.{name}": tensor for name, tensor in self.splits.items()})
        return named

    @classmethod
    def from_tensors(cls, named: dict[str, torch.Tensor], graph: GraphMetadata) -> HeteroGraphDataset:
        def group(prefix: str) -> dict[str, torch.Tensor]:
            return {k[len(prefix) :]: v for k, v in named.items() if k.startswith(prefix)}

        kinds, edge_types = graph.node_types, graph.edge_types
        return cls(
            kinds,
            edge_types,
            named["offsets"],
            {kind: named[f"features.{i}"] for i, kind in enumerate(kinds)},
            {kind: named[f"labels.{i}"] for i, kind in enumerate(kinds) if f"labels.{i}" in named},
            {edge_type: GraphStore.from_tensors(group(f"store.{j}.")) for j, edge_type in enumerate(edge_types)},
            group("split."),
        )


def build_hetero_dataset(
    preprocessor_args: dict[str, Any],
    fractions: SplitFractions,
    task: str,
    graph: GraphMetadata,
    supervision_edge_type: EdgeType | None,
    supervision_node_type: str | None,
) -> HeteroGraphDataset:
    source = chosen_source(preprocessor_args)
    if source != "dblp_like":
        raise ConfigError(
            f"graphMetadata describes a heterogeneous graph, which dataPreprocessorArgs source={source} "
            "cannot provide; use source: dblp_like"
        )
    args = parse_params(data_params(source), preprocessor_args, f"dataPreprocessorArgs (source={source})")
    raw = hetero_generators.dblp_like(**{k: v for k, v in args.items() if k not in ("source", "feature_dtype")})
    dtype = torch.float16 if args["feature_dtype"] == "float16" else torch.float32
    return _assemble(raw, dtype, fractions, task, graph, supervision_edge_type, supervision_node_type)


def _links_between(raw: RawHeteroGraph, src: str, dst: str, what: str) -> torch.Tensor:
    """The raw links between two node types, as ``[2, E]`` per-type ids oriented ``src`` → ``dst``."""
    if (src, dst) in raw.links:
        return raw.links[(src, dst)]
    if (dst, src) in raw.links:
        return raw.links[(dst, src)].flip(0)
    pairs = ", ".join(f"{a}–{b}" for a, b in raw.links)
    raise ConfigError(f"{what} joins {src} and {dst}, but the data has links only between {pairs}")


def _assemble(
    raw: RawHeteroGraph,
    dtype: torch.dtype,
    fractions: SplitFractions,
    task: str,
    graph: GraphMetadata,
    supervision_edge_type: EdgeType | None,
    supervision_node_type: str | None,
) -> HeteroGraphDataset:
    if set(graph.node_types) != set(raw.num_nodes):
        raise ConfigError(
            f"graphMetadata node types {', '.join(graph.node_types)} differ from the data's {', '.join(raw.num_nodes)}"
        )
    counts = torch.tensor([0] + [raw.num_nodes[kind] for kind in graph.node_types])
    offsets = torch.cumsum(counts, 0)
    offset = {kind: int(offsets[i]) for i, kind in enumerate(graph.node_types)}
    total = int(offsets[-1])
    links = dict(raw.links)
    splits: dict[str, torch.Tensor] = {}
    if task == "link_prediction":
        sup = supervision_edge_type
        pairs = _links_between(raw, sup.src, sup.dst, f"supervision edge type {sup}")
        split = split_edges(pairs, fractions, random_orientation=sup.src == sup.dst)
        to_global = torch.tensor([[offset[sup.src]], [offset[sup.dst]]])
        held_in = pairs[:, split["train_positions"]]
        splits = {
            "train_edges": held_in + to_global,
            "val_edges": split["val_edges"] + to_global,
            "test_edges": split["test_edges"] + to_global,
        }
        # Only training links stay in the graph; they are stored under the key the raw links had.
        key = (sup.src, sup.dst) if (sup.src, sup.dst) in links else (sup.dst, sup.src)
        links[key] = held_in if key == (sup.src, sup.dst) else held_in.flip(0)
        hard = raw.hard_negatives.get((sup.src, sup.dst))
        if hard is None and (sup.dst, sup.src) in raw.hard_negatives:
            hard = raw.hard_negatives[(sup.dst, sup.src)].flip(0)
        if hard is not None:
            splits["hard_negatives"] = hard + to_global
    else:
        kind = supervision_node_type
        if kind not in raw.labels:
            raise ConfigError(f"supervision node type {kind!r} has no labels in the data")
        splits = {name: nodes + offset[kind] for name, nodes in split_nodes(raw.num_nodes[kind], fractions).items()}
    held = RawHeteroGraph(raw.num_nodes, raw.features, raw.labels, links)
    stores = {}
    for edge_type in graph.edge_types:
        src, dst = _links_between(held, edge_type.src, edge_type.dst, f"graphMetadata edge type {edge_type}")
        src, dst = src + offset[edge_type.src], dst + offset[edge_type.dst]
        if edge_type.src == edge_type.dst:  # links within one type carry messages both ways
            src, dst = torch.cat([src, dst]), torch.cat([dst, src])
        # Rows are the message targets: sampling a hop for a frontier of dst nodes picks src neighbours.
        stores[edge_type] = GraphStore.from_edge_index(torch.stack([dst, src]), total, torch.empty(total, 0))
    return HeteroGraphDataset(
        graph.node_types,
        graph.edge_types,
        offsets,
        {kind: raw.features[kind].to(dtype) for kind in graph.node_types},
        {kind: raw.labels[kind] for kind in graph.node_types if kind in raw.labels},
        stores,
        splits,
    )
