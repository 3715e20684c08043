"""How the command line shows things: Rich tables and aligned columns for people, JSON (as the API spells it) for
scripts.

Results go to standard output, everything about the command's progress and errors to standard error, so
`trainyard submit … | …` and `$(trainyard submit …)` see only the result.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from trainyard_cli import columns
from trainyard_cli.columns import Column
from trainyard_cli.problems import CliError
from trainyard_client import (
    Agent,
    ApiClient,
    Backend,
    Job,
    JobEvent,
    LaunchPlan,
    LogLine,
    OnAgent,
    OnSlurm,
    OnVertexAi,
)

out = Console(highlight=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)

STATE_STYLES = {
    "QUEUED": "yellow",
    "STARTING": "cyan",
    "RUNNING": "blue",
    "CANCELLING": "magenta",
    "SUCCEEDED": "green",
    "FAILED": "red",
    "CANCELLED": "bright_black",
}


def print_json(value: Any) -> None:
    """A model or a list of models as the API's JSON (camelCase keys, ISO times), unstyled for scripts."""
    print(json.dumps(ApiClient().sanitize_for_serialization(value), indent=2))


def print_error(error: CliError) -> None:
    err.print(Text(f"error: {error.message}", style="bold red"))
    for detail in error.details:
        err.print(Text(f"  {detail}"))


def state(value: str) -> Text:
    return Text(value, style=STATE_STYLES.get(value, ""))


def jobs_list(jobs: Sequence[Job], width: int) -> list[Text]:
    """`trainyard ls`: a line per job within width, the long cells cut short and, where that is not enough, the
    least needed columns left out (BACKEND first: WHERE mostly tells it)."""
    return columns.lines(
        [
            # Ids are never shortened: they are what the other commands take.
            Column("ID", [Text(str(job.id)) for job in jobs]),
            Column("NAME", [Text(job.job_name) for job in jobs], shortest=16),
            Column("STATE", [state(job.state) for job in jobs]),
            Column("PROJECT", [Text(job.project) for job in jobs], shortest=8, priority=2),
            Column("BACKEND", [Text(job.backend) for job in jobs], shortest=6, priority=0),
            Column("WHERE", [Text(where(job)) for job in jobs], shortest=12),
            Column("ATTEMPT", [Text(str(job.attempt)) for job in jobs], priority=1),
            Column("CREATED", [Text(_time(job.created_at, "%Y-%m-%d %H:%M")) for job in jobs], priority=3),
            Column("CAUSE", [Text(_cause(job)) for job in jobs], shortest=10, priority=4),
        ],
        width,
    )


def where(job: Job) -> str:
    """Where a job runs, in a few words: a local job's agent (its host name unless named otherwise) and GPUs, and
    how many agents more when it spans several; a Slurm job's id, partition and hosts (the id and hosts once Slurm
    runs it), a Vertex AI CustomJob's id."""
    placement = job.placement.actual_instance if job.placement is not None else None
    if isinstance(placement, OnAgent):
        more = f" +{len(placement.more_hosts)} host(s)" if placement.more_hosts else ""
        return placement.node + (f" gpu {','.join(map(str, placement.gpus))}" if placement.gpus else "") + more
    if isinstance(placement, OnSlurm):
        parts = ("slurm", placement.slurm_job_id, placement.partition, placement.hosts)
        return " ".join(str(part) for part in parts if part)
    if isinstance(placement, OnVertexAi):
        # The API names the CustomJob only in the link to its console page.
        found = re.search(r"/training/(\w+)", job.links.get("vertexConsole", ""))
        return f"vertex {found.group(1) if found else placement.region}"
    return ""


def job_details(job: Job) -> list[Text]:
    """One job, a line per field (an output or link each a line of its own): what `describe` shows above the events.

    Values are printed whole, however wide: the terminal wraps a long one, so a path or URL copies as it is (a table
    would break it mid-word at 80 columns or when piped).
    """
    rows: list[tuple[str, Any]] = [
        ("ID", str(job.id)),
        ("Name", job.job_name),
        ("Project", job.project),
        ("State", state(job.state)),
        ("Cause", _cause(job) or None),
        ("Failure", job.failure_message),
        ("Attempt", str(job.attempt)),
        ("Backend", job.backend),
        ("Placement", _placement(job)),
        ("Queue position", job.queue_position),
        ("Waiting", job.waiting_reason),
        ("Priority", str(job.priority)),
        ("Workers", str(job.workers)),
        ("Submitted by", job.submitted_by),
        ("Queued", _time(job.queued_at)),
        ("Started", _time(job.started_at)),
        ("Finished", _time(job.finished_at)),
        ("Labels", ", ".join(_pairs(job.labels))),
        *_named_lines("Outputs", _pairs(job.outputs)),
        *_named_lines("Links", _pairs(job.links)),
    ]
    width = max(len(name) for name, _ in rows) + 2
    return [
        Text.assemble((name.ljust(width), "bold"), value if isinstance(value, Text) else str(value))
        for name, value in rows
        if value not in (None, "")
    ]


