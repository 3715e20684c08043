"""What goes wrong, as the user should read it: the server's problem details, an unreachable server, and exit codes."""

from __future__ import annotations

import json

import httpx

from trainyard_client import ApiException, Problem

EXIT_FAILED = 1
"""The server refused the request (not found, conflict, …), or a followed job ended FAILED or CANCELLED."""
EXIT_USAGE = 2
"""Invalid input: a submission the server found invalid (422), a bad flag, an unreadable file."""
EXIT_UNREACHABLE = 3
"""No answer from the server: refused or dropped connections, after the retries."""


class CliError(Exception):
    """A failure to report in a few lines (no traceback) and exit with `exit_code`."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILED, details: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.details = details or []


def as_cli_error(error: Exception) -> CliError:
    """A failure that ended a command, as the message to print and the exit code."""
    if isinstance(error, CliError):
        return error
    if isinstance(error, ApiException):
        return from_api_exception(error)
    return unreachable(error)


def from_api_exception(error: ApiException) -> CliError:
    """The server's problem detail (RFC 9457) as a message; each invalid field as `path: message`."""
    problem = _problem(error)
    if problem is None:
        return CliError(f"the server answered {error.status} {error.reason or ''}".rstrip())
    message = f"{problem.title} ({problem.status})" + (f": {problem.detail}" if problem.detail else "")
    if problem.status == 401:
        message += " — give a token with --token, TRAINYARD_TOKEN or the config file"
    if problem.status == 422:
        fields = [f"{field.var_field}: {field.message}" for field in problem.errors or []]
        return CliError(message, EXIT_USAGE, fields)
    return CliError(message)


def unreachable(error: Exception) -> CliError:
    """A refused, dropped or timed-out connection (urllib3's from the generated client, httpx's from the log
    stream), once the retries are spent."""
    return CliError(
        f"cannot reach the Trainyard server{_address(error)}: {getattr(error, 'reason', None) or error}",
        EXIT_UNREACHABLE,
    )


def _address(error: Exception) -> str:
    pool = getattr(error, "pool", None)
    if pool is not None:
        return f" at {pool.scheme}://{pool.host}:{pool.port}"
    if isinstance(error, httpx.TransportError):
        try:
            return f" at {error.request.url.scheme}://{error.request.url.netloc.decode()}"
        except RuntimeError:
            return ""
    return ""


def _problem(error: ApiException) -> Problem | None:
    if isinstance(error.data, Problem):
        return error.data
    try:
        return Problem.from_json(error.body) if error.body else None
    except (ValueError, json.JSONDecodeError):
        return None
