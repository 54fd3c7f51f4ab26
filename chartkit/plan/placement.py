"""The two values every drawing stage of a plan reads and returns: ``Ask``, what it is asked
(the frame, the profiles, the options, what a backend holds, the roles, the candidates), and
``Placement``, what it placed so far beside the chart's data (the fields, the notes, the
refusals, the reduction, the picks drawn, the rows left out).

A stage (``cleaning``, ``lines``, ``bars``, ``points``, ``refusing``, ``writing``) is a function
of an ``Ask`` and a ``Placement`` that returns a new ``Placement`` (with its own value), or the
``Plan`` written from it; nothing is shared between stages but these values, handed on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from chartkit.options import ChartOptions
from chartkit.plan.encode import AxisRefusal, ColumnProfile
from chartkit.plan.kit import Whole, _safe_field
from chartkit.plan.roles import Roles
from chartkit.plan.rules import Alternative
from chartkit.plan.spec import Note

__all__ = ["Ask", "Memo", "NothingToDraw", "Placement", "Prepared", "of_rows"]


@dataclass(frozen=True)
class Prepared:
    """A column as ``cleaning.values`` prepared it for one axis, and the notes it made."""

    values: pd.Series
    unplaced: np.ndarray[Any, np.dtype[np.bool_]]
    notes: tuple[Note, ...]
    utc: bool


@dataclass(frozen=True)
class Memo:
    """Answers read once per frame and reused, which never change a plan: each column a
    probe prepared for an axis with every row kept (``prepared``, for the chosen chart's
    plan of the same frame), and whether every value of a column is a number in quotes
    (``quoted``: it reads every value)."""

    prepared: dict[tuple[str, str], Prepared] = field(default_factory=dict)
    quoted: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Ask:
    """What one plan is asked: the ``frame`` and its columns' ``profiles``, ``max_points``, the
    options, the ranked candidates, what the frame stands for when the rows stay in a backend
    (``whole``) and each column's role.

    A ``probe`` stops as soon as a chart surely holds more than one mark: it learns what would
    be drawn (the picks, hence the alternatives) without aggregating the rows."""

    frame: pd.DataFrame
    profiles: Mapping[str, ColumnProfile]
    max_points: int
    opts: ChartOptions
    cands: tuple[Alternative, ...]
    whole: Whole = field(default_factory=Whole)
    roles: Roles = field(default_factory=lambda: Roles(()))
    probe: bool = False
    memo: Memo = field(default_factory=Memo, repr=False)


@dataclass(frozen=True)
class Placement:
    """What a chart placed so far beside its data: each used column's safe ``fields``, the
    ``notes`` and ``refusals`` said, the date columns shown in UTC, the ``reduction`` (bucket,
    bins, aggregate, top), the picks ``drawn``, the log scale refused or the axes put on one,
    the rows ``left_out``, and the rows a backend ``fetched``. Each stage returns a new one."""

    notes: tuple[Note, ...] = ()
    refusals: tuple[AxisRefusal, ...] = ()
    fields: Mapping[str, str] = field(default_factory=dict)
    utc: frozenset[str] = frozenset()
    drawn: Mapping[str, Any] = field(default_factory=dict)
    reduction: Mapping[str, Any] = field(default_factory=dict)
    log_refused: bool = False
    log_axes: tuple[str, ...] = ()
    left_out: int = 0
    fetched: pd.DataFrame | None = field(default=None, repr=False)

    def said(self, *notes: Note) -> Placement:
        """These notes said after the others (each made by ``plan.sentences``)."""
        return replace(self, notes=(*self.notes, *notes))

    def refuse(self, refusal: AxisRefusal) -> Placement:
        return replace(self, refusals=(*self.refusals, refusal))

    def with_fields(self, *columns: ColumnProfile | None) -> Placement:
        """Each column given a safe field, unless it has one already."""
        fields = dict(self.fields)
        for q in columns:
            if q is not None and q.name not in fields:
                fields[q.name] = _safe_field(q.name, set(fields.values()))
        return replace(self, fields=fields)


class NothingToDraw(Exception):
    """No row is left once offending, empty and unplaceable rows are left out; ``placed`` is
    what was placed until then (its notes say why)."""

    def __init__(self, reason: str, placed: Placement) -> None:
        super().__init__(reason)
        self.placed = placed


def of_rows(ask: Ask, placed: Placement, rows: pd.DataFrame) -> tuple[Ask, Placement]:
    """What drawing the rows a backend fetched (``Whole.rows``: they fit ``max_points``) is
    asked, planned as memory plans its rows, and its placement: the one so far (its notes,
    refusals, reduction, picks drawn and rows left out), the fields the rows' own to give.
    The backend left out the offenders of the columns the rows are placed by, and noted
    them, so the rows' profiles hold no finding."""
    profiles = {n: replace(q, violation=None) for n, q in ask.profiles.items()}
    sub = Ask(rows, profiles, ask.max_points, ask.opts, ask.cands,
              whole=Whole(facts=ask.whole.facts), roles=ask.roles)  # fmt: skip
    return sub, replace(placed, fetched=rows, fields={})
