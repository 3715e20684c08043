"""Real graphs from ``.npy`` / ``.parquet`` edge, feature and label files named by a metadata YAML.

The metadata file (see the runtime README) names the files relative to its own folder::

    edges_uri: edges.parquet        # .npy [2, E] or [E, 2] integer array, or parquet columns src/dst
    node_features_uri: features.npy # .npy [N, F], or parquet (feature_columns, optional node_id_column)
    node_labels_uri: labels.npy     # optional; needed for node classification
    undirected: true
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml

from trainyard_runtime.config.params import ConfigError, Param, parse_bool, parse_int, parse_params, parse_str
from trainyard_runtime.data.edge_lists import canonical_pairs
from trainyard_runtime.data.generators import RawGraph
from trainyard_runtime.uris import local_path

_METADATA_PARAMS = [
    Param("edges_uri", parse_str, None, "edge file (.npy or .parquet)"),
    Param("node_features_uri", parse_str, None, "node feature file; absent: one constant feature per node"),
    Param("node_labels_uri", parse_str, None, "node label file (.npy or .parquet)"),
    Param("edge_weights_uri", parse_str, None, ".npy edge weights, one per edge (parquet: edge_weight_column)"),
    Param("num_nodes", parse_int, None, "node count; default: largest id seen + 1"),
    Param("undirected", parse_bool, True, "store both directions of every edge"),
    Param("src_column", parse_str, "src", "parquet source-id column"),
    Param("dst_column", parse_str, "dst", "parquet destination-id column"),
    Param("edge_weight_column", parse_str, None, "parquet edge-weight column"),
    Param("node_id_column", parse_str, None, "parquet node-id column of the feature/label files"),
    Param("feature_columns", lambda v: [str(c) for c in v], None, "parquet feature columns (default: all but ids)"),
    Param("label_column", parse_str, "label", "parquet label column"),
]


def read_graph_files(metadata_uri: str, base: Path) -> RawGraph:
    metadata_path = local_path(metadata_uri, base, what="preprocessed metadata")
    if not metadata_path.is_file():
        raise ConfigError(f"preprocessed metadata file {metadata_path} does not exist")
    raw = yaml.safe_load(metadata_path.read_text()) or {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{metadata_path} must hold a YAML mapping")
    meta = parse_params(_METADATA_PARAMS, raw, f"preprocessed metadata ({metadata_path.name})")
    if meta["edges_uri"] is None:
        raise ConfigError(f"{metadata_path} must name edges_uri")
    folder = metadata_path.parent

    def path_of(key: str) -> Path:
        path = local_path(meta[key], folder, what=key)
        if not path.is_file():
            raise ConfigError(f"{key} file {path} does not exist")
        return path

    edge_index, weight = _read_edges(path_of("edges_uri"), meta)
    if meta["edge_weights_uri"] is not None:
        weight = torch.from_numpy(np.load(path_of("edge_weights_uri"))).float().reshape(-1)
    features = labels = None
    if meta["node_features_uri"] is not None:
        features = _read_node_table(path_of("node_features_uri"), meta, kind="features")
    if meta["node_labels_uri"] is not None:
        labels = _read_node_table(path_of("node_labels_uri"), meta, kind="labels").long().reshape(-1)
    seen = [int(edge_index.max()) + 1 if edge_index.numel() else 0]
    seen += [t.size(0) for t in (features, labels) if t is not None]
    num_nodes = meta["num_nodes"] if meta["num_nodes"] is not None else max(seen)
    if max(seen) > num_nodes:
        raise ConfigError(f"{metadata_path}: ids or rows exceed num_nodes={num_nodes}")
    if features is None:
        features = torch.ones(num_nodes, 1)
    elif features.size(0) < num_nodes:
        raise ConfigError(f"{metadata_path}: {features.size(0)} feature rows for {num_nodes} nodes")
    if meta["undirected"]:
        edge_index, weight = canonical_pairs(edge_index, num_nodes, weight)
    return RawGraph(num_nodes, edge_index, meta["undirected"], features.float(), labels, weight)


def _read_edges(path: Path, meta: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor | None]:
    if path.suffix == ".npy":
        array = np.load(path)
        if array.ndim != 2 or 2 not in array.shape:
            raise ConfigError(f"{path} must hold a [2, E] or [E, 2] integer array, got shape {array.shape}")
        if array.shape[0] != 2:
            array = array.T
        return torch.from_numpy(np.ascontiguousarray(array, dtype=np.int64)), None
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        columns = [meta["src_column"], meta["dst_column"]]
        if meta["edge_weight_column"]:
            columns.append(meta["edge_weight_column"])
        table = _read_parquet(pq, path, columns)
        edge_index = torch.from_numpy(np.stack([table.column(c).to_numpy().astype(np.int64) for c in columns[:2]]))
        weight = None
        if meta["edge_weight_column"]:
            weight = torch.from_numpy(table.column(columns[2]).to_numpy().astype(np.float32))
        return edge_index, weight
    raise ConfigError(f"unsupported edge file type {path.suffix!r} ({path}); use .npy or .parquet")


def _read_node_table(path: Path, meta: dict[str, Any], kind: str) -> torch.Tensor:
    if path.suffix == ".npy":
        values = torch.from_numpy(np.load(path))
        return values if kind == "labels" or values.dim() == 2 else values.reshape(-1, 1)
    if path.suffix != ".parquet":
        raise ConfigError(f"unsupported {kind} file type {path.suffix!r} ({path}); use .npy or .parquet")
    import pyarrow.parquet as pq

    table = _read_parquet(pq, path, None)
    id_column = meta["node_id_column"]
    if kind == "labels":
        columns = [meta["label_column"]]
    else:
        columns = meta["feature_columns"] or [c for c in table.column_names if c != id_column]
    missing = [c for c in columns + ([id_column] if id_column else []) if c not in table.column_names]
    if missing:
        raise ConfigError(f"{path} lacks column(s) {', '.join(missing)}")
    values = np.stack([table.column(c).to_numpy().astype(np.float64) for c in columns], axis=1)
    if id_column is None:
        return torch.from_numpy(values)
    ids = table.column(id_column).to_numpy().astype(np.int64)
    placed = np.zeros((int(ids.max()) + 1, values.shape[1]), dtype=np.float64)
    placed[ids] = values
    return torch.from_numpy(placed)


def _read_parquet(pq: Any, path: Path, columns: list[str] | None) -> Any:
    try:
        return pq.read_table(path, columns=columns)
    except Exception as error:  # pyarrow raises several types for missing columns and corrupt files
        raise ConfigError(f"cannot read {path}: {error}") from None
