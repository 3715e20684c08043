"""A submission from the command line's files and flags, and sending it once, however often it must be resent."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlparse

from trainyard_cli.problems import EXIT_USAGE, CliError
from trainyard_client import ApiClient, Job, JobsApi, JobSubmission

URI_SCHEMES = ("file://", "gs://")


@dataclass(frozen=True)
class Submitted:
    job: Job
    created: bool
    """False when the server answered 200: a resent submission, the job its first sending made."""


def build(
    task: str,
    resource: str,
    *,
    name: str | None,
    project: str | None,
    labels: list[str],
    priority: int | None,
    gpus: int | None,
    nodes: int | None = None,
    backend: str | None = None,
) -> JobSubmission:
    """The JobSubmission for a task and a resource config, each a local file (sent inline as YAML text, so the
    server needs no access to it) or a `file://` or `gs://` URI (read by the server: under its config roots,
    and the way to a config composed from Hydra `defaults`)."""
    task_text, task_uri = _config(task, "task config")
    resource_text, resource_uri = _config(resource, "resource config")
    # Unchecked here (the model would refuse a bad name or count on its own, one field at a time): the server checks
    # every field and answers all that are wrong at once, with their paths.
    return JobSubmission.model_construct(
        job_name=name or default_job_name(task),
        project=project,
        task_config=task_text,
        task_config_uri=task_uri,
        resource_config=resource_text,
        resource_config_uri=resource_uri,
        labels=parse_labels(labels) or None,
        priority=priority,
        gpus=gpus,
        nodes=nodes,
        backend=backend,
    )


def submit(client: ApiClient, submission: JobSubmission) -> Submitted:
    """Sends the submission with a fresh Idempotency-Key; the client resends it with the same key when the
    connection drops (see connection.open_client), so one command makes at most one job."""
    answer = JobsApi(client).submit_job_with_http_info(submission, idempotency_key=str(uuid.uuid4()))
    return Submitted(job=answer.data, created=answer.status_code == 201)


def parse_labels(labels: list[str]) -> dict[str, str]:
    parsed = {}
    for label in labels:
        key, equals, value = label.partition("=")
        if not equals or not key:
            raise CliError(f"--label takes key=value, not {label!r}", EXIT_USAGE)
        parsed[key] = value
    return parsed


def default_job_name(task: str) -> str:
    """The name of the folder holding the task config, made a valid GiGL job name
    (`examples/link-prediction/task_config.yaml` → `link_prediction`)."""
    path = PurePosixPath(urlparse(task).path) if task.startswith(URI_SCHEMES) else Path(task).resolve()
    name = re.sub(r"[^a-z0-9_]+", "_", path.parent.name.lower()).strip("_")
    if not re.match(r"[a-z]", name):
        name = "job_" + name if name else "job"
    return name[:51].rstrip("_")


def _config(argument: str, what: str) -> tuple[str | None, str | None]:
    """(YAML text, None) for a local file, (None, URI) for a URI the server reads."""
    if argument.startswith(URI_SCHEMES):
        return None, argument
    try:
        return Path(argument).read_text(encoding="utf-8"), None
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read the {what} {argument}: {error}", EXIT_USAGE) from error
