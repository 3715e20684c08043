"""Heterogeneous graphs: GiGL's graphMetadata, per-edge-type fanout, per-relation weights, typed tasks."""

import pytest
import torch
from jobs import Job

from trainyard_runtime.config.graph_metadata import EdgeType, GraphMetadata
from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.config.task_config import normalise_keys
from trainyard_runtime.config.trainer_args import TrainerArgs
from trainyard_runtime.data.hetero_dataset import build_hetero_dataset
from trainyard_runtime.loader.hetero_loaders import HeteroAnchorLinkLoader, HeteroBatch
from trainyard_runtime.models.hetero_graphsage import HeteroGraphSAGE
from trainyard_runtime.sampler.hetero import HeteroNeighborSampler

AUTHOR_PAPER, PAPER_AUTHOR = EdgeType("author", "to", "paper"), EdgeType("paper", "to", "author")
TERM_PAPER, PAPER_TERM = EdgeType("term", "to", "paper"), EdgeType("paper", "to", "term")
CITES = EdgeType("paper", "cites", "paper")
EDGE_TYPES = (AUTHOR_PAPER, PAPER_AUTHOR, TERM_PAPER, PAPER_TERM, CITES)
GRAPH = GraphMetadata(("author", "paper", "term"), EDGE_TYPES)
SMALL = {
    "source": "dblp_like",
    "num_authors": "256",
    "num_papers": "512",
    "num_terms": "64",
    "num_communities": "32",
    "seed": "1",
}


def _edge_type_yaml(edge_type: EdgeType) -> dict:
    return {"srcNodeType": edge_type.src, "relation": edge_type.relation, "dstNodeType": edge_type.dst}


def test_graph_metadata_reads_gigls_condensed_maps_in_id_order():
    # GiGL's config populator writes condensedEdgeTypeMap / condensedNodeTypeMap (proto maps, string keys in YAML).
    section = normalise_keys(
        {
            "nodeTypes": ["paper", "author"],
            "edgeTypes": [_edge_type_yaml(PAPER_AUTHOR)],
            "condensedNodeTypeMap": {"1": "paper", "0": "author", "2": "term"},
            "condensedEdgeTypeMap": {
                "1": _edge_type_yaml(PAPER_AUTHOR),
                "0": _edge_type_yaml(AUTHOR_PAPER),
                "2": _edge_type_yaml(TERM_PAPER),
            },
        }
    )
    graph = GraphMetadata.from_dict(section)
    assert graph.node_types == ("author", "paper", "term")
    assert graph.edge_types == (AUTHOR_PAPER, PAPER_AUTHOR, TERM_PAPER) and graph.is_heterogeneous
    template = GraphMetadata.from_dict(
        normalise_keys(
            {
                "nodeTypes": ["user"],
                "edgeTypes": [{"srcNodeType": "user", "relation": "is_friends_with", "dstNodeType": "user"}],
            }
        )
    )
    assert not template.is_heterogeneous
    with pytest.raises(ConfigError, match="venue"):
        GraphMetadata.from_dict(
            normalise_keys(
                {
                    "nodeTypes": ["paper"],
                    "edgeTypes": [{"srcNodeType": "venue", "relation": "to", "dstNodeType": "paper"}],
                }
            )
        )


@pytest.fixture(scope="module")
def link_dataset():
    return build_hetero_dataset(SMALL, SplitFractions(), "link_prediction", GRAPH, PAPER_AUTHOR, None)


def _pairs(tensor: torch.Tensor, n: int) -> set:
    return set((tensor[0] * n + tensor[1]).tolist())


def _stored_edges(store) -> torch.Tensor:
    """A store's edges as (src, dst) global ids (its rows are the destinations)."""
    dst = torch.repeat_interleave(torch.arange(store.num_nodes), store.indptr.diff())
    return torch.stack([store.indices.long(), dst])


