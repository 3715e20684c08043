"""Options several commands share."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer


class Format(str, Enum):
    table = "table"
    json = "json"


OutputFormat = Annotated[Format, typer.Option("--output", "-o", help="table for people, json for scripts")]
