"""The `trainyard` command line against a real server, as a user runs it."""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from conftest import JOBS, Server
from dropping_proxy import DroppingProxy

from trainyard_client import JobsApi

DEMO = JOBS / "link-prediction"
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
SLEEPER_TASK = """\
taskMetadata:
  nodeAnchorBasedLinkPredictionTaskMetadata:
    supervisionEdgeTypes: []
featureFlags:
  should_run_glt_backend: "True"
sharedConfig:
  trainedModelMetadata:
    trainedModelUri: outputs/model.pt
trainerConfig:
  command: python3 -u -c 'import time; print("sleeping", flush=True); time.sleep(300)'
"""


def submitted_id(stderr: str) -> str:
    found = re.search(r"ubmitted:? job ([0-9a-f-]{36})", stderr)
    assert found, stderr
    return found.group(1)


@pytest.fixture(scope="module")
def demo_run(server: Server):
    """The small demo job (the real trainer), submitted and followed to its end by the CLI."""
    result = server.cli(
        "submit",
        "-t",
        DEMO / "task_config.yaml",
        "-r",
        DEMO / "resource_config.yaml",
        "--label",
        "suite=cli",
        "--priority",
        "5",
        "--follow",
        timeout=600,
    )
    return result, submitted_id(result.stderr)


def test_submit_follows_the_demo_job_to_success(demo_run):
    result, _ = demo_run
    assert result.returncode == 0, result.stderr
    assert "Job ended SUCCEEDED" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.strip(), "the trainer's log was followed"


def test_ls_lists_the_job_as_json_and_filters_it(server: Server, demo_run):
    _, job_id = demo_run
    listed = server.cli("ls", "--label", "suite=cli", "--state", "succeeded", "-o", "json")
    assert listed.returncode == 0, listed.stderr
    jobs = json.loads(listed.stdout)
    assert [job["id"] for job in jobs] == [job_id]
    # Named after the task config's folder, with the label and priority given.
    assert jobs[0]["jobName"] == "link_prediction"
    assert jobs[0]["labels"] == {"suite": "cli"} and jobs[0]["priority"] == 5
    assert json.loads(server.cli("ls", "--label", "suite=other", "-o", "json").stdout) == []
    table = server.cli("ls", "--name", "link_pred")
    assert job_id in table.stdout and "SUCCEEDED" in table.stdout


def test_describe_shows_state_and_every_event(server: Server, demo_run):
    _, job_id = demo_run
    described = server.cli("describe", job_id)
    assert described.returncode == 0, described.stderr
    assert re.search(r"State\s+SUCCEEDED", described.stdout)
    assert re.search(r"tensorboard=/jobs/" + job_id, described.stdout), "the job's links"
    for state in ("QUEUED", "STARTING", "RUNNING", "SUCCEEDED"):
        assert state in described.stdout.split("Events", 1)[1]
    as_json = json.loads(server.cli("describe", job_id, "-o", "json").stdout)
    assert [event["to"] for event in as_json["events"]] == ["QUEUED", "STARTING", "RUNNING", "SUCCEEDED"]


def test_logs_prints_the_log_from_a_sequence_number_on(server: Server, demo_run):
    followed, job_id = demo_run
    everything = server.cli("logs", job_id).stdout.splitlines()
    assert everything == followed.stdout.splitlines()
    assert len(everything) > 5
    assert server.cli("logs", job_id, "--since", "3").stdout.splitlines() == everything[3:]
    assert server.cli("logs", job_id, "--since", "3", "-f").stdout.splitlines() == everything[3:]
    assert server.cli("logs", job_id, "--rank", "1").stdout == "", "a single worker's job has rank 0 only"


def test_logs_follow_resumes_after_a_dropped_connection(server: Server, demo_run):
    _, job_id = demo_run
    everything = server.cli("logs", job_id).stdout.splitlines()
    # The first stream is cut after 1,200 bytes, a few events in; the follower reconnects with Last-Event-ID.
    proxy = DroppingProxy(urlparse(server.url).port, drops=1, pass_bytes=1200)
    try:
        result = server.cli("logs", job_id, "-f", TRAINYARD_URL=proxy.url)
    finally:
        proxy.close()
    assert result.returncode == 0, result.stderr
    assert proxy.connections == 2
    assert result.stdout.splitlines() == everything, "no line lost or repeated"


def test_an_invalid_submission_lists_each_field_error_and_exits_2(server: Server, tmp_path: Path):
    task = tmp_path / "task_config.yaml"
    task.write_text(
        (DEMO / "task_config.yaml").read_text().replace("  command: python -m trainyard_runtime.train\n", "")
    )
    result = server.cli("submit", "-t", task, "-r", DEMO / "resource_config.yaml", "--name", "Not-A-Name")
    assert result.returncode == 2, result.stderr
    assert re.search(r"^\s*jobName: \S", result.stderr, re.MULTILINE), result.stderr
    assert re.search(r"^\s*taskConfig\.trainerConfig\.command: is required", result.stderr, re.MULTILINE), result.stderr
    assert "Traceback" not in result.stderr


