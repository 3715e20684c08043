"""Hyperparameters from ``trainerConfig.trainerArgs``, named and defaulted like GiGL's link-prediction examples."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

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


def _valid_fanout(fanout: list[int]) -> bool:
    return len(fanout) > 0 and all(k > 0 or k == -1 for k in fanout)


@dataclass(frozen=True)
class TrainerArgs:
    """Every accepted trainer argument; anything else on the command line or in trainerArgs is an error."""

    num_neighbors: list[int] = _arg(parse_int_list, [10, 10], "fanout per hop; its length is the number of GNN layers (-1: all neighbours)", _valid_fanout, "a non-empty list of positive ints or -1")
    sampler: str = _arg(one_of("neighbor", "weighted", "layerwise", "random_walk"), "neighbor", "subgraph sampler: uniform neighbour, edge-weighted neighbour, LADIES layer-wise, PinSage random walk")
    layer_node_budget: list[int] = _arg(parse_int_list, [], "layerwise: nodes per layer (default: main_batch_size * num_neighbors[i])")
    num_random_walks: int = _arg(parse_int, 16, "random_walk: walks per node", positive, "positive")
    random_walk_length: int = _arg(parse_int, 3, "random_walk: steps per walk", positive, "positive")
    random_walk_restart_probability: float = _arg(parse_float, 0.5, "random_walk: chance to jump home after a step", non_negative, ">= 0")
    main_batch_size: int = _arg(parse_int, 16, "anchor (link prediction) or seed (node classification) nodes per batch", positive, "positive")
    random_batch_size: int = _arg(parse_int, 16, "random negative nodes per training batch (link prediction)", positive, "positive")
    hid_dim: int = _arg(parse_int, 16, "hidden dimension of the GNN", positive, "positive")
    out_dim: int = _arg(parse_int, 16, "output embedding dimension", positive, "positive")
    dropout: float = _arg(parse_float, 0.0, "dropout between GNN layers", non_negative, ">= 0")
    learning_rate: float = _arg(parse_float, 0.0005, "AdamW learning rate", positive, "positive")
    weight_decay: float = _arg(parse_float, 0.0005, "AdamW weight decay", non_negative, ">= 0")
    num_max_train_batches: int = _arg(parse_int, 1000, "training batches, summed over all processes", positive, "positive")
    num_val_batches: int = _arg(parse_int, 100, "batches per validation, summed over all processes", positive, "positive")
    val_every_n_batch: int = _arg(parse_int, 50, "validate every this many training batches", positive, "positive")
    log_every_n_batch: int = _arg(parse_int, 25, "progress line and TensorBoard scalars every this many batches", positive, "positive")
    num_test_batches: int = _arg(parse_int, 0, "test batches per process (0: the whole test split)", non_negative, ">= 0")
    softmax_temp: float = _arg(parse_float, 0.07, "temperature of the retrieval loss", positive, "positive")
    should_remove_accidental_hits: bool = _arg(parse_bool, True, "mask true positives that show up as negatives in the loss")
    should_l2_normalize_embedding_layer_output: bool = _arg(parse_bool, True, "L2-normalise embeddings (cosine scores)")
    max_positives_per_anchor: int = _arg(parse_int, 4, "training positives drawn per anchor (-1: all)", lambda v: v > 0 or v == -1, "positive or -1")
    num_eval_negatives: int = _arg(parse_int, 256, "random negative candidates per query for MRR / hits@k", positive, "positive")
    graph_store_dir: str = _arg(parse_str, "", "where local processes share the graph store (default /dev/shm, else the work folder)")
    seed: int = _arg(parse_int, 0, "random seed (sampling, initialisation)")
    # Learnable node embeddings (embeddings/): a per-node input table outside the graph, trained with SparseAdam.
    node_embedding_dim: int = _arg(parse_int, 0, "learnable input vector per node, appended to its features (0: off)", non_negative, ">= 0")
    node_embedding_learning_rate: float = _arg(parse_float, 0.01, "SparseAdam learning rate of the node embeddings", positive, "positive")
    node_embedding_pin_memory: bool = _arg(parse_bool, False, "with --use_cuda keep the embedding table in pinned CPU memory, not on the GPU")

    @classmethod
    def params(cls) -> list[Param]:
        return [
            Param(f.name, f.metadata["parse"], f.default if f.default is not dataclasses.MISSING else f.default_factory(),
                  f.metadata["help"], f.metadata["check"], f.metadata["requirement"])
            for f in dataclasses.fields(cls)
        ]

    @classmethod
    def parse(cls, from_config: Mapping[str, Any], from_command_line: Optional[Mapping[str, Any]] = None) -> "TrainerArgs":
        """trainerArgs from the task config, overridden by ``--k=v`` on the command line."""
        merged = {str(k): v for k, v in from_config.items()}
        merged.update(from_command_line or {})
        args = cls(**parse_params(cls.params(), merged, "trainer"))
        if args.layer_node_budget and len(args.layer_node_budget) != len(args.num_neighbors):
            raise ConfigError(
                f"trainer argument layer_node_budget={args.layer_node_budget} needs one entry per hop of "
                f"num_neighbors={args.num_neighbors}"
            )
        if args.sampler == "random_walk" and any(k < 0 for k in args.num_neighbors):
            raise ConfigError("trainer argument num_neighbors must be positive for sampler=random_walk")
        return args
