"""The trainer's command line: GiGL's standard flags plus ``--<trainer arg>=<value>`` overrides."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from trainyard_runtime.config.params import ConfigError, parse_bool, parse_int
from trainyard_runtime.config.trainer_args import TrainerArgs

_VALUED_FLAGS = ("job_name", "task_config_uri", "resource_config_uri", "nproc")


@dataclass
class CommandLine:
    job_name: str
    task_config_uri: str
    resource_config_uri: str
    use_cuda: bool = False
    nproc: int = 1
    overrides: dict[str, str] = field(default_factory=dict)
    nproc_given: bool = False

    @property
    def started_by_server(self) -> bool:
        """The server (or a launcher) started the processes and set ``WORLD_SIZE``; ``--nproc`` spawns none."""
        return int(os.environ.get("WORLD_SIZE", "1") or 1) > 1


def parse_command_line(argv: list[str]) -> CommandLine:
    """Accepts ``--flag=value`` and ``--flag value``; ``--use_cuda`` may stand alone.

    Any other ``--name`` must be a trainer argument; unknown names fail at once, naming the argument.
    """
    known_overrides = {param.name for param in TrainerArgs.params()}
    values: dict[str, str] = {}
    overrides: dict[str, str] = {}
    use_cuda = False
    tokens = list(argv)
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("--") or len(token) == 2:
            raise ConfigError(f"unexpected argument {token!r}; arguments look like --name=value")
        name, has_value, value = token[2:].partition("=")
        name = name.replace("-", "_")
        if name == "use_cuda":
            try:
                use_cuda = parse_bool(value) if has_value else True
            except ValueError:
                raise ConfigError(f"argument --use_cuda={value!r} is not a boolean") from None
            continue
        if not has_value:
            if not tokens or tokens[0].startswith("--"):
                raise ConfigError(f"argument --{name} needs a value (--{name}=value)")
            value = tokens.pop(0)
        if name in _VALUED_FLAGS:
            values[name] = value
        elif name in known_overrides:
            overrides[name] = value
        else:
            raise ConfigError(f"unknown argument --{name}")
    missing = [flag for flag in ("job_name", "task_config_uri", "resource_config_uri") if not values.get(flag)]
    if missing:
        raise ConfigError(f"missing required argument(s): {', '.join('--' + m for m in missing)}")
    try:
        nproc = parse_int(values.get("nproc", "1"))
    except ValueError:
        raise ConfigError(f"argument --nproc={values['nproc']!r} is not an integer") from None
    if nproc < 1:
        raise ConfigError("argument --nproc must be at least 1")
    return CommandLine(
        values["job_name"],
        values["task_config_uri"],
        values["resource_config_uri"],
        use_cuda,
        nproc,
        overrides,
        nproc_given="nproc" in values,
    )
