"""Following a job's log live: the server's Server-Sent Events (followJobLogs), resumed after a dropped connection.

The generated client types the events' payloads (LogLine, LogEnd) but reads a response whole, so the stream
itself is read with httpx and httpx-sse, which parses the event stream as it arrives.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx
from httpx_sse import SSEError, connect_sse

from trainyard_cli.config import Settings
from trainyard_cli.problems import CliError, from_api_exception, unreachable
from trainyard_client import ApiException, LogEnd, LogLine, Problem

RECONNECTS = 5
"""Reconnections in a row without an event in between before giving up."""
# The server sends a keepalive comment every 15 s when there is nothing else: a longer silence is a dead connection.
TIMEOUT = httpx.Timeout(10.0, read=45.0)


def follow(settings: Settings, job_id: str, after: int, on_line: Callable[[LogLine], None]) -> LogEnd:
    """Calls `on_line` for each line above sequence number `after`, as it is written, and answers how the job
    ended. After a dropped connection it reconnects with `Last-Event-ID` = the last line seen, so no line is
    lost or repeated."""
    last_seq = after
    retry_seconds = 1.0
    failures = 0
    headers = {"Authorization": f"Bearer {settings.token}"} if settings.token else {}
    with httpx.Client(base_url=settings.url, headers=headers, timeout=TIMEOUT) as http:
        while True:
            try:
                resume = {"Last-Event-ID": str(last_seq)} if last_seq else {}
                with connect_sse(http, "GET", f"/jobs/{job_id}/logs/stream", headers=resume) as source:
                    _raise_for_problem(source.response)
                    for event in source.iter_sse():
                        failures = 0
                        if event.retry is not None:
                            retry_seconds = event.retry / 1000
                        if event.event == "log":
                            line = LogLine.from_json(event.data)
                            last_seq = line.seq
                            on_line(line)
                        elif event.event == "end":
                            return LogEnd.from_json(event.data)
                        elif event.event == "error":
                            # The server ended the stream: this token may no longer read the job (revoked,
                            # expired, or its user removed from the project). Reconnecting would not help.
                            problem = Problem.from_json(event.data)
                            raise from_api_exception(ApiException(status=problem.status, body=event.data, data=problem))
                # The stream closed before its `end` event: a proxy or the server went away mid-stream.
                error: Exception = httpx.RemoteProtocolError("the log stream closed before the job ended")
            except (httpx.TransportError, SSEError) as dropped:
                error = dropped
            failures += 1
            if failures > RECONNECTS:
                raise unreachable(error)
            time.sleep(retry_seconds)


def _raise_for_problem(response: httpx.Response) -> None:
    if response.status_code != 200:
        response.read()
        raise from_api_exception(
            ApiException(status=response.status_code, reason=response.reason_phrase, body=response.text)
        )
    if not response.headers.get("content-type", "").startswith("text/event-stream"):
        raise CliError(f"the server answered {response.headers.get('content-type')} instead of an event stream")
