"""`trainyard logs`: a job's log, printed from a sequence number on, or followed live until the job ends."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import typer

from trainyard_cli import log_stream, output
from trainyard_cli.config import Settings
from trainyard_cli.connection import open_client
from trainyard_cli.problems import EXIT_FAILED
from trainyard_client import LogEnd, LogLine, LogsApi

PAGE_LINES = 10_000


def logs(
    ctx: typer.Context,
    job_id: Annotated[UUID, typer.Argument(metavar="ID", help="The job's id")],
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Follow new lines until the job ends")] = False,
    rank: Annotated[int | None, typer.Option("--rank", help="Only the lines of this worker rank")] = None,
    since: Annotated[
        int, typer.Option("--since", min=0, metavar="SEQ", help="Only lines after this sequence number")
    ] = 0,
) -> None:
    """Print a job's log; with -f, follow it live (resuming after a dropped connection) and exit non-zero
    unless the job SUCCEEDED."""
    settings: Settings = ctx.obj

    def show(line: LogLine) -> None:
        if rank is None or line.rank == rank:
            output.log_line(line)

    if follow:
        raise typer.Exit(follow_to_end(settings, str(job_id), since, show))
    api = LogsApi(open_client(settings))
    after = since
    while True:
        page = api.get_job_logs(job_id, after=after, limit=PAGE_LINES)
        for line in page.lines:
            show(line)
        if not page.lines:
            return
        after = page.next_after


def follow_to_end(settings: Settings, job_id: str, after: int, show=output.log_line) -> int:
    """Follows the job's log to its end event; answers the exit code: 0 when it SUCCEEDED, else EXIT_FAILED."""
    with output.err.status("Waiting for the job's log…") as status:

        def first_then_show(line: LogLine) -> None:
            status.stop()
            show(line)

        end = log_stream.follow(settings, job_id, after, first_then_show)
    _report_end(end)
    return 0 if end.state == "SUCCEEDED" else EXIT_FAILED


def _report_end(end: LogEnd) -> None:
    detail = ""
    if end.failure_cause:
        detail += f", cause {end.failure_cause}"
    if end.exit_code is not None:
        detail += f", exit code {end.exit_code}"
    if end.failure_message:
        detail += f": {end.failure_message}"
    message = output.state(end.state)
    message.stylize("bold")
    output.err.print("Job ended ", message, f" (attempt {end.attempt}{detail})", sep="")
