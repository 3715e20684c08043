"""Where the command line's settings come from: a flag wins over the environment, which wins over the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainyard_cli.config import DEFAULT_URL, load
from trainyard_cli.problems import CliError


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "trainyard" / "config.toml"
    path.parent.mkdir()
    path.write_text('url = "http://from-file:8080"\ntoken = "ty_file"\n')
    return path


def test_flags_win_over_the_environment_and_the_file(config_file: Path):
    environ = {"TRAINYARD_URL": "http://from-env:8080", "TRAINYARD_TOKEN": "ty_env"}
    settings = load("http://from-flag:8080/", "ty_flag", config_file, environ)
    assert (settings.url, settings.token) == ("http://from-flag:8080", "ty_flag")


def test_the_environment_wins_over_the_file(config_file: Path):
    settings = load(None, None, config_file, {"TRAINYARD_URL": "http://from-env:8080", "TRAINYARD_TOKEN": ""})
    assert (settings.url, settings.token) == ("http://from-env:8080", "ty_file"), "an empty variable is unset"


def test_the_file_is_found_under_xdg_config_home(config_file: Path):
    settings = load(None, None, None, {"XDG_CONFIG_HOME": str(config_file.parent.parent)})
    assert (settings.url, settings.token) == ("http://from-file:8080", "ty_file")


def test_without_any_setting_the_local_server_and_no_token(tmp_path: Path):
    settings = load(None, None, tmp_path / "absent.toml", {})
    assert (settings.url, settings.token) == (DEFAULT_URL, None)


def test_an_unknown_setting_in_the_file_is_an_error(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text('server = "http://typo:8080"\n')
    with pytest.raises(CliError, match="unknown setting"):
        load(None, None, path, {})
