"""The frozen GiGL task config (GbmlConfig YAML) and resource config, in camelCase or snake_case."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from trainyard_runtime.config.graph_metadata import EdgeType, GraphMetadata, supervision_edge_types
from trainyard_runtime.config.params import ConfigError, parse_bool, parse_float, parse_int
from trainyard_runtime.config.split_fractions import SplitFractions
from trainyard_runtime.uris import local_path

# Map fields hold user keys (e.g. trainer args) that must not be renamed.
_MAP_FIELDS = {
    "trainer_args",
    "data_preprocessor_args",
    "storage_args",
    "resource_labels",
    "assigner_args",
    "split_strategy_args",
    "profiler_args",
    "feature_flags",
}
_TASKS = {
    "node_anchor_based_link_prediction_task_metadata": "link_prediction",
    "node_based_task_metadata": "node_classification",
}


def snake_case(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def normalise_keys(value: Any) -> Any:
    """camelCase → snake_case for message fields, as protobuf's YAML/JSON parsing accepts both."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            name = snake_case(str(key))
            out[name] = item if name in _MAP_FIELDS else normalise_keys(item)
        return out
    if isinstance(value, list):
        return [normalise_keys(item) for item in value]
    return value


def load_yaml(uri: str, base: Path, what: str) -> dict[str, Any]:
    path = local_path(uri, base, what)
    if not path.is_file():
        raise ConfigError(f"{what} {path} does not exist")
    try:
        loaded = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise ConfigError(f"{what} {path} is not valid YAML: {error}") from None
    if not isinstance(loaded, dict):
        raise ConfigError(f"{what} {path} must hold a YAML mapping")
    return normalise_keys(loaded)


def _section(parent: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = parent.get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"{where}.{key} must be a mapping")
    return value


@dataclass(frozen=True)
class TaskConfig:
    task: str
    trainer_args: dict[str, Any]
    should_skip_training: bool
    should_skip_model_evaluation: bool
    should_log_to_tensorboard: bool
    trained_model_uri: str | None
    eval_metrics_uri: str | None
    tensorboard_logs_uri: str | None
    data_preprocessor_args: dict[str, Any]
    split_fractions: SplitFractions
    preprocessed_metadata_uri: str | None
    graph: GraphMetadata = GraphMetadata((), ())
    supervision_edge_types: tuple[EdgeType, ...] = ()
    supervision_node_types: tuple[str, ...] = ()

    @classmethod
    def load(cls, uri: str, base: Path) -> TaskConfig:
        return cls.from_dict(load_yaml(uri, base, "task config"))

    @classmethod
    def from_dict(cls, config: dict[str, Any]) -> TaskConfig:
        task_metadata = _section(config, "task_metadata", "taskMetadata")
        kinds = [key for key in task_metadata if task_metadata[key] is not None]
        if "link_based_task_metadata" in kinds:
            raise ConfigError(
                "taskMetadata.linkBasedTaskMetadata is not supported by this runtime; "
                "use nodeAnchorBasedLinkPredictionTaskMetadata or nodeBasedTaskMetadata"
            )
        tasks = [_TASKS[key] for key in kinds if key in _TASKS]
        if len(tasks) != 1:
            raise ConfigError(
                "taskMetadata must hold exactly one of nodeAnchorBasedLinkPredictionTaskMetadata, "
                f"nodeBasedTaskMetadata (found: {', '.join(kinds) or 'none'})"
            )
        graph = GraphMetadata.from_dict(_section(config, "graph_metadata", "graphMetadata"))
        task_section = _section(task_metadata, next(k for k in kinds if k in _TASKS), "taskMetadata")
        supervision_nodes = tuple(str(name) for name in task_section.get("supervision_node_types") or [])
        shared = _section(config, "shared_config", "sharedConfig")
        outputs = _section(shared, "trained_model_metadata", "sharedConfig")
        trainer = _section(config, "trainer_config", "trainerConfig")
        trainer_args = trainer.get("trainer_args") or {}
        if not isinstance(trainer_args, dict):
            raise ConfigError("trainerConfig.trainerArgs must be a mapping")
        dataset = _section(config, "dataset_config", "datasetConfig")
        preprocessor = _section(dataset, "data_preprocessor_config", "datasetConfig")
        preprocessor_args = preprocessor.get("data_preprocessor_args") or {}
        if not isinstance(preprocessor_args, dict):
            raise ConfigError("datasetConfig.dataPreprocessorConfig.dataPreprocessorArgs must be a mapping")
        log_flag = trainer.get("should_log_to_tensorboard")
        return cls(
            task=tasks[0],
            trainer_args=trainer_args,
            should_skip_training=_flag(shared, "should_skip_training"),
            should_skip_model_evaluation=_flag(shared, "should_skip_model_evaluation"),
            should_log_to_tensorboard=True if log_flag is None else _flag(trainer, "should_log_to_tensorboard"),
            trained_model_uri=outputs.get("trained_model_uri") or None,
            eval_metrics_uri=outputs.get("eval_metrics_uri") or None,
            tensorboard_logs_uri=outputs.get("tensorboard_logs_uri") or None,
            data_preprocessor_args=preprocessor_args,
            split_fractions=_split_fractions(_section(dataset, "split_generator_config", "datasetConfig")),
            preprocessed_metadata_uri=shared.get("preprocessed_metadata_uri") or None,
            graph=graph,
            supervision_edge_types=tuple(supervision_edge_types(task_section)),
            supervision_node_types=supervision_nodes,
        )


def _flag(section: dict[str, Any], key: str) -> bool:
    try:
        return parse_bool(section.get(key, False) or False)
    except ValueError:
        raise ConfigError(f"{key}={section.get(key)!r} is not a boolean") from None


def _split_fractions(split_config: dict[str, Any]) -> SplitFractions:
    """GiGL's split generator args (``train_split``/``val_split``/``test_split``/``seed``), default 0.8/0.1/0.1.

    They sit in ``assignerArgs`` (or ``splitStrategyArgs``); ``splitterArgs`` is no field of GiGL's
    SplitGeneratorConfig, so it is refused rather than silently ignored.
    """
    if "splitter_args" in split_config:
        raise ConfigError(
            "datasetConfig.splitGeneratorConfig.splitterArgs is not a field of GiGL's "
            "SplitGeneratorConfig; put train_split/val_split/test_split/seed in assignerArgs"
        )
    args = {**(split_config.get("split_strategy_args") or {}), **(split_config.get("assigner_args") or {})}
    try:
        fractions = SplitFractions(
            train=parse_float(args.get("train_split", 0.8)),
            val=parse_float(args.get("val_split", 0.1)),
            test=parse_float(args.get("test_split", 0.1)),
            seed=parse_int(args.get("seed", 42)),
        )
    except ValueError as error:
        raise ConfigError(f"datasetConfig.splitGeneratorConfig: {error}") from None
    return fractions


def load_resource_config(uri: str, base: Path) -> dict[str, Any]:
    """Read and sanity-checked only: placement is the server's job (it starts ``numWorkers`` processes)."""
    config = load_yaml(uri, base, "resource config")
    if "trainer_resource_config" not in config and "trainer_config" not in config:
        raise ConfigError("resource config has no trainerResourceConfig (nor the deprecated trainerConfig)")
    return config
