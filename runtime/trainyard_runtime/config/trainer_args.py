"""Hyperparameters from ``trainerConfig.trainerArgs``, named and defaulted like GiGL's example trainers.

Link prediction follows GiGL's link-prediction examples, node classification its node-classification example
(``train_batch_size``, ``num_classes``, its own learning rate and batch counts). Arguments GiGL's examples take
for their data pipeline (sampling worker processes, shared-memory channels, start gaps) are accepted and
reported as having no effect here, so a GiGL config runs unchanged.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from trainyard_runtime.config.graph_metadata import EdgeType
from trainyard_runtime.config.params import (
    ConfigError,
    Param,
    non_negative,
    one_of,
    parse_bool,
    parse_float,
    parse_int,
    parse_int_list,
    parse_params,
    parse_str,
    positive,
)


def _arg(parse: Callable[[Any], Any], default: Any, help: str, check=None, requirement: str = "") -> Any:
    meta = {"parse": parse, "help": help, "check": check, "requirement": requirement}
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


Fanout = list[int] | dict[EdgeType, list[int]]

LINK_PREDICTION, NODE_CLASSIFICATION = "link_prediction", "node_classification"

# Arguments that belong to one task only; given to the other task's job they are an error.
_TASK_ONLY = {
    LINK_PREDICTION: {
        "main_batch_size",
        "random_batch_size",
        "softmax_temp",
        "should_remove_accidental_hits",
        "should_l2_normalize_embedding_layer_output",
        "max_positives_per_anchor",
        "num_eval_negatives",
        "ssl_positive_label_percentage",
    },
    NODE_CLASSIFICATION: {"train_batch_size", "num_classes"},
}
# GiGL's node-classification example defaults where they differ from its link-prediction examples.
_TASK_DEFAULTS = {
    NODE_CLASSIFICATION: {"learning_rate": 0.001, "num_max_train_batches": 200, "num_val_batches": 20},
}
# About GiGL's data pipeline (GLT sampling workers and their channels): nothing here to apply them to.
NO_EFFECT = ("sampling_workers_per_process", "sampling_worker_shared_channel_size", "process_start_gap_seconds")


def _valid_hops(fanout: list[int]) -> bool:
    return len(fanout) > 0 and all(isinstance(k, int) and (k > 0 or k == -1) for k in fanout)


def _valid_fanout(fanout: Fanout) -> bool:
    if isinstance(fanout, dict):
        lengths = {len(hops) for hops in fanout.values()}
        return len(fanout) > 0 and len(lengths) == 1 and all(_valid_hops(hops) for hops in fanout.values())
    return _valid_hops(fanout)


def parse_fanout(value: Any) -> Fanout:
    """GiGL's ``num_neighbors``: ``"[10, 10]"`` for every edge type, or per edge type
    ``'{("author", "to", "paper"): [10, 10], ...}'`` (a Python literal, read without evaluating code)."""
    if isinstance(value, str) and value.strip().startswith("{"):
        try:
            literal = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError) as error:
            raise ValueError(f"not a fanout per edge type: {error}") from None
        value = literal
    if isinstance(value, dict):
        fanout = {}
        for key, hops in value.items():
            if not (isinstance(key, tuple) and len(key) == 3 and all(isinstance(part, str) for part in key)):
                raise ValueError(f"edge type {key!r} must be a (src, relation, dst) tuple of strings")
            fanout[EdgeType(*key)] = parse_int_list(hops)
        return fanout
    return parse_int_list(value)


@dataclass(frozen=True)
class TrainerArgs:
    """Every accepted trainer argument; anything else on the command line or in trainerArgs is an error."""

    num_neighbors: list[int] = _arg(
        parse_fanout,
        [10, 10],
        "fanout per hop, or per edge type and hop; its length is the number of GNN layers (-1: all neighbours)",
        _valid_fanout,
        "a non-empty list of positive ints or -1, or such lists of one length per edge type",
    )
    sampler: str = _arg(
        one_of("neighbor", "weighted", "layerwise", "random_walk"),
        "neighbor",
        "subgraph sampler: uniform neighbour, edge-weighted neighbour, LADIES layer-wise, PinSage random walk",
    )
    layer_node_budget: list[int] = _arg(
        parse_int_list, [], "layerwise: nodes per layer (default: main_batch_size * num_neighbors[i])"
    )
    num_random_walks: int = _arg(parse_int, 16, "random_walk: walks per node", positive, "positive")
    random_walk_length: int = _arg(parse_int, 3, "random_walk: steps per walk", positive, "positive")
    random_walk_restart_probability: float = _arg(
        parse_float, 0.5, "random_walk: chance to jump home after a step", non_negative, ">= 0"
    )
    main_batch_size: int = _arg(parse_int, 16, "anchor nodes per batch (link prediction)", positive, "positive")
    train_batch_size: int = _arg(parse_int, 16, "seed nodes per batch (node classification)", positive, "positive")
    num_classes: int = _arg(
        parse_int, 7, "classes of the node-classification head (GiGL's default: Cora's 7)", positive, "positive"
    )
    random_batch_size: int = _arg(
        parse_int, 16, "random negative nodes per training batch (link prediction)", positive, "positive"
    )
    hid_dim: int = _arg(parse_int, 16, "hidden dimension of the GNN", positive, "positive")
    out_dim: int = _arg(parse_int, 16, "output embedding dimension", positive, "positive")
    dropout: float = _arg(parse_float, 0.0, "dropout between GNN layers", non_negative, ">= 0")
    learning_rate: float = _arg(parse_float, 0.0005, "AdamW learning rate", positive, "positive")
    weight_decay: float = _arg(parse_float, 0.0005, "AdamW weight decay", non_negative, ">= 0")
    num_max_train_batches: int = _arg(
        parse_int, 1000, "training batches, summed over all processes", positive, "positive"
    )
    num_val_batches: int = _arg(
        parse_int, 100, "batches per validation, summed over all processes", positive, "positive"
    )
    val_every_n_batch: int = _arg(parse_int, 50, "validate every this many training batches", positive, "positive")
    log_every_n_batch: int = _arg(
        parse_int, 25, "progress line and TensorBoard scalars every this many batches", positive, "positive"
    )
    num_test_batches: int = _arg(
        parse_int, 0, "test batches per process (0: the whole test split)", non_negative, ">= 0"
    )
    softmax_temp: float = _arg(parse_float, 0.07, "temperature of the retrieval loss", positive, "positive")
    should_remove_accidental_hits: bool = _arg(
        parse_bool, True, "mask true positives that show up as negatives in the loss"
    )
    should_l2_normalize_embedding_layer_output: bool = _arg(parse_bool, True, "L2-normalise embeddings (cosine scores)")
    max_positives_per_anchor: int = _arg(
        parse_int, 4, "training positives drawn per anchor (-1: all)", lambda v: v > 0 or v == -1, "positive or -1"
    )
    num_eval_negatives: int = _arg(
        parse_int, 256, "random negative candidates per query for MRR / hits@k", positive, "positive"
    )
    ssl_positive_label_percentage: float | None = _arg(
        parse_float,
        None,
        "fraction of the training graph's supervision edges used as positive labels (default: all)",
        lambda v: 0 < v <= 1,
        "in (0, 1]",
    )
    local_world_size: int | None = _arg(
        parse_int,
        None,
        "training processes on this machine when started by hand (as --nproc); "
        "the server's numWorkers decides otherwise",
        positive,
        "positive",
    )
    sampling_workers_per_process: int = _arg(
        parse_int,
        4,
        "GiGL: sampling worker processes per trainer (no effect here: sampling runs in the trainer)",
        positive,
        "positive",
    )
    sampling_worker_shared_channel_size: str = _arg(
        parse_str, "4GB", "GiGL: shared-memory channel of the sampling workers (no effect here)"
    )
    process_start_gap_seconds: int = _arg(
        parse_int, 0, "GiGL: pause between data loader starts (no effect here)", non_negative, ">= 0"
    )
    graph_store_dir: str = _arg(
        parse_str, "", "where local processes share the graph store (default /dev/shm, else the work folder)"
    )
    # Partitioned graphs (partition/): each process holds one part and samples with collectives.
    graph_partitions: int = _arg(
        parse_int,
        1,
        "parts the graph is split into, one per process (1: every process holds the whole graph); "
        "must equal the world size",
        positive,
        "positive",
    )
    partitioner: str = _arg(
        one_of("hash", "metis"), "hash", "how nodes are assigned to parts: edge-cut by node hash, or METIS"
    )
    seed: int = _arg(parse_int, 0, "random seed (sampling, initialisation)")
    # Learnable node embeddings (embeddings/): a per-node input table outside the graph, trained with SparseAdam.
    node_embedding_dim: int = _arg(
        parse_int, 0, "learnable input vector per node, appended to its features (0: off)", non_negative, ">= 0"
    )
    node_embedding_learning_rate: float = _arg(
        parse_float, 0.01, "SparseAdam learning rate of the node embeddings", positive, "positive"
    )
    node_embedding_pin_memory: bool = _arg(
        parse_bool, False, "with --use_cuda keep the embedding table in pinned CPU memory, not on the GPU"
    )
    # Not arguments: what parsing found out. The names given explicitly, and the fanout per edge type.
    given: frozenset = field(default=frozenset(), metadata={"internal": True})
    fanout_by_edge_type: dict = field(default_factory=dict, metadata={"internal": True})

    @classmethod
    def params(cls) -> list[Param]:
        return [
            Param(
                f.name,
                f.metadata["parse"],
                f.default if f.default is not dataclasses.MISSING else f.default_factory(),
                f.metadata["help"],
                f.metadata["check"],
                f.metadata["requirement"],
            )
            for f in dataclasses.fields(cls)
            if not f.metadata.get("internal")
        ]

    @classmethod
    def parse(
        cls,
        from_config: Mapping[str, Any],
        from_command_line: Mapping[str, Any] | None = None,
        task: str = LINK_PREDICTION,
    ) -> TrainerArgs:
        """trainerArgs from the task config, overridden by ``--k=v`` on the command line, for ``task``."""
        merged = {str(k): v for k, v in from_config.items()}
        merged.update(from_command_line or {})
        for other_task, names in _TASK_ONLY.items():
            misplaced = sorted(set(merged) & names) if other_task != task else []
            if misplaced:
                hint = (
                    " (node classification's batch size is train_batch_size)" if "main_batch_size" in misplaced else ""
                )
                raise ConfigError(
                    f"trainer argument(s) {', '.join(misplaced)} belong to {other_task.replace('_', ' ')}, "
                    f"not to this {task.replace('_', ' ')} job{hint}"
                )
        parsed = parse_params(cls.params(), {**_TASK_DEFAULTS.get(task, {}), **merged}, "trainer")
        if task == NODE_CLASSIFICATION:
            parsed["main_batch_size"] = parsed["train_batch_size"]  # the loaders' one batch-size name
        fanout = parsed["num_neighbors"]
        if isinstance(fanout, dict):
            parsed["fanout_by_edge_type"] = fanout
            parsed["num_neighbors"] = next(iter(fanout.values()))
        args = cls(**parsed, given=frozenset(merged))
        if args.layer_node_budget and len(args.layer_node_budget) != len(args.num_neighbors):
            raise ConfigError(
                f"trainer argument layer_node_budget={args.layer_node_budget} needs one entry per hop of "
                f"num_neighbors={args.num_neighbors}"
            )
        if args.graph_partitions > 1 and args.ssl_positive_label_percentage is not None:
            raise ConfigError(
                "trainer argument ssl_positive_label_percentage is not supported with graph_partitions > 1 "
                "(each part's training labels are its own edges, all of them)"
            )
        if args.graph_partitions > 1 and args.sampler != "neighbor":
            raise ConfigError(
                f"trainer argument graph_partitions={args.graph_partitions} samples with sampler=neighbor only, "
                f"not sampler={args.sampler}"
            )
        if args.sampler == "random_walk" and any(k < 0 for k in args.num_neighbors):
            raise ConfigError("trainer argument num_neighbors must be positive for sampler=random_walk")
        return args

    @property
    def without_effect(self) -> list[str]:
        """The GiGL arguments given that this runtime accepts but has no use for (reported in the log)."""
        return [name for name in NO_EFFECT if name in self.given]

    def fanout_for(self, edge_types: tuple[EdgeType, ...] | list[EdgeType]) -> dict[EdgeType, list[int]]:
        """Fanout per hop for every edge type of the graph: the per-edge-type form must name each of them
        (and nothing else); the list form applies to all."""
        if not self.fanout_by_edge_type:
            return {edge_type: list(self.num_neighbors) for edge_type in edge_types}
        named, present = set(self.fanout_by_edge_type), set(edge_types)
        if named != present:
            missing = ", ".join(str(e) for e in edge_types if e not in named)
            unknown = ", ".join(str(e) for e in self.fanout_by_edge_type if e not in present)
            raise ConfigError(
                "trainer argument num_neighbors must give a fanout for exactly the graph's edge types"
                + (f"; missing: {missing}" if missing else "")
                + (f"; not in graphMetadata: {unknown}" if unknown else "")
            )
        return {edge_type: list(self.fanout_by_edge_type[edge_type]) for edge_type in edge_types}
