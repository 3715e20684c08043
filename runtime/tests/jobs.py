"""Writes real task/resource YAML files and runs the real trainer as a subprocess, as the server does."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import yaml

RESOURCE_CONFIG = {
    "sharedResourceConfig": {
        "resourceLabels": {"cost_resource_group": "tests"},
        "commonComputeConfig": {
            "project": "p",
            "region": "us-central1",
            "tempAssetsBucket": "gs://t",
            "tempRegionalAssetsBucket": "gs://tr",
            "permAssetsBucket": "gs://pa",
            "gcpServiceAccountEmail": "sa@p.iam.gserviceaccount.com",
        },
    },
    "trainerResourceConfig": {"localTrainerConfig": {"numWorkers": 1}},
}


def task_config(task: str, data_args: dict, trainer_args: dict, **shared) -> dict:
    metadata = (
        {
            "nodeAnchorBasedLinkPredictionTaskMetadata": {
                "supervisionEdgeTypes": [{"srcNodeType": "n", "relation": "r", "dstNodeType": "n"}]
            }
        }
        if task == "link_prediction"
        else {"nodeBasedTaskMetadata": {"supervisionNodeTypes": ["n"]}}
    )
    return {
        "taskMetadata": metadata,
        "graphMetadata": {"nodeTypes": ["n"], "edgeTypes": [{"srcNodeType": "n", "relation": "r", "dstNodeType": "n"}]},
        "datasetConfig": {
            "dataPreprocessorConfig": {"dataPreprocessorArgs": {k: str(v) for k, v in data_args.items()}}
        },
        "sharedConfig": {
            "trainedModelMetadata": {
                "trainedModelUri": "outputs/model.pt",
                "evalMetricsUri": "outputs/eval_metrics.json",
                "tensorboardLogsUri": "outputs/tensorboard",
            },
            **shared,
        },
        "trainerConfig": {
            "command": "python -m trainyard_runtime.train",
            "trainerArgs": {k: str(v) for k, v in trainer_args.items()},
        },
        "featureFlags": {"should_run_glt_backend": "True"},
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Job:
    def __init__(self, work_dir: Path, config: dict, resource: dict = RESOURCE_CONFIG):
        self.work_dir = work_dir
        work_dir.mkdir(parents=True, exist_ok=True)
        self.task_path = work_dir / "task.yaml"
        self.resource_path = work_dir / "resource.yaml"
        self.task_path.write_text(yaml.safe_dump(config))
        self.resource_path.write_text(yaml.safe_dump(resource))

    def argv(self, extra: list[str], module: str = "trainyard_runtime.train") -> list[str]:
        return [
            sys.executable,
            "-m",
            module,
            "--job_name=test-job",
            f"--task_config_uri=file://{self.task_path}",
            f"--resource_config_uri=file://{self.resource_path}",
            *extra,
        ]

    def run(self, *extra: str, env: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
        environment = {**os.environ, "OMP_NUM_THREADS": "1", **(env or {})}
        return subprocess.run(
            self.argv(list(extra)), cwd=self.work_dir, env=environment, capture_output=True, text=True, timeout=timeout
        )

    def start_rank(
        self, rank: int, world_size: int, port: int, *extra: str, module: str = "trainyard_runtime.train"
    ) -> subprocess.Popen:
        """One rank as the server starts it for localTrainerConfig.numWorkers > 1 (or, with ``module``, a
        graph-store job's storage process)."""
        env = {
            **os.environ,
            "OMP_NUM_THREADS": "1",
            "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": str(port),
            "WORLD_SIZE": str(world_size),
            "RANK": str(rank),
            "LOCAL_RANK": str(rank),
            "LOCAL_WORLD_SIZE": str(world_size),
            "GIGL_COMPONENT": "Trainer",
        }
        return subprocess.Popen(
            self.argv(list(extra), module),
            cwd=self.work_dir,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def metrics(self) -> dict[str, float]:
        """The test metrics of the eval metrics file, which has GiGL's (KFP's) format."""
        written = json.loads((self.work_dir / "outputs" / "eval_metrics.json").read_text())
        assert set(written) == {"metrics"}
        assert all(set(entry) == {"name", "numberValue", "format"} for entry in written["metrics"])
        return {entry["name"]: float(entry["numberValue"]) for entry in written["metrics"]}