def test_held_out_supervision_edges_leave_every_edge_type_that_joins_the_pair(link_dataset):
    n = link_dataset.num_nodes
    held_out = torch.cat([link_dataset.splits["val_edges"], link_dataset.splits["test_edges"]], dim=1)
    assert held_out.size(1) > 100
    paper_start, paper_end = link_dataset.type_range("paper")
    assert bool(((held_out[0] >= paper_start) & (held_out[0] < paper_end)).all())  # anchors are papers
    stored_pa = _pairs(_stored_edges(link_dataset.stores[PAPER_AUTHOR]), n)
    stored_ap = _pairs(_stored_edges(link_dataset.stores[AUTHOR_PAPER]), n)
    assert not _pairs(held_out, n) & stored_pa and not _pairs(held_out.flip(0), n) & stored_ap
    assert _pairs(link_dataset.splits["train_edges"], n) == stored_pa
    hard = link_dataset.splits["hard_negatives"]
    assert hard.size(1) > 0 and not _pairs(hard, n) & (stored_pa | _pairs(held_out, n))


def test_sampling_keeps_each_edge_types_fanout_and_the_excluded_edges_out(link_dataset):
    fanout = {AUTHOR_PAPER: [3, 1], PAPER_AUTHOR: [1, 1], TERM_PAPER: [2, 1], PAPER_TERM: [1, 1], CITES: [4, 2]}
    sampler = HeteroNeighborSampler(link_dataset.stores, fanout, seed=5)
    papers = torch.arange(*link_dataset.type_range("paper"))[:64]
    exclude = link_dataset.splits["train_edges"][:, :200]
    subgraph = sampler.sample(papers, exclude_edges=exclude)
    n = link_dataset.num_nodes
    source, target = subgraph.node[subgraph.edge_index[0]], subgraph.node[subgraph.edge_index[1]]
    for index, edge_type in enumerate(EDGE_TYPES):
        chosen = subgraph.edge_type == index
        into_seeds = chosen & (subgraph.edge_index[1] < subgraph.batch_size)
        per_seed = torch.bincount(subgraph.edge_index[1][into_seeds], minlength=subgraph.batch_size)
        assert int(per_seed.max()) <= fanout[edge_type][0], edge_type
        real = _pairs(_stored_edges(link_dataset.stores[edge_type]), n)
        assert _pairs(torch.stack([source[chosen], target[chosen]]), n) <= real, edge_type
    assert int((subgraph.edge_index[1] < subgraph.batch_size).sum()) > 0
    used = _pairs(torch.stack([source, target]), n)
    assert not used & (_pairs(exclude, n) | _pairs(exclude.flip(0), n))


def test_batches_carry_positives_hard_negatives_and_random_negatives(link_dataset):
    args = TrainerArgs.parse({"num_neighbors": "[4, 2]"})
    sampler = HeteroNeighborSampler(link_dataset.stores, args.fanout_for(EDGE_TYPES), seed=2)
    author_ids = torch.arange(*link_dataset.type_range("author"))
    from trainyard_runtime.loader.seed_batches import SeedBatches

    loader = HeteroAnchorLinkLoader(
        link_dataset,
        sampler,
        link_dataset.splits["train_edges"],
        link_dataset.splits["hard_negatives"],
        SeedBatches(author_ids, 16, True, True, 3, drop_last=True),
        batch_size=32,
        max_per_anchor=4,
        remove_labels_from_message_passing=True,
        device=torch.device("cpu"),
    )
    batch = next(iter(loader))
    n = link_dataset.num_nodes
    positives = torch.stack([batch.node[batch.y_positive[0]], batch.node[batch.y_positive[1]]])
    negatives = torch.stack([batch.node[batch.y_negative[0]], batch.node[batch.y_negative[1]]])
    assert positives.size(1) >= 32 and negatives.size(1) > 0
    assert _pairs(positives, n) <= _pairs(link_dataset.splits["train_edges"], n)
    assert _pairs(negatives, n) <= _pairs(link_dataset.splits["hard_negatives"], n)
    assert batch.random_negative.numel() == 16
    assert bool((batch.node_type[batch.random_negative] == 0).all())  # authors: the supervision's destination type
    messages = _pairs(torch.stack([batch.node[batch.edge_index[0]], batch.node[batch.edge_index[1]]]), n)
    assert not messages & (_pairs(positives, n) | _pairs(positives.flip(0), n))


