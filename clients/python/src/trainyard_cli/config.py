"""Where the command line finds its server and token: a flag wins over the environment, which wins over the file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import tomllib

from trainyard_cli.problems import EXIT_USAGE, CliError

DEFAULT_URL = "http://127.0.0.1:8080"
URL_VARIABLE = "TRAINYARD_URL"
TOKEN_VARIABLE = "TRAINYARD_TOKEN"
CONFIG_VARIABLE = "TRAINYARD_CONFIG"
FILE_KEYS = ("url", "token")


@dataclass(frozen=True)
class Settings:
    """The server to talk to and the bearer token to send (None: send none, as for health)."""

    url: str
    token: str | None


def default_config_path(environ: Mapping[str, str]) -> Path:
    """`$TRAINYARD_CONFIG`, else `~/.config/trainyard/config.toml` (or under `$XDG_CONFIG_HOME`)."""
    if environ.get(CONFIG_VARIABLE):
        return Path(environ[CONFIG_VARIABLE])
    base = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "trainyard" / "config.toml"


def load(
    url: str | None, token: str | None, config_path: Path | None, environ: Mapping[str, str] = os.environ
) -> Settings:
    """Settings from the flags given (None: not given), then `TRAINYARD_URL`/`TRAINYARD_TOKEN`, then the file."""
    from_file = read_file(config_path or default_config_path(environ))
    chosen_url = _first(url, environ.get(URL_VARIABLE), from_file.get("url")) or DEFAULT_URL
    chosen_token = _first(token, environ.get(TOKEN_VARIABLE), from_file.get("token"))
    return Settings(url=chosen_url.rstrip("/"), token=chosen_token)


def read_file(path: Path) -> dict[str, str]:
    """The file's `url` and `token` (a missing file is an empty one); anything else in it is a mistake to report."""
    try:
        with path.open("rb") as file:
            values = tomllib.load(file)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise CliError(f"cannot read {path}: {error}", EXIT_USAGE) from error
    unknown = sorted(set(values) - set(FILE_KEYS))
    if unknown:
        raise CliError(f"{path}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(FILE_KEYS)}", EXIT_USAGE)
    wrong = [key for key, value in values.items() if not isinstance(value, str)]
    if wrong:
        raise CliError(f"{path}: {', '.join(wrong)} must be a string", EXIT_USAGE)
    return values


def _first(*candidates: str | None) -> str | None:
    """The first value that is set; an empty string (an exported but empty variable) counts as unset."""
    return next((value for value in candidates if value), None)
