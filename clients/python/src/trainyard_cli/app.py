"""The `trainyard` command: global options, the commands, and how failures become messages and exit codes."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import httpx
import typer
import urllib3

from trainyard_cli import config, output
from trainyard_cli.commands import cluster, jobs, logs
from trainyard_cli.problems import CliError, as_cli_error
from trainyard_client import ApiException

app = typer.Typer(
    help="Submit, follow and manage Trainyard jobs.",
    no_args_is_help=True,
    # A traceback's local variables would show the bearer token.
    pretty_exceptions_show_locals=False,
)


@app.callback()
def settings(
    ctx: typer.Context,
    url: Annotated[
        str | None,
        typer.Option(help=f"The server (else ${config.URL_VARIABLE}, the config file, {config.DEFAULT_URL})"),
    ] = None,
    token: Annotated[
        str | None, typer.Option(help=f"The bearer token (else ${config.TOKEN_VARIABLE}, the config file)")
    ] = None,
    config_file: Annotated[
        Path | None,
        typer.Option(
            "--config", help=f"The config file (else ${config.CONFIG_VARIABLE}, ~/.config/trainyard/config.toml)"
        ),
    ] = None,
) -> None:
    ctx.obj = config.load(url, token, config_file)


app.command()(jobs.submit)
app.command("ls")(jobs.ls)
app.command()(jobs.describe)
app.command()(logs.logs)
app.command()(jobs.cancel)
app.command()(jobs.retry)
app.command()(cluster.agents)
app.command()(cluster.backends)
app.command()(cluster.version)


def main() -> None:
    """The console script: runs the command and turns what went wrong into a message and an exit code."""
    try:
        # Click handles its own usage errors (exit 2) and typer.Exit; the rest reaches here.
        app()
    except (CliError, ApiException, urllib3.exceptions.HTTPError, httpx.TransportError) as error:
        problem = as_cli_error(error)
        output.print_error(problem)
        raise SystemExit(problem.exit_code) from None
