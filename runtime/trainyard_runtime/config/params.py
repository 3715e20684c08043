"""Typed, named parameters parsed from GiGL's string maps (trainerArgs, dataPreprocessorArgs).

GiGL passes every argument as a string ("[10, 10]", "0.0005", "True"); YAML may also hand us real numbers.
Each parameter parses either form and fails with a message that names it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class ConfigError(ValueError):
    """A configuration or command-line value the runtime cannot use; the message names it."""


def parse_bool(value: Any) -> bool:
    """Python's strtobool, as GiGL reads its flags."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("y", "yes", "t", "true", "on", "1"):
        return True
    if text in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"not a boolean: {value!r}")


def parse_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"not an integer: {value!r}")
    if isinstance(value, int):
        return value
    return int(str(value).strip().replace("_", ""))


def parse_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    return float(str(value).strip()) if not isinstance(value, (int, float)) else float(value)


def parse_int_list(value: Any) -> list[int]:
    """``"[10, 10]"`` (GiGL's form), ``"10,10"`` or a YAML list."""
    items = value
    if isinstance(value, str):
        text = value.strip()
        items = json.loads(text) if text.startswith("[") else [part for part in text.split(",") if part.strip()]
    if not isinstance(items, list):
        raise ValueError(f"not a list of integers: {value!r}")
    return [parse_int(item) for item in items]


def parse_str(value: Any) -> str:
    return str(value)


def one_of(*choices: str) -> Callable[[Any], str]:
    def parse(value: Any) -> str:
        text = str(value).strip()
        if text not in choices:
            raise ValueError(f"{value!r} is not one of {', '.join(choices)}")
        return text

    return parse


@dataclass(frozen=True)
class Param:
    name: str
    parse: Callable[[Any], Any]
    default: Any
    help: str
    check: Callable[[Any], bool] | None = None
    requirement: str = ""


def positive(value: Any) -> bool:
    return value > 0


def non_negative(value: Any) -> bool:
    return value >= 0


def parse_params(specs: list[Param], raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Parses ``raw`` against ``specs``; unknown names and malformed values raise :class:`ConfigError`."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw) - set(by_name))
    if unknown:
        raise ConfigError(f"unknown {where} argument(s): {', '.join(unknown)} (known: {', '.join(sorted(by_name))})")
    parsed = {}
    for spec in specs:
        if spec.name not in raw:
            parsed[spec.name] = spec.default
            continue
        value = raw[spec.name]
        try:
            parsed[spec.name] = spec.parse(value)
        except (ValueError, TypeError) as error:
            raise ConfigError(f"{where} argument {spec.name}={value!r} is malformed: {error}") from None
        if spec.check is not None and not spec.check(parsed[spec.name]):
            raise ConfigError(f"{where} argument {spec.name}={value!r} must be {spec.requirement}")
    return parsed