def test_submit_names_the_backend_and_an_unknown_one_is_a_field_error(server: Server):
    configs = ("-t", DEMO / "task_config.yaml", "-r", DEMO / "resource_config.yaml")
    planned = server.cli("submit", *configs, "--name", "on_local", "--backend", "local", "--dry-run")
    assert planned.returncode == 0, planned.stderr
    assert "Backend: local" in planned.stdout
    refused = server.cli("submit", *configs, "--name", "nowhere", "--backend", "nowhere")
    assert refused.returncode == 2, refused.stderr
    assert re.search(r"^\s*backend: this server has no backend 'nowhere'", refused.stderr, re.MULTILINE), refused.stderr


def test_dry_run_prints_the_launch_plan(server: Server):
    result = server.cli(
        "submit", "-t", DEMO / "task_config.yaml", "-r", DEMO / "resource_config.yaml", "--name", "planned", "--dry-run"
    )
    assert result.returncode == 0, result.stderr
    assert "Worker 0:" in result.stdout
    assert "python -m trainyard_runtime.train --job_name=planned" in result.stdout
    assert json.loads(server.cli("ls", "--name", "planned", "-o", "json").stdout) == [], "nothing stored"


def test_dry_run_at_80_columns_prints_paths_and_command_lines_whole(server: Server):
    configs = ("-t", DEMO / "task_config.yaml", "-r", DEMO / "resource_config.yaml", "--name", "planned_narrow")
    printed = server.cli("submit", *configs, "--dry-run", COLUMNS="80")
    assert printed.returncode == 0, printed.stderr
    plan = json.loads(server.cli("submit", *configs, "--dry-run", "-o", "json").stdout)
    # Each dry run plans a job of its own id, which its paths name.
    lines = re.sub(UUID, "ID", printed.stdout).splitlines()
    plan = json.loads(re.sub(UUID, "ID", json.dumps(plan)))
    expected = [f"Work folder: {plan['workDir']}"]
    for worker in plan["workers"]:
        expected.append("  " + shlex.join(worker["argv"]))
        expected += [f"    {key}={value}" for key, value in worker["environment"].items()]
    assert max(map(len, expected)) > 80, "the plan has lines longer than the width"
    for line in expected:
        assert line in lines, f"{line!r} not printed whole on a line of its own:\n{printed.stdout}"


def test_ls_at_80_columns_prints_each_job_on_one_aligned_line(server: Server, tmp_path: Path):
    names = ["short_one", "a_job_whose_name_is_too_long_for_eighty_columns_x"]
    for name in names:
        task = tmp_path / name / "task_config.yaml"
        task.parent.mkdir()
        task.write_text(SLEEPER_TASK.replace("time.sleep(300)", "time.sleep(0)"))
        submitted = server.cli("submit", "-t", task, "-r", DEMO / "resource_config.yaml", "-l", "suite=narrow", "-f")
        assert submitted.returncode == 0, submitted.stderr
    jobs = json.loads(server.cli("ls", "--label", "suite=narrow", "-o", "json").stdout)
    listed = server.cli("ls", "--label", "suite=narrow", COLUMNS="80")
    assert listed.returncode == 0, listed.stderr

    header, *rows = listed.stdout.splitlines()
    assert len(rows) == len(jobs) == 2, listed.stdout
    assert header.split()[:4] == ["ID", "NAME", "STATE", "WHERE"], "the columns that fit in 80 come first"
    name_at, state_at, where_at = (header.index(column) for column in ("NAME", "STATE", "WHERE"))
    for job, row in zip(jobs, rows, strict=True):
        assert len(row) <= 80 and len(header) <= 80, listed.stdout
        assert row.startswith(f"{job['id']}  "), "the whole id"
        name = row[name_at:state_at].rstrip()
        assert name == job["jobName"] or (name.endswith("…") and job["jobName"].startswith(name[:-1])), row
        assert row[state_at:where_at].rstrip() == "SUCCEEDED", row
        where = row[where_at:].split("  ")[0].rstrip("…")
        assert where and job["placement"]["node"].startswith(where), "the agent the job ran on"


