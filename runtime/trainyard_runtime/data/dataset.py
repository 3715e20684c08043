"""A training dataset: the graph store plus what the task needs (labels, splits), built from the config."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from trainyard_runtime.config.params import (
    ConfigError,
    Param,
    non_negative,
    one_of,
    parse_float,
    parse_int,
    parse_params,
    parse_str,
    positive,
)
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.data import generators
from trainyard_runtime.data.edge_lists import both_directions
from trainyard_runtime.data.files import read_graph_files
from trainyard_runtime.data.graph_store import GraphStore
from trainyard_runtime.data.splits import split_edges, split_nodes

_COMMON = [
    Param(
        "source",
        one_of("planted_partition", "rmat", "files", "dblp_like"),
        "planted_partition",
        "where the graph comes from",
    ),
    Param("feature_dtype", one_of("float32", "float16"), "float32", "dtype of the stored node features"),
]
_SOURCE_PARAMS = {
    "rmat": [
        Param("scale", parse_int, 12, "log2 of the node count", positive, "positive"),
        Param("avg_degree", parse_int, 16, "directed edges per node before de-duplication", positive, "positive"),
        Param("feature_dim", parse_int, 32, "random Gaussian features per node", positive, "positive"),
        Param("num_classes", parse_int, 8, "log-degree buckets used as labels", positive, "positive"),
        Param("seed", parse_int, 0, "generator seed"),
    ],
    "planted_partition": [
        Param("num_nodes", parse_int, 2000, "nodes", positive, "positive"),
        Param("num_communities", parse_int, 20, "communities (= classes)", positive, "positive"),
        Param("avg_degree", parse_int, 10, "edges per node before de-duplication", positive, "positive"),
        Param("intra_fraction", parse_float, 0.9, "fraction of edges inside a community", non_negative, ">= 0"),
        Param(
            "feature_dim",
            parse_int,
            32,
            "feature dimension (0: featureless, needs node_embedding_dim)",
            non_negative,
            ">= 0",
        ),
        Param(
            "feature_noise", parse_float, 1.0, "std of the noise added to the community centroid", non_negative, ">= 0"
        ),
        Param("inter_edge_weight", parse_float, 0.25, "weight of edges between communities", positive, "positive"),
        Param("seed", parse_int, 0, "generator seed"),
    ],
    "dblp_like": [
        Param("num_authors", parse_int, 2048, "author nodes", positive, "positive"),
        Param("num_papers", parse_int, 4096, "paper nodes", positive, "positive"),
        Param("num_terms", parse_int, 512, "term nodes", positive, "positive"),
        Param("num_communities", parse_int, 256, "research topics (= labels of every node type)", positive, "positive"),
        Param("authors_per_paper", parse_int, 3, "author–paper links drawn per paper", positive, "positive"),
        Param("terms_per_paper", parse_int, 4, "paper–term links drawn per paper", positive, "positive"),
        Param("citations_per_paper", parse_int, 4, "paper–paper links drawn per paper", non_negative, ">= 0"),
        Param("intra_fraction", parse_float, 0.9, "fraction of links inside a topic", non_negative, ">= 0"),
        Param("feature_dim", parse_int, 32, "feature dimension", positive, "positive"),
        Param("feature_noise", parse_float, 1.0, "std of the noise added to the topic centroid", non_negative, ">= 0"),
        Param(
            "hard_negatives_per_paper",
            parse_int,
            2,
            "same-topic non-authors drawn per paper (y_negative)",
            non_negative,
            ">= 0",
        ),
        Param("seed", parse_int, 0, "generator seed"),
    ],
    "files": [
        Param(
            "preprocessed_metadata_uri",
            parse_str,
            None,
            "metadata YAML naming the files (default: sharedConfig.preprocessedMetadataUri)",
        ),
    ],
}


def data_params(source: str) -> list[Param]:
    return _COMMON + _SOURCE_PARAMS[source]


def chosen_source(preprocessor_args: dict[str, Any]) -> str:
    """The ``source`` the data preprocessor args pick (checked, defaulted)."""
    chosen = {k: v for k, v in preprocessor_args.items() if k == "source"}
    return parse_params(_COMMON, chosen, "dataPreprocessorArgs")["source"]


@dataclass
class GraphDataset:
    """The store holds the message-passing graph; for link prediction it lacks the held-out edges.

    ``splits`` holds ``train_nodes``/``val_nodes``/``test_nodes`` (node classification) or
    ``val_edges``/``test_edges`` ([2, E] anchor → positive; link prediction).
    """

    store: GraphStore
    labels: torch.Tensor | None = None
    splits: dict[str, torch.Tensor] = field(default_factory=dict)

    samples_with_collectives = False  # every process holds the whole graph: batches need no other process

    @property
    def num_classes(self) -> int:
        return int(self.labels.max()) + 1 if self.labels is not None and self.labels.numel() else 0

    def shard_of(self, rank: int, world_size: int) -> tuple[int, int]:
        """(index, count) of the strided share of a split that process ``rank`` trains and evaluates on."""
        return rank, world_size

    def gather(self, node: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """Features and labels (None without labels) of ``node``, on the store's device."""
        features = self.store.features[node.to(self.store.features.device)]
        return features, None if self.labels is None else self.labels[node.to(self.labels.device)]

    def held_bytes(self) -> int:
        """Bytes of the whole dataset: the graph, its features and labels, the splits."""
        return sum(t.numel() * t.element_size() for t in self.tensors().values())

    def tensors(self) -> dict[str, torch.Tensor]:
        named = {f"store.{name}": tensor for name, tensor in self.store.tensors().items()}
        named.update({f"split.{name}": tensor for name, tensor in self.splits.items()})
        if self.labels is not None:
            named["labels"] = self.labels
        return named

    @classmethod
    def from_tensors(cls, named: dict[str, torch.Tensor]) -> GraphDataset:
        store = GraphStore.from_tensors({k[6:]: v for k, v in named.items() if k.startswith("store.")})
        splits = {k[6:]: v for k, v in named.items() if k.startswith("split.")}
        return cls(store, named.get("labels"), splits)


