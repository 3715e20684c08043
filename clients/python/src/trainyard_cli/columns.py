"""Plain aligned columns that fit a width, one line per row: how `trainyard ls` lists jobs.

A Rich table squeezed into 80 columns, or into the 80 Rich assumes when output is piped, wraps every cell over
many lines and shrinks even the headers (`PR…`). A list is read, grepped and copied from line by line, so here a
cell that does not fit is cut short instead (ending in …), and where even that is not enough the least important
columns are left out. Cells are Rich Text so that a terminal still shows their styles; piped, they are plain.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from rich.text import Text

GAP = 2


@dataclass(frozen=True)
class Column:
    header: str
    cells: Sequence[Text]
    shortest: int | None = None
    """How narrow cutting may make the column (never narrower than its header); None: its cells are never cut (ids,
    states, times)."""
    priority: int | None = None
    """None: always shown; else, where the width is short, left out (the lowest priority first)."""

    @cached_property
    def width(self) -> int:
        """What the column takes uncut."""
        return max([len(self.header), *(cell.cell_len for cell in self.cells)])

    @cached_property
    def narrowest(self) -> int:
        return self.width if self.shortest is None else min(self.width, max(self.shortest, len(self.header)))


def lines(columns: Sequence[Column], width: int) -> list[Text]:
    """The header line and one line per row, within width where the columns that are never cut allow it."""
    shown = list(columns)
    optional = sorted((column for column in shown if column.priority is not None), key=lambda column: column.priority)
    while optional and _total(column.narrowest for column in shown) > width:
        shown.remove(optional.pop(0))

    widths = [column.width for column in shown]
    # Cut the widest column that may still be cut, a character at a time: the long names, projects and causes
    # give way first, and short ones keep their whole text.
    while _total(widths) > width:
        cuttable = [i for i, column in enumerate(shown) if widths[i] > column.narrowest]
        if not cuttable:
            break
        widths[max(cuttable, key=lambda i: widths[i])] -= 1

    rows = [[Text(column.header, style="bold") for column in shown]]
    rows += [list(row) for row in zip(*(column.cells for column in shown), strict=True)]
    return [_line(row, widths) for row in rows]


def _total(widths: Iterable[int]) -> int:
    widths = list(widths)
    return sum(widths) + GAP * (len(widths) - 1)


def _line(cells: list[Text], widths: list[int]) -> Text:
    line = Text(" " * GAP).join(_fitted(cell, width) for cell, width in zip(cells, widths, strict=True))
    line.rstrip()
    return line


def _fitted(cell: Text, width: int) -> Text:
    cell = cell.copy()
    cell.truncate(width, overflow="ellipsis", pad=True)
    return cell