def test_cancel_stops_a_running_job_and_its_follower_exits_non_zero(server: Server, tmp_path: Path):
    task = tmp_path / "sleeper" / "task_config.yaml"
    task.parent.mkdir()
    task.write_text(SLEEPER_TASK)
    follower = server.start_cli("submit", "-t", task, "-r", DEMO / "resource_config.yaml", "--follow")
    try:
        job_id = submitted_id(follower.stderr.readline())
        assert follower.stdout.readline() == "sleeping\n", "the job runs and its log is followed"
        jobs = JobsApi(server.client())
        deadline = time.monotonic() + 30
        while jobs.get_job(job_id).state != "RUNNING":
            assert time.monotonic() < deadline, "the job did not report RUNNING"
            time.sleep(0.2)

        cancelled = server.cli("cancel", job_id)
        assert cancelled.returncode == 0, cancelled.stderr
        assert re.search(r"CANCELL(ING|ED)", cancelled.stdout)
        _, stderr = follower.communicate(timeout=60)
    finally:
        follower.kill()
    assert follower.returncode == 1, stderr
    assert "Job ended CANCELLED" in stderr
    listed = json.loads(server.cli("ls", "--state", "CANCELLED", "-o", "json").stdout)
    assert job_id in [job["id"] for job in listed]


def test_a_submission_whose_answer_is_lost_is_resent_and_makes_one_job(server: Server, tmp_path: Path):
    task = tmp_path / "resent" / "task_config.yaml"
    task.parent.mkdir()
    task.write_text(SLEEPER_TASK.replace("time.sleep(300)", "time.sleep(0)"))
    # The server takes the first POST, but its answer never arrives: the CLI sends it again, same key.
    proxy = DroppingProxy(urlparse(server.url).port, drops=1, pass_bytes=0)
    try:
        result = server.cli("submit", "-t", task, "-r", DEMO / "resource_config.yaml", TRAINYARD_URL=proxy.url)
    finally:
        proxy.close()
    assert result.returncode == 0, result.stderr
    assert "Already submitted: job" in result.stderr, "the server answered the resent submission with its job"
    jobs = json.loads(server.cli("ls", "--name", "resent", "-o", "json").stdout)
    assert [job["id"] for job in jobs] == [result.stdout.strip()]


def test_an_unreachable_server_is_a_message_and_exit_3(server: Server):
    started = time.monotonic()
    result = server.cli("ls", TRAINYARD_URL="http://127.0.0.1:9")
    assert result.returncode == 3
    assert "cannot reach the Trainyard server at http://127.0.0.1:9" in result.stderr
    assert "Traceback" not in result.stderr
    assert time.monotonic() - started < 30


def test_a_wrong_token_says_how_to_give_one(server: Server):
    result = server.cli("ls", TRAINYARD_TOKEN="ty_not-a-token")
    assert result.returncode == 1
    assert "(401)" in result.stderr and "TRAINYARD_TOKEN" in result.stderr


def test_retry_runs_an_ended_job_again(server: Server, tmp_path: Path):
    task = tmp_path / "retried" / "task_config.yaml"
    task.parent.mkdir()
    task.write_text(SLEEPER_TASK.replace("time.sleep(300)", "time.sleep(0)"))
    first = server.cli("submit", "-t", task, "-r", DEMO / "resource_config.yaml", "--follow")
    assert first.returncode == 0, first.stderr
    job_id = submitted_id(first.stderr)
    result = server.cli("retry", job_id)
    assert result.returncode == 0, result.stderr
    assert "attempt 2" in result.stdout
    second = server.cli("logs", job_id, "-f")
    assert second.returncode == 0, second.stderr
    assert "Job ended SUCCEEDED (attempt 2" in second.stderr
    assert JobsApi(server.client()).get_job(job_id).attempt == 2


def test_agents_backends_and_version(server: Server):
    agents = server.cli("agents", "-o", "json")
    assert agents.returncode == 0, agents.stderr
    assert [agent["state"] for agent in json.loads(agents.stdout)] == ["ACTIVE"], "the server's own agent"
    backends = server.cli("backends", "-o", "json")
    assert backends.returncode == 0, backends.stderr
    assert [backend["name"] for backend in json.loads(backends.stdout)] == ["local"], "Vertex AI is off"
    table = server.cli("backends")
    # The local pool also runs Vertex AI's graph-store configs while Vertex AI is off.
    runs = r"localTrainerConfig, vertexAiGraphStoreTrainerConfig"
    assert re.search(rf"^\s*local\s+{runs}\s+yes", table.stdout, re.MULTILINE), table.stdout
    version = server.cli("version")
    assert version.returncode == 0, version.stderr
    assert re.search(r"^trainyard 0\.1\.0 \(API v1\)$", version.stdout, re.MULTILINE)
    assert f"server {server.url} (API v1)" in version.stdout
    assert "signed in as admin (global admin)" in version.stdout


def test_a_job_id_that_is_no_uuid_is_a_usage_error(server: Server):
    result = server.cli("describe", "not-a-uuid")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    missing = server.cli("logs", "00000000-0000-0000-0000-000000000000")
    assert missing.returncode == 1
    assert "(404)" in missing.stderr
