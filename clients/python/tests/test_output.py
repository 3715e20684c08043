"""What the CLI makes of jobs and plans, without a server: placements no test here can start (Slurm, Vertex AI)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from trainyard_cli import output
from trainyard_client import Job, LaunchPlan

ID = "3f2b6c1e-8a4d-4c2e-9b1a-0d5e6f7a8b9c"


def job(**fields) -> Job:
    at = "2025-11-27T10:00:00Z"
    stored = {
        "id": ID,
        "jobName": "link_prediction",
        "project": "default",
        "backend": "slurm",
        "state": "RUNNING",
        "attempt": 1,
        "priority": 0,
        "workers": 4,
        "requireGpus": True,
        "timeoutSeconds": 3600,
        "labels": {},
        "links": {},
        "outputs": {},
        "createdAt": at,
        "queuedAt": at,
        "updatedAt": at,
    }
    return Job.from_dict(stored | fields)


SLURM = {"kind": "slurm", "partition": "debug", "nodes": 2, "gpusPerNode": 2, "tasksPerNode": 2}


def test_a_running_slurm_job_is_where_slurm_runs_it():
    running = job(placement=SLURM | {"slurmJobId": 1234, "hosts": "node[1-2]"})
    assert output.where(running) == "slurm 1234 debug node[1-2]"


def test_a_slurm_job_not_yet_running_has_its_partition_only():
    assert output.where(job(placement=SLURM)) == "slurm debug"


def _on_agents(*more_hosts: dict) -> dict:
    """A local job's placement: GPUs 0 and 1 of gpu-host-7, then ``more_hosts``."""
    placement = {"kind": "agent", "node": "gpu-host-7", "device": "cuda", "gpus": [0, 1], "cpuSlots": 0}
    return job(backend="local", placement={**placement, "moreHosts": list(more_hosts)})


def test_a_local_job_is_on_its_agent_and_gpus():
    assert output.where(_on_agents()) == "gpu-host-7 gpu 0,1"
    second = {"node": "gpu-host-8", "gpus": [0, 1], "cpuSlots": 0, "firstRank": 2, "workers": 2}
    assert output.where(_on_agents(second)) == "gpu-host-7 gpu 0,1 +1 host(s)", "a job spanning agents"
    assert output.where(job(state="QUEUED")) == "", "not placed yet"


def test_a_vertex_ai_job_is_its_custom_job():
    console = "https://console.cloud.google.com/vertex-ai/locations/us-central1/training/812345/cpu?project=p"
    placement = {"kind": "vertexAi", "project": "p", "region": "us-central1"}
    assert output.where(job(placement=placement, links={"vertexConsole": console})) == "vertex 812345"
    assert output.where(job(placement=placement)) == "vertex us-central1", "before it runs"


def test_at_80_columns_a_job_is_one_line_with_its_whole_id_and_where_it_runs():
    running = job(
        jobName="a_name_much_too_long_for_eighty_columns",
        project="a_long_project",
        placement=SLURM | {"slurmJobId": 1234, "hosts": "node[1-2]"},
        failureCause="USER_CODE",
    )
    header, row = (line.plain for line in output.jobs_list([running], 80))
    assert header.split() == ["ID", "NAME", "STATE", "WHERE"]
    assert len(row) <= 80
    job_id, name, state, where = (row[start:end].strip() for start, end in _spans(header))
    assert job_id == ID
    assert name.endswith("…") and "a_name_much_too_long_for_eighty_columns".startswith(name[:-1])
    assert state == "RUNNING"
    assert where.startswith("slurm 1234")


def test_describe_at_80_columns_prints_each_output_and_link_whole_on_a_line_of_its_own(narrow: io.StringIO):
    folder = f"file:///var/lib/trainyard/data/jobs/{ID}/outputs"
    described = job(
        outputs={"tensorboardLogsUri": f"{folder}/tensorboard", "trainedModelUri": f"{folder}/model.pt"},
        links={"tensorboard": f"/jobs/{ID}/tensorboard/"},
    )
    for line in output.job_details(described):
        output.out.print(line, soft_wrap=True)
    printed = narrow.getvalue().splitlines()
    assert max(map(len, printed)) > 80, "lines longer than the width"
    for value in (f"tensorboardLogsUri={folder}/tensorboard", f"trainedModelUri={folder}/model.pt"):
        assert any(line.endswith(value) for line in printed), f"{value!r} not whole on a line:\n{narrow.getvalue()}"
    assert any(line.startswith("Links") and line.endswith(f"tensorboard=/jobs/{ID}/tensorboard/") for line in printed)


def test_a_dry_run_on_slurm_prints_its_batch_script_whole(narrow: io.StringIO):
    script = [
        "#!/bin/bash",
        f"#SBATCH --job-name=trainyard-{ID}-1",
        f"srun --kill-on-bad-exit=1 --output='/shared/trainyard/jobs/{ID}/attempts/1/rank-%t.stdout' \\",
    ]
    plan = LaunchPlan.from_dict(
        {"backend": "slurm", "placement": SLURM, "workers": [], "batchScript": "\n".join(script) + "\n"}
    )
    output.launch_plan(plan)
    printed = narrow.getvalue().splitlines()
    assert printed[printed.index("Slurm batch script:") + 1 :] == script


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """What the CLI prints, at 80 columns and not to a terminal."""
    printed = io.StringIO()
    monkeypatch.setattr(output, "out", Console(file=printed, width=80, color_system=None))
    return printed


def _spans(header: str) -> list[tuple[int, int | None]]:
    """Where each column of a line starts and ends, from where its header starts."""
    starts = [header.index(name) for name in header.split()]
    return list(zip(starts, [*starts[1:], None], strict=True))