def _named_lines(name: str, values: list[str]) -> list[tuple[str, str]]:
    """A field of several values as lines, the name on the first."""
    return [(name if index == 0 else "", value) for index, value in enumerate(values)]


def events_table(events: Iterable[JobEvent]) -> Table:
    table = Table(title="Events", title_justify="left", box=None, header_style="bold")
    for column in ("AT", "ATTEMPT", "FROM", "TO", "CAUSE", "MESSAGE"):
        table.add_column(column)
    for event in events:
        table.add_row(
            _time(event.at),
            str(event.attempt),
            event.var_from or "",
            state(event.to),
            event.cause or "",
            Text(event.message or ""),
        )
    return table


def agents_table(agents: Iterable[Agent]) -> Table:
    table = Table(box=None, header_style="bold")
    for column in ("ID", "HOST", "STATE", "GPUS FREE", "CPU SLOTS USED", "RUNNING JOBS", "LAST HEARTBEAT"):
        table.add_column(column)
    for agent in agents:
        free = sum(1 for gpu in agent.gpus if not gpu.in_use)
        running = ", ".join(job.job_name or "(hidden)" for job in agent.running_jobs)
        table.add_row(
            agent.id,
            agent.host,
            Text(agent.state, style="green" if agent.state == "ACTIVE" else "red"),
            f"{free}/{len(agent.gpus)}",
            f"{agent.cpu_slots_used}/{agent.cpu_slots}",
            running,
            _time(agent.last_heartbeat_at),
        )
    return table


def backends_table(backends: Iterable[Backend]) -> Table:
    table = Table(box=None, header_style="bold")
    for column in ("NAME", "RUNS", "GPU COUNTS", "DESCRIPTION"):
        table.add_column(column)
    for backend in backends:
        gpu_counts = "yes" if backend.gpus else "no"
        table.add_row(backend.name, ", ".join(backend.resource_configs), gpu_counts, backend.description)
    return table


def launch_plan(plan: LaunchPlan) -> None:
    """A dry run's answer: where the job would run and each worker's exact command line and environment."""

    def line(*parts: str | tuple[str, str]) -> None:
        # Whole, however long: paths and command lines are there to be copied, and Rich would break them (mid-word
        # where a word is longer than the width) at 80 columns or when piped.
        out.print(Text.assemble(*parts), soft_wrap=True)

    line(("Backend: ", "bold"), plan.backend)
    if plan.work_dir:
        line(("Work folder: ", "bold"), plan.work_dir)
    line(("Placement: ", "bold"), json.dumps(plan.placement, sort_keys=True))
    for worker in plan.workers:
        line((f"Worker {worker.rank}:", "bold"))
        line(f"  {shlex.join(worker.argv)}")
        for key, value in sorted(worker.environment.items()):
            line((f"    {key}={value}", "dim"))
    if plan.batch_script:
        line(("Slurm batch script:", "bold"))
        for script_line in plan.batch_script.splitlines():
            line(script_line)
    if plan.custom_job_request:
        line(("Vertex AI CustomJob request:", "bold"))
        out.print_json(json.dumps(plan.custom_job_request))


def log_line(line: LogLine) -> None:
    """A log line as the trainer wrote it; lines of ranks other than 0 are marked with their rank."""
    prefix = f"[rank {line.rank}] " if line.rank else ""
    print(prefix + line.text, flush=True)


def _cause(job: Job) -> str:
    if not job.failure_cause:
        return ""
    return job.failure_cause + (f" (exit code {job.exit_code})" if job.exit_code is not None else "")


def _placement(job: Job) -> str | None:
    placement = job.placement.actual_instance if job.placement is not None else None
    if placement is None:
        return None
    return ", ".join(f"{key}={value}" for key, value in placement.to_dict().items() if value not in (None, [], ""))


def _pairs(values: dict[str, str] | None) -> list[str]:
    return [f"{key}={value}" for key, value in sorted((values or {}).items())]


def _time(value: datetime | None, layout: str = "%Y-%m-%d %H:%M:%S") -> str:
    """A time of the API (UTC) in the local time zone."""
    return value.astimezone().strftime(layout) if value else ""
