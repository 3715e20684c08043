"""Arguments and configs: GiGL's shapes are accepted, anything else fails at once, naming the culprit."""

import pytest
from jobs import Job, task_config

from trainyard_runtime.config.command_line import parse_command_line
from trainyard_runtime.config.graph_metadata import EdgeType
from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.task_config import TaskConfig, normalise_keys
from trainyard_runtime.config.trainer_args import TrainerArgs

STANDARD = ["--job_name=j", "--task_config_uri=file:///t.yaml", "--resource_config_uri=file:///r.yaml"]


def test_trainer_args_use_gigl_names_and_the_command_line_wins():
    args = TrainerArgs.parse(
        {"num_neighbors": "[15, 10, 5]", "main_batch_size": "512", "learning_rate": "0.01"}, {"main_batch_size": "64"}
    )
    assert args.num_neighbors == [15, 10, 5] and args.main_batch_size == 64 and args.learning_rate == 0.01
    assert TrainerArgs.parse({}).random_batch_size == 16  # GiGL's example default


@pytest.mark.parametrize(
    "raw, named",
    [
        ({"num_neighbours": "[10]"}, "num_neighbours"),
        ({"main_batch_size": "abc"}, "main_batch_size"),
        ({"num_neighbors": "[10, 0]"}, "num_neighbors"),
        ({"learning_rate": "-1"}, "learning_rate"),
        ({"sampler": "magic"}, "sampler"),
    ],
)
def test_bad_trainer_args_name_the_argument(raw, named):
    with pytest.raises(ConfigError, match=named):
        TrainerArgs.parse(raw)


def test_command_line_takes_the_server_flags_and_overrides():
    parsed = parse_command_line([*STANDARD, "--use_cuda", "--hid_dim=8", "--nproc", "2"])
    assert parsed.use_cuda and parsed.nproc == 2 and parsed.overrides == {"hid_dim": "8"}
    with pytest.raises(ConfigError, match="--bogus"):
        parse_command_line([*STANDARD, "--bogus=1"])
    with pytest.raises(ConfigError, match="--task_config_uri"):
        parse_command_line(["--job_name=j", "--resource_config_uri=r"])


def test_camel_and_snake_case_configs_read_the_same():
    camel = task_config("link_prediction", {"source": "rmat"}, {"hid_dim": 8}, shouldSkipTraining=True)
    camel["datasetConfig"]["splitGeneratorConfig"] = {
        "assignerArgs": {"train_split": "0.7", "val_split": "0.2", "test_split": "0.1"}
    }
    snake = normalise_keys(camel)
    assert "task_metadata" in snake and "trainer_args" in snake["trainer_config"]
    assert snake["trainer_config"]["trainer_args"] == {"hid_dim": "8"}  # user keys stay as written
    assert TaskConfig.from_dict(snake) == TaskConfig.from_dict(normalise_keys(snake))
    config = TaskConfig.from_dict(snake)
    assert config.task == "link_prediction" and config.should_skip_training
    assert config.split_fractions.val == pytest.approx(0.2)
    assert config.trained_model_uri == "outputs/model.pt"


def test_node_based_task_metadata_selects_node_classification():
    config = TaskConfig.from_dict(normalise_keys(task_config("node_classification", {}, {})))
    assert config.task == "node_classification"


@pytest.mark.parametrize(
    "extra, config_change, message",
    [
        (["--no_such_arg=3"], None, "unknown argument --no_such_arg"),
        (["--main_batch_size=many"], None, "main_batch_size"),
        ([], ("trainerArgs", {"hidden": "3"}), "hidden"),
        ([], ("output", "gs://bucket/model.pt"), "gs://"),
        ([], ("data", {"source": "rmat", "scale": "12", "colour": "red"}), "colour"),
    ],
)
def test_the_trainer_fails_fast_with_a_message_naming_the_problem(tmp_path, extra, config_change, message):
    config = task_config("link_prediction", {"source": "planted_partition"}, {"num_max_train_batches": 2})
    if config_change and config_change[0] == "trainerArgs":
        config["trainerConfig"]["trainerArgs"].update(config_change[1])
    elif config_change and config_change[0] == "output":
        config["sharedConfig"]["trainedModelMetadata"]["trainedModelUri"] = config_change[1]
    elif config_change:
        config["datasetConfig"]["dataPreprocessorConfig"]["dataPreprocessorArgs"] = config_change[1]
    result = Job(tmp_path, config).run(*extra, timeout=120)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert not (tmp_path / "outputs").exists()


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="needs a machine without CUDA")
def test_use_cuda_without_a_gpu_is_a_clear_error(tmp_path):
    config = task_config("node_classification", {"source": "planted_partition", "num_nodes": 100}, {})
    result = Job(tmp_path, config).run("--use_cuda", timeout=120)
    assert result.returncode == 2
    assert "no CUDA device is visible" in result.stderr


def test_link_based_tasks_are_refused_by_name():
    config = normalise_keys(task_config("link_prediction", {}, {}))
    config["task_metadata"] = {"link_based_task_metadata": {"supervision_edge_types": []}}
    with pytest.raises(ConfigError, match="linkBasedTaskMetadata"):
        TaskConfig.from_dict(config)


