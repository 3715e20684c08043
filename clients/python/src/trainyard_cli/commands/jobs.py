"""`trainyard submit`, `ls`, `describe`, `cancel` and `retry`: jobs, through the generated client's JobsApi."""

from __future__ import annotations

from enum import Enum
from typing import Annotated
from uuid import UUID

import typer

from trainyard_cli import output, submission
from trainyard_cli.commands.logs import follow_to_end
from trainyard_cli.commands.options import Format, OutputFormat
from trainyard_cli.config import Settings
from trainyard_cli.connection import open_client
from trainyard_client import JobsApi


class State(str, Enum):
    """A job's states, as listJobs filters by them."""

    QUEUED = "QUEUED"
    STARTING = "STARTING"
    RUNNING = "RUNNING"
    CANCELLING = "CANCELLING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


JobId = Annotated[UUID, typer.Argument(metavar="ID", help="The job's id")]


def submit(
    ctx: typer.Context,
    task: Annotated[
        str,
        typer.Option(
            "--task",
            "-t",
            metavar="FILE|URI",
            help="The GiGL task config: a YAML file (sent inline) or a file:// or gs:// URI",
        ),
    ],
    resource: Annotated[
        str, typer.Option("--resource", "-r", metavar="FILE|URI", help="The GiGL resource config: a YAML file or a URI")
    ],
    name: Annotated[
        str | None, typer.Option(help="The job name (default: the task config's folder, e.g. link_prediction)")
    ] = None,
    label: Annotated[
        list[str] | None, typer.Option("--label", "-l", metavar="KEY=VALUE", help="A label (repeatable)")
    ] = None,
    priority: Annotated[int | None, typer.Option(help="Higher runs first, -1000 to 1000 (default 0)")] = None,
    gpus: Annotated[int | None, typer.Option(help="GPUs of a local or Slurm job, one worker each")] = None,
    nodes: Annotated[
        int | None, typer.Option(help="Hosts to spread the workers over, evenly (backends that run jobs across hosts)")
    ] = None,
    backend: Annotated[
        str | None, typer.Option(help="The backend to run it (`trainyard backends`; default: by the resource config)")
    ] = None,
    project: Annotated[str | None, typer.Option(help="The job's project (default: default)")] = None,
    follow: Annotated[
        bool,
        typer.Option("--follow", "-f", help="Follow the log until the job ends; exit non-zero unless it SUCCEEDED"),
    ] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Validate and print the launch plan; submit nothing")
    ] = False,
    output_format: OutputFormat = Format.table,
) -> None:
    """Submit a job (printing its id), or with --dry-run show how it would be launched."""
    settings: Settings = ctx.obj
    body = submission.build(
        task,
        resource,
        name=name,
        project=project,
        labels=label or [],
        priority=priority,
        gpus=gpus,
        nodes=nodes,
        backend=backend,
    )
    if dry_run:
        plan = JobsApi(open_client(settings)).dry_run_job(body)
        if output_format is Format.json:
            output.print_json(plan)
        else:
            output.launch_plan(plan)
        return
    submitted = submission.submit(open_client(settings, resend_posts=True), body)
    job = submitted.job
    verb = "Submitted" if submitted.created else "Already submitted:"
    output.err.print(f"{verb} job {job.id} ({job.job_name}, project {job.project}), {job.state}")
    if follow:
        raise typer.Exit(follow_to_end(settings, str(job.id), 0))
    if output_format is Format.json:
        output.print_json(job)
    else:
        print(job.id)


def ls(
    ctx: typer.Context,
    state: Annotated[
        list[State] | None,
        typer.Option("--state", "-s", case_sensitive=False, help="Only jobs in this state (repeatable)"),
    ] = None,
    name: Annotated[str | None, typer.Option("--name", "-n", help="Only jobs whose name starts with this")] = None,
    label: Annotated[
        list[str] | None,
        typer.Option("--label", "-l", metavar="KEY=VALUE", help="Only jobs with this label (repeatable)"),
    ] = None,
    project: Annotated[
        list[str] | None, typer.Option("--project", "-p", help="Only jobs of this project (repeatable)")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many jobs, newest first")] = 50,
    output_format: OutputFormat = Format.table,
) -> None:
    """List jobs, newest first."""
    api = JobsApi(open_client(ctx.obj))
    jobs, cursor = [], None
    while len(jobs) < limit:
        page = api.list_jobs(
            state=[value.value for value in state] if state else None,
            name_prefix=name,
            label=label or None,
            project=project or None,
            cursor=cursor,
            limit=min(limit - len(jobs), 500),
        )
        jobs.extend(page.jobs)
        cursor = page.next_cursor
        if not cursor:
            break
    if output_format is Format.json:
        output.print_json(jobs)
    else:
        for line in output.jobs_list(jobs, output.out.width):
            # A line still too long (ids are never cut) is left to the terminal to wrap: it then copies whole.
            output.out.print(line, soft_wrap=True)


def describe(ctx: typer.Context, job_id: JobId, output_format: OutputFormat = Format.table) -> None:
    """A job's state, failure cause, placement, links and its state history."""
    api = JobsApi(open_client(ctx.obj))
    job = api.get_job(job_id)
    events = api.list_job_events(job_id)
    if output_format is Format.json:
        output.print_json({"job": job, "events": events})
        return
    for line in output.job_details(job):
        output.out.print(line, soft_wrap=True)
    output.out.print()
    output.out.print(output.events_table(events))


def cancel(ctx: typer.Context, job_id: JobId) -> None:
    """Cancel a job: at once if queued, else its processes are stopped (CANCELLING, then CANCELLED)."""
    job = JobsApi(open_client(ctx.obj)).cancel_job(job_id)
    output.out.print(f"Job {job.id} ({job.job_name}): ", output.state(job.state), sep="")


def retry(ctx: typer.Context, job_id: JobId) -> None:
    """Run an ended job again: same id, the next attempt."""
    job = JobsApi(open_client(ctx.obj)).retry_job(job_id)
    output.out.print(f"Job {job.id} ({job.job_name}): ", output.state(job.state), f", attempt {job.attempt}", sep="")
