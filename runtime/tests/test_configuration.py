"""Arguments and configs: GiGL's shapes are accepted, anything else fails at once, naming the culprit."""

import pytest

from jobs import Job, task_config
from trainyard_runtime.config.command_line import parse_command_line
from trainyard_runtime.config.params import ConfigError
from trainyard_runtime.config.task_config import TaskConfig, normalise_keys
from trainyard_runtime.config.trainer_args import TrainerArgs

STANDARD = ["--job_name=j", "--task_config_uri=file:///t.yaml", "--resource_config_uri=file:///r.yaml"]


def test_trainer_args_use_gigl_names_and_the_command_line_wins():
    args = TrainerArgs.parse({"num_neighbors": "[15, 10, 5]", "main_batch_size": "512", "learning_rate": "0.01"},
                             {"main_batch_size": "64"})
    assert args.num_neighbors == [15, 10, 5] and args.main_batch_size == 64 and args.learning_rate == 0.01
    assert TrainerArgs.parse({}).random_batch_size == 16  # GiGL's example default


@pytest.mark.parametrize("raw, named", [
    ({"num_neighbours": "[10]"}, "num_neighbours"),
    ({"main_batch_size": "abc"}, "main_batch_size"),
    ({"num_neighbors": "[10, 0]"}, "num_neighbors"),
    ({"learning_rate": "-1"}, "learning_rate"),
    ({"sampler": "magic"}, "sampler"),
])
def test_bad_trainer_args_name_the_argument(raw, named):
    with pytest.raises(ConfigError, match=named):
        TrainerArgs.parse(raw)


def test_command_line_takes_the_server_flags_and_overrides():
    parsed = parse_command_line(STANDARD + ["--use_cuda", "--hid_dim=8", "--nproc", "2"])
    assert parsed.use_cuda and parsed.nproc == 2 and parsed.overrides == {"hid_dim": "8"}
    with pytest.raises(ConfigError, match="--bogus"):
        parse_command_line(STANDARD + ["--bogus=1"])
    with pytest.raises(ConfigError, match="--task_config_uri"):
        parse_command_line(["--job_name=j", "--resource_config_uri=r"])


def test_camel_and_snake_case_configs_read_the_same():
    camel = task_config("link_prediction", {"source": "rmat"}, {"hid_dim": 8}, shouldSkipTraining=True)
    camel["datasetConfig"]["splitGeneratorConfig"] = {"splitterArgs": {"train_split": "0.7", "val_split": "0.2", "test_split": "0.1"}}
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


@pytest.mark.parametrize("extra, config_change, message", [
    (["--no_such_arg=3"], None, "unknown argument --no_such_arg"),
    (["--main_batch_size=many"], None, "main_batch_size"),
    ([], ("trainerArgs", {"hidden": "3"}), "hidden"),
    ([], ("output", "gs://bucket/model.pt"), "gs://"),
    ([], ("data", {"source": "rmat", "scale": "12", "colour": "red"}), "colour"),
])
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