def test_split_fractions_come_from_assigner_args_and_splitter_args_is_refused():
    config = task_config("link_prediction", {}, {})
    config["datasetConfig"]["splitGeneratorConfig"] = {"splitterArgs": {"train_split": "0.8"}}
    with pytest.raises(ConfigError, match="splitterArgs is not a field"):
        TaskConfig.from_dict(normalise_keys(config))


def test_node_classification_takes_gigl_names_and_defaults():
    # GiGL's examples/node_classification/homogeneous_training.py: train_batch_size 16, num_classes 7,
    # learning_rate 0.001, num_max_train_batches 200, num_val_batches 20.
    args = TrainerArgs.parse({}, task="node_classification")
    assert (args.train_batch_size, args.num_classes, args.learning_rate) == (16, 7, 0.001)
    assert (args.num_max_train_batches, args.num_val_batches, args.val_every_n_batch) == (200, 20, 50)
    assert TrainerArgs.parse({"train_batch_size": "64"}, task="node_classification").main_batch_size == 64
    # GiGL's link-prediction examples keep theirs.
    assert (TrainerArgs.parse({}).learning_rate, TrainerArgs.parse({}).num_max_train_batches) == (0.0005, 1000)
    with pytest.raises(ConfigError, match="train_batch_size"):
        TrainerArgs.parse({"main_batch_size": "64"}, task="node_classification")
    with pytest.raises(ConfigError, match="num_classes"):
        TrainerArgs.parse({"num_classes": "3"})


def test_link_prediction_accepts_gigl_example_arguments():
    # GiGL's examples/link_prediction/heterogeneous_training.py reads these trainerArgs, and
    # examples/link_prediction/configs/e2e_het_dblp_sup_task_config.yaml sets the dict-form fanout.
    gigl_args = {
        "log_every_n_batch": "50",
        "ssl_positive_label_percentage": "0.05",
        "local_world_size": "2",
        "sampling_workers_per_process": "4",
        "sampling_worker_shared_channel_size": "4GB",
        "process_start_gap_seconds": "0",
        "main_batch_size": "16",
        "random_batch_size": "16",
        "hid_dim": "16",
        "out_dim": "16",
        "learning_rate": "0.0005",
        "weight_decay": "0.0005",
        "num_max_train_batches": "1000",
        "num_val_batches": "100",
        "val_every_n_batch": "50",
        "num_neighbors": '{\n  ("term", "to", "paper"): [10, 10],\n  ("paper", "to", "author"): [15, 15],\n'
        '  ("author", "to", "paper"): [20, 20]\n}',
    }
    args = TrainerArgs.parse(gigl_args)
    assert args.ssl_positive_label_percentage == 0.05 and args.local_world_size == 2
    assert args.without_effect == [
        "sampling_workers_per_process",
        "sampling_worker_shared_channel_size",
        "process_start_gap_seconds",
    ]
    edge_types = (EdgeType("author", "to", "paper"), EdgeType("paper", "to", "author"), EdgeType("term", "to", "paper"))
    assert args.fanout_for(edge_types) == {edge_types[0]: [20, 20], edge_types[1]: [15, 15], edge_types[2]: [10, 10]}
    assert len(args.num_neighbors) == 2  # two hops, two GNN layers
    with pytest.raises(ConfigError, match=r"missing: \(paper, cites, paper\)"):
        args.fanout_for((*edge_types, EdgeType("paper", "cites", "paper")))
    assert TrainerArgs.parse({"num_neighbors": "[5, 3]"}).fanout_for(edge_types)[edge_types[2]] == [5, 3]


@pytest.mark.parametrize(
    "fanout",
    ['{("a", "to", "b"): [10, 10], ("b", "to", "a"): [5]}', '{"a": [1]}', '{("a", "to", "b"): __import__("os")}'],
)
def test_malformed_fanouts_per_edge_type_are_refused(fanout):
    with pytest.raises(ConfigError, match="num_neighbors"):
        TrainerArgs.parse({"num_neighbors": fanout})


def test_gigl_pipeline_arguments_run_logged_as_without_effect_and_metrics_use_gigls_format(tmp_path):
    data = {"source": "planted_partition", "num_nodes": 300, "num_communities": 6}
    args = {
        "num_max_train_batches": 2,
        "num_val_batches": 1,
        "sampling_workers_per_process": 2,
        "sampling_worker_shared_channel_size": "1GB",
        "local_world_size": 1,
        "ssl_positive_label_percentage": "0.5",
        "num_neighbors": '{("n", "r", "n"): [4, 4]}',
    }
    job = Job(tmp_path, task_config("link_prediction", data, args))
    result = job.run(timeout=120)
    assert result.returncode == 0, result.stderr
    assert "sampling_workers_per_process=2 is about GiGL's sampling workers and has no effect" in result.stdout
    assert "sampling_worker_shared_channel_size=1GB" in result.stdout
    # GiGL's KFP metrics file (gigl/src/common/translators/model_eval_metrics_translator.py): a "metrics" list of
    # {"name", "numberValue" (a string), "format": "RAW"}.
    written = __import__("json").loads((tmp_path / "outputs" / "eval_metrics.json").read_text())
    assert {entry["name"] for entry in written["metrics"]} >= {"mrr", "loss", "hits@1", "hits@10", "hits@50"}
    assert all(entry["format"] == "RAW" and isinstance(entry["numberValue"], str) for entry in written["metrics"])
