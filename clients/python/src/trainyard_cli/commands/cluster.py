"""`trainyard agents`, `trainyard backends` and `trainyard version`: the hosts and backends that run jobs, and what
this client and the server are."""

from __future__ import annotations

import re
from importlib.metadata import version as package_version

import httpx
import typer

from trainyard_cli import output
from trainyard_cli.commands.options import Format, OutputFormat
from trainyard_cli.config import Settings
from trainyard_cli.connection import open_client
from trainyard_cli.problems import CliError
from trainyard_client import AgentsApi, BackendsApi, Configuration, UsersApi


def agents(ctx: typer.Context, output_format: OutputFormat = Format.table) -> None:
    """The hosts that run jobs: GPUs free, CPU slots used, running jobs, last heartbeat."""
    found = AgentsApi(open_client(ctx.obj)).list_agents()
    if output_format is Format.json:
        output.print_json(found)
    else:
        output.out.print(output.agents_table(found))


def backends(ctx: typer.Context, output_format: OutputFormat = Format.table) -> None:
    """The server's backends: what each runs (GiGL trainerResourceConfig kinds), and whether it takes GPU counts."""
    found = BackendsApi(open_client(ctx.obj)).list_backends()
    if output_format is Format.json:
        output.print_json(found)
    else:
        output.out.print(output.backends_table(found))


def version(ctx: typer.Context) -> None:
    """This client's version and the API version it speaks; the server's API version and who you are there."""
    settings: Settings = ctx.obj
    client_api = contract_version()
    output.out.print(f"trainyard {package_version('trainyard')} (API {client_api})")
    # The server has no version endpoint; its OpenAPI document (served without a token) says which API it serves.
    try:
        document = httpx.get(f"{settings.url}/v3/api-docs", timeout=10).raise_for_status().json()
    except httpx.HTTPStatusError as error:
        raise CliError(f"{settings.url}/v3/api-docs answered {error.response.status_code}") from error
    server_api = document.get("info", {}).get("version", "unknown")
    output.out.print(f"server {settings.url} (API {server_api})")
    if server_api != client_api:
        output.err.print(f"[yellow]This client was generated from API {client_api}, the server serves {server_api}.")
    if settings.token:
        user = UsersApi(open_client(settings)).get_current_user()
        output.out.print(f"signed in as {user.name}" + (" (global admin)" if user.global_admin else ""))


def contract_version() -> str:
    """The `info.version` of the api/openapi.yaml the client was generated from (the generator records it in
    the configuration's debug report, nowhere else)."""
    found = re.search(r"Version of the API: (\S+)", Configuration().to_debug_report())
    return found.group(1) if found else "unknown"