def test_each_relation_and_node_type_has_its_own_weights(link_dataset):
    dims = {kind: link_dataset.features[kind].size(1) for kind in link_dataset.node_types}
    model = HeteroGraphSAGE(dims, EDGE_TYPES, hid_dim=8, out_dim=4, num_layers=2)
    sampler = HeteroNeighborSampler(link_dataset.stores, TrainerArgs.parse({}).fanout_for(EDGE_TYPES), seed=1)
    batch = HeteroBatch(
        link_dataset, sampler.sample(torch.arange(*link_dataset.type_range("term"))[:8]), torch.device("cpu")
    )
    model.encode(batch).sum().backward()
    # Terms receive messages from papers only: in the last layer only (paper, to, term) has a gradient.
    gradients = [weight.weight.grad for weight in model.neighbour[1]]
    assert [g is not None and bool(g.abs().sum() > 0) for g in gradients] == [e == PAPER_TERM for e in EDGE_TYPES]
    assert len(model.neighbour[0]) == len(EDGE_TYPES) and len(model.root[0]) == 3 and len(model.project) == 3


def _hetero_task_config(task: str, data: dict, trainer_args: dict) -> dict:
    metadata = (
        {"nodeAnchorBasedLinkPredictionTaskMetadata": {"supervisionEdgeTypes": [_edge_type_yaml(PAPER_AUTHOR)]}}
        if task == "link_prediction"
        else {"nodeBasedTaskMetadata": {"supervisionNodeTypes": ["paper"]}}
    )
    return {
        "graphMetadata": {"nodeTypes": list(GRAPH.node_types), "edgeTypes": [_edge_type_yaml(e) for e in EDGE_TYPES]},
        "taskMetadata": metadata,
        "datasetConfig": {
            "dataPreprocessorConfig": {"dataPreprocessorArgs": data},
            "splitGeneratorConfig": {"assignerArgs": {"seed": "3"}},
        },
        "sharedConfig": {
            "trainedModelMetadata": {
                "trainedModelUri": "outputs/model.pt",
                "evalMetricsUri": "outputs/eval_metrics.json",
            }
        },
        "trainerConfig": {
            "command": "python -m trainyard_runtime.train",
            "trainerArgs": {k: str(v) for k, v in trainer_args.items()},
        },
    }


def test_node_classification_of_papers_learns_their_topics(tmp_path):
    data = {**SMALL, "num_communities": "4", "feature_noise": "3.0"}
    fanout = "{" + ", ".join(f'("{e.src}", "{e.relation}", "{e.dst}"): [5, 3]' for e in EDGE_TYPES) + "}"
    args = {
        "num_neighbors": fanout,
        "train_batch_size": 64,
        "num_classes": 4,
        "hid_dim": 16,
        "out_dim": 16,
        "learning_rate": 0.01,
        "num_max_train_batches": 30,
        "num_val_batches": 1,
        "val_every_n_batch": 30,
    }
    job = Job(tmp_path, _hetero_task_config("node_classification", data, args))
    result = job.run(timeout=300)
    assert result.returncode == 0, result.stderr
    assert "heterogeneous graph store" in result.stdout
    # Features alone (noise 3 around 4 centroids) are weak; a paper's authors, terms and citations share its topic.
    assert job.metrics()["acc"] >= 0.9


def test_a_fanout_per_edge_type_must_name_the_graphs_edge_types(tmp_path):
    args = {"num_neighbors": '{("author", "to", "paper"): [5, 5]}', "num_max_train_batches": 1}
    result = Job(tmp_path, _hetero_task_config("link_prediction", SMALL, args)).run(timeout=120)
    assert result.returncode == 2
    assert "missing: (paper, to, author)" in result.stderr