def build_dataset(
    preprocessor_args: dict[str, Any],
    fractions: SplitFractions,
    task: str,
    base: Path,
    default_metadata_uri: str | None = None,
    with_edge_weights: bool = False,
) -> GraphDataset:
    """Builds the dataset for ``task`` ("link_prediction" or "node_classification")."""
    source = chosen_source(preprocessor_args)
    if source == "dblp_like":
        raise ConfigError(
            "dataPreprocessorArgs source=dblp_like is a heterogeneous graph: graphMetadata must list "
            "its node types (author, paper, term) and edge types"
        )
    args = parse_params(data_params(source), preprocessor_args, f"dataPreprocessorArgs (source={source})")
    raw = _read_source(source, args, base, default_metadata_uri)
    features = raw.features.to(torch.float16 if args["feature_dtype"] == "float16" else torch.float32)
    weight = raw.edge_weight if with_edge_weights else None
    if with_edge_weights and weight is None:
        raise ConfigError("the weighted sampler needs edge weights, but the data source provides none")
    if task == "link_prediction":
        if not raw.undirected:
            raise ConfigError("link prediction here expects an undirected graph (undirected: true)")
        splits = split_edges(raw.edge_index, fractions)
        held_in = splits.pop("train_positions")
        edge_index, weight = both_directions(raw.edge_index[:, held_in], None if weight is None else weight[held_in])
    else:
        if raw.labels is None:
            raise ConfigError("node classification needs node labels, but the data source provides none")
        splits = split_nodes(raw.num_nodes, fractions)
        edge_index, weight = both_directions(raw.edge_index, weight) if raw.undirected else (raw.edge_index, weight)
    store = GraphStore.from_edge_index(edge_index, raw.num_nodes, features, weight)
    return GraphDataset(store, raw.labels, splits)


def _read_source(source: str, args: dict[str, Any], base: Path, default_metadata_uri: str | None):
    if source == "rmat":
        return generators.rmat(
            args["scale"], args["avg_degree"], args["feature_dim"], args["num_classes"], args["seed"]
        )
    if source == "planted_partition":
        return generators.planted_partition(
            args["num_nodes"],
            args["num_communities"],
            args["avg_degree"],
            args["intra_fraction"],
            args["feature_dim"],
            args["feature_noise"],
            args["inter_edge_weight"],
            args["seed"],
        )
    metadata_uri = args["preprocessed_metadata_uri"] or default_metadata_uri
    if not metadata_uri:
        raise ConfigError(
            "dataPreprocessorArgs source=files needs preprocessed_metadata_uri "
            "(or sharedConfig.preprocessedMetadataUri)"
        )
    return read_graph_files(metadata_uri, base)
