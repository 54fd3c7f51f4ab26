"""How to draw, beyond which columns: the chart options' vocabularies and their one check.

Kept apart from ``decide.py`` (and free of pandas and Altair) so the CLI can offer the same
words as choices without importing the chart machinery.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from chartkit._safe import visible
from chartkit.errors import ChartkitError

__all__ = [
    "AGGREGATES",
    "DEFAULT_FORMAT",
    "SCALES",
    "SORTS",
    "TIME_UNITS",
    "ChartOptions",
    "TimeUnit",
    "is_d3_format",
]

AGGREGATES: Final = ("sum", "mean", "median", "min", "max", "count")
TimeUnit = Literal["minute", "hour", "day", "week", "month", "quarter", "year"]
TIME_UNITS: Final[tuple[str, ...]] = TimeUnit.__args__  # type: ignore[attr-defined]
SCALES: Final = ("linear", "log")
SORTS: Final = ("-y", "y", "x", "-x")
DEFAULT_FORMAT: Final = ","  # d3-format: thousands separators, insignificant zeros trimmed

# d3-format's own specifier grammar: [[fill]align][sign][symbol][0][width][,][.precision][~][type]
_D3_FORMAT = re.compile(
    r"(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?", re.IGNORECASE
)
_D3_TYPES = set("eEfgGrsSpPdoxXbc%n")


def _allowed(name: str, value: object, allowed: Sequence[str]) -> ChartkitError:
    return ChartkitError(
        f"{name}={value!r} is not allowed; use one of {', '.join(map(repr, allowed))}"
    )


@dataclass(frozen=True)
class ChartOptions:
    """How to draw, beyond which columns: checked once, here, and named in every error.

    ``aggregate`` — one of ``AGGREGATES`` (``count`` counts rows, also when a measure exists);
    ``time_unit`` — one of ``TIME_UNITS``, the bucket of a date axis; ``sort`` — ``"-y"`` (by
    the measure, largest first: the default for bars), ``"y"``, ``"x"`` (by the category;
    booleans read false, true), ``"-x"``, or a list of category values in the order wanted;
    ``scale`` — ``"linear"`` or ``"log"`` for the measure axis (not picked, ``scale_picked``
    is False and the plan may put a scatter's axis spanning orders of magnitude on a log
    scale, ``chartkit.plan.choose.log_axis``); ``format`` — a d3-format
    string for the measure (``","``, thousands separators, by default); ``zero`` — whether the
    measure axis of a line or a scatter starts at zero (True) or spans its values (False);
    None (the default) decides: a scatter spans its values, a line starts at zero unless its
    values, all of one sign, span less than half their largest magnitude (CO2 at 313–366
    ppm), ``chartkit.draw.charts.FIT_SPAN``. Bars always start at zero: a bar's length is its
    value. ``log_columns``: the
    columns whose axis the chart drilled from (``View.drill``) put on a log scale, kept there
    when every value drawn is above zero.

    >>> ChartOptions.make(aggregate="sum", sort=["b", "a"]).sort
    ('b', 'a')
    """

    aggregate: str | None = None
    time_unit: str | None = None
    sort: str | tuple[Any, ...] | None = None
    scale: str = "linear"
    format: str = DEFAULT_FORMAT
    scale_picked: bool = False
    log_columns: tuple[str, ...] = ()
    zero: bool | None = None

    @classmethod
    def make(
        cls,
        *,
        aggregate: object = None,
        time_unit: object = None,
        sort: object = None,
        scale: object = None,
        format: object = None,
        zero: object = None,
    ) -> ChartOptions:
        if aggregate is not None and aggregate not in AGGREGATES:
            raise _allowed("aggregate", aggregate, AGGREGATES)
        if time_unit is not None and time_unit not in TIME_UNITS:
            raise _allowed("time_unit", time_unit, TIME_UNITS)
        if scale is not None and scale not in SCALES:
            raise _allowed("scale", scale, SCALES)
        if zero is not None and not isinstance(zero, bool):
            raise ChartkitError(
                f"zero={zero!r} is not allowed; use True (the measure axis starts at zero), "
                "False (it spans the values drawn) or None (chartkit decides)"
            )
        order: str | tuple[Any, ...] | None
        if sort is None or (isinstance(sort, str) and sort in SORTS):
            order = sort
        elif (
            isinstance(sort, list | tuple)
            and sort
            and all(isinstance(v, str | bool | int | float) for v in sort)
        ):
            order = tuple(sort)
        else:
            raise ChartkitError(
                f"sort={sort!r} is not allowed; use one of {', '.join(map(repr, SORTS))}, or a "
                "non-empty list of category values (strings, numbers or booleans) in the order "
                "wanted"
            )
        fill = _fill(format)
        if fill is not None and not _safe_fill(fill):
            raise ChartkitError(
                f"format={format!r} pads with {fill!r}, which chartkit does not take as a fill "
                "character: the format is written into the chart's tooltip and accessibility "
                "expressions; pad with a printable character up to U+FFFF other than a quote "
                "mark (\" ' `) or a backslash, e.g. '*>10,.2f', or leave the fill out ('>10,.2f' "
                "pads with spaces)"
            )
        if format is not None and not is_d3_format(format):
            raise ChartkitError(
                f"format={format!r} is not a d3-format string; use e.g. ',' (thousands "
                "separators), ',.2f' (two decimals), '.1%' (percent) or '.3s' (SI prefix)"
            )
        return cls(
            aggregate=aggregate,
            time_unit=time_unit,
            sort=order,
            scale=scale or "linear",
            format=format if isinstance(format, str) else DEFAULT_FORMAT,
            scale_picked=scale is not None,
            zero=zero,
        )


_UNSAFE_FILLS: Final = frozenset("\"'`\\")


def _fill(text: object) -> str | None:
    """The fill character of a d3-format specifier, when it has one."""
    if not isinstance(text, str) or len(text) > 20:
        return None
    m = _D3_FORMAT.fullmatch(text)
    return m.group(1) if m is not None else None


def _safe_fill(fill: str) -> bool:
    """A fill character that stays text inside a quoted Vega expression string."""
    # d3 reads the fill as one UTF-16 unit: a character beyond U+FFFF (an emoji) is two
    safe = fill.isprintable() and fill not in _UNSAFE_FILLS and visible(fill) == fill
    return safe and ord(fill) <= 0xFFFF


def is_d3_format(text: object) -> bool:
    """Whether ``text`` is a d3-format specifier (at most 20 characters) with a safe fill.

    >>> is_d3_format(",.2f"), is_d3_format("<b>")
    (True, False)
    """
    if not isinstance(text, str) or len(text) > 20:
        return False
    m = _D3_FORMAT.fullmatch(text)
    if m is None or (m.group(1) is not None and not _safe_fill(m.group(1))):
        return False
    return m.group(10) is None or m.group(10) in _D3_TYPES
