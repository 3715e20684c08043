"""The graph store's memory footprint, its sharing between processes, and the data sources."""

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch
import yaml

from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.data.dataset import GraphDataset, build_dataset
from trainyard_runtime.data.shared_tensors import open_tensors, publish_tensors


def test_structure_fits_the_memory_budget():
    dataset = build_dataset(
        {"source": "rmat", "scale": "12", "avg_degree": "16"}, SplitFractions(), "node_classification", None
    )
    store = dataset.store
    assert store.indices.dtype == torch.int32 and store.indptr.dtype == torch.int64
    assert store.num_edges > 30_000
    assert store.structure_bytes() <= 4.5 * store.num_edges + 8 * (store.num_nodes + 1)


def test_float16_features_halve_feature_memory():
    args = {"source": "planted_partition", "num_nodes": "500", "feature_dtype": "float16"}
    dataset = build_dataset(args, SplitFractions(), "node_classification", None)
    assert dataset.store.features.dtype == torch.float16


def test_published_store_is_one_shared_copy(tmp_path):
    dataset = build_dataset(
        {"source": "planted_partition", "num_nodes": "300"}, SplitFractions(), "link_prediction", None
    )
    publish_tensors(tmp_path / "store", dataset.tensors())
    first = GraphDataset.from_tensors(open_tensors(tmp_path / "store"))
    second = GraphDataset.from_tensors(open_tensors(tmp_path / "store"))
    assert torch.equal(first.store.indices, dataset.store.indices)
    assert torch.equal(first.splits["val_edges"], dataset.splits["val_edges"])
    # Both mappings are views of the same pages: a write through one is seen through the other, and by
    # another process that maps the files.
    first.store.features[7, 0] = 12345.0
    assert second.store.features[7, 0] == 12345.0
    code = (
        "import sys, torch; from trainyard_runtime.data.shared_tensors import open_tensors;"
        f"print(float(open_tensors(__import__('pathlib').Path(r'{tmp_path / 'store'}'))['store.features'][7, 0]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert float(out.strip().splitlines()[-1]) == 12345.0


def test_graph_from_npy_and_parquet_files(tmp_path):
    edges = np.array([[0, 1, 2, 3, 4, 0], [1, 2, 3, 4, 5, 5]], dtype=np.int64)
    np.save(tmp_path / "edges.npy", edges)
    pq.write_table(
        pa.table({"node_id": [5, 4, 3, 2, 1, 0], "f0": [5.0, 4, 3, 2, 1, 0], "f1": [1.0] * 6}),
        tmp_path / "nodes.parquet",
    )
    pq.write_table(pa.table({"node_id": list(range(6)), "label": [0, 0, 0, 1, 1, 1]}), tmp_path / "labels.parquet")
    (tmp_path / "meta.yaml").write_text(
        yaml.safe_dump(
            {
                "edges_uri": "edges.npy",
                "node_features_uri": "nodes.parquet",
                "node_labels_uri": "labels.parquet",
                "node_id_column": "node_id",
            }
        )
    )
    args = {"source": "files", "preprocessed_metadata_uri": "meta.yaml"}
    dataset = build_dataset(args, SplitFractions(), "node_classification", tmp_path)
    store = dataset.store
    assert store.num_nodes == 6 and store.num_edges == 12  # undirected: both directions
    assert set(store.neighbours(0).tolist()) == {1, 5}
    assert store.features[:, 0].tolist() == [0, 1, 2, 3, 4, 5]  # placed by node_id
    assert dataset.labels.tolist() == [0, 0, 0, 1, 1, 1]

    pq.write_table(pa.table({"src": edges[0], "dst": edges[1], "w": [1.0, 2, 3, 4, 5, 6]}), tmp_path / "edges.parquet")
    (tmp_path / "meta.yaml").write_text(yaml.safe_dump({"edges_uri": "edges.parquet", "edge_weight_column": "w"}))
    linked = build_dataset(args, SplitFractions(1.0, 0.0, 0.0), "link_prediction", tmp_path, with_edge_weights=True)
    assert linked.store.num_edges == 12 and linked.store.edge_weight is not None
