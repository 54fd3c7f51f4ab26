"""What a value means in a declared column, written once: declared type × value type → verdict.

Every path of the check reads this one table — the in-memory judge of a list of dicts
(``chartkit.check``: per exact type, per value, and from the compiled reader's census), the
dtype shortcut of a dataframe, and the engine check (``chartkit._frame_check``, per column
dtype). None of them spells its own rule; ``tests/test_verdicts.py`` holds each one to
``VERDICTS`` on generated values.

A value's *type* is its row: ``value_type`` names it — ``number`` (an int or a float that is
not NaN; never a bool), ``string``, ``date string`` (a string of the date rule,
``chartkit._isodate``), ``boolean``, ``date``, ``null`` (None, NaN, NaT, ``pd.NA``) or
``absent`` (a key not set) — and any other name (``object``, ``array``, ``timedelta``,
``complex``, a Python type's name) offends every column. A finding reports a date string as a
``string`` (``reported``): the refinement only decides a date column.

>>> verdict("number", "string"), verdict("date", "date string"), verdict("string", "null")
('offends', 'ok', 'absent')
>>> offends("absent", nullable=True), offends("absent", nullable=False)
(False, True)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from chartkit._isodate import ISO_RE
from chartkit._lazy import lazy_module, loaded
from chartkit.columns import COLUMN_TYPES, ColumnType
from chartkit.read.columnar import Absent

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")

__all__ = [
    "ABSENCE_TYPE_NAMES",
    "NOTHING",
    "OFFENDS",
    "OK",
    "VALUE_TYPES",
    "VERDICTS",
    "Verdict",
    "decided_type",
    "dtype_value_type",
    "is_float_type",
    "isnan",
    "offends",
    "reported",
    "string_verdict",
    "type_name",
    "value_type",
    "verdict",
]

Verdict = Literal["ok", "absent", "offends"]
OK: Final = "ok"
NOTHING: Final = "absent"  # the row holds nothing: offends unless the column is nullable
OFFENDS: Final = "offends"

VALUE_TYPES: Final = ("number", "string", "date string", "boolean", "date", "null", "absent")
"""The table's rows, as ``value_type`` names them; any other type offends every column."""

# fmt: off
_ROWS: Final[Mapping[str, tuple[Verdict, Verdict, Verdict, Verdict]]] = {
    #               declared: number    string    boolean   date
    "number":              ("ok",      "offends", "offends", "offends"),
    "string":              ("offends", "ok",      "offends", "offends"),
    "date string":         ("offends", "ok",      "offends", "ok"),
    "boolean":             ("offends", "offends", "ok",      "offends"),
    "date":                ("offends", "offends", "offends", "ok"),
    "null":                ("absent",  "absent",  "absent",  "absent"),
    "absent":              ("absent",  "absent",  "absent",  "absent"),
}
# fmt: on
_COLUMNS: Final = ("number", "string", "boolean", "date")  # the order of _ROWS' verdicts

VERDICTS: Final[Mapping[tuple[ColumnType, str], Verdict]] = {
    (cast(ColumnType, declared), value): row[i]
    for value, row in _ROWS.items()
    for i, declared in enumerate(_COLUMNS)
}
"""(declared type, value type) → ``ok`` | ``absent`` | ``offends``: the whole rule."""

ABSENCE_TYPE_NAMES: Final = frozenset(
    value for value in VALUE_TYPES if all(VERDICTS[d, value] == NOTHING for d in COLUMN_TYPES)
)
"""The value types that hold nothing (``null``, ``absent``)."""


def verdict(declared: ColumnType, value_type: str) -> Verdict:
    """What a value of ``value_type`` means in a column declared ``declared``."""
    return VERDICTS.get((declared, value_type), OFFENDS)


def offends(found: Verdict, *, nullable: bool) -> bool:
    """Whether a verdict makes the row an offender: ``offends``, or ``absent`` unless nullable."""
    return found == OFFENDS or (found == NOTHING and not nullable)


def string_verdict(declared: ColumnType) -> Verdict | None:
    """The verdict on a string whose form is not known, or None when the form decides it
    (a date column): the verdicts of ``string`` and ``date string`` when they agree."""
    plain, dated = verdict(declared, "string"), verdict(declared, "date string")
    return plain if plain == dated else None


def reported(value_type: str) -> str:
    """The name a finding gives a value type: a date string is a ``string``."""
    return "string" if value_type == "date string" else value_type


# --- a value's type -----------------------------------------------------------------------

_BARE_NULL_TYPES: Final = (type(None), Absent)


def _null_types() -> tuple[type, ...]:
    """The types whose values are null: None, ``ABSENT``, and pandas' NA and NaT once pandas
    is imported (until then no value can be either, and a check of rows never imports it)."""
    return _pandas_null_types() if loaded("pandas") else _BARE_NULL_TYPES


@cache
def _pandas_null_types() -> tuple[type, ...]:
    return (*_BARE_NULL_TYPES, type(pd.NA), type(pd.NaT))


def is_float_type(tp: type) -> bool:
    """A float-like type, whose values may be NaN (Decimal included)."""
    return issubclass(tp, float | np.floating | Decimal)


def isnan(value: Any) -> bool:
    """Whether a value is a NaN (of any float-like type)."""
    try:
        return bool(value != value)  # NaN is the one value unequal to itself
    except ArithmeticError:  # a signalling Decimal NaN refuses even to be compared
        return isinstance(value, Decimal) and value.is_nan()
    except (TypeError, ValueError):
        return False


def decided_type(tp: type) -> str | None:
    """The value type every value of exact type ``tp`` has (as ``type_name`` names it), or
    None when it depends on the value: a float (NaN?), a numpy datetime or timedelta (NaT?)."""
    if issubclass(tp, _null_types()):
        return "null"
    if is_float_type(tp) or issubclass(tp, np.datetime64 | np.timedelta64):
        return None
    return type_name(tp)


def type_name(tp: type, value: object = None) -> str:
    """The JSON-ish name of a value's type (``value`` tells NaN and NaT apart): ``number``,
    ``string``, ``boolean``, ``date``, ``null``, ``absent``, ``object``, ``array``, …"""
    if tp is Absent:
        return "absent"
    if issubclass(tp, _null_types()) or (is_float_type(tp) and value is not None and isnan(value)):
        return "null"
    if issubclass(tp, np.datetime64 | np.timedelta64) and value is not None:
        if np.isnat(cast(Any, value)):
            return "null"
    if issubclass(tp, np.timedelta64 | dt.timedelta):
        return "timedelta"  # a duration is no number (numpy calls it an integer) and no date
    if issubclass(tp, bool | np.bool_):
        return "boolean"
    if issubclass(tp, int | float | Decimal | np.integer | np.floating):
        return "number"
    if issubclass(tp, str):
        return "string"
    if issubclass(tp, dt.date | np.datetime64):
        return "date"
    if issubclass(tp, Mapping):
        return "object"
    if issubclass(tp, list | tuple):
        return "array"
    if issubclass(tp, complex):
        return "complex"  # numpy's complex128 too: no number a chart can place
    return tp.__name__


def value_type(value: object) -> str:
    """The table's row for one value: ``type_name``, a string of the date rule a ``date string``.

    >>> [value_type(v) for v in (0, True, "n/a", "2024-01-05", None, float("nan"), [])]
    ['number', 'boolean', 'string', 'date string', 'null', 'null', 'array']
    """
    name = type_name(type(value), value)
    if name == "string" and ISO_RE.fullmatch(cast(str, value)) is not None:
        return "date string"
    return name


def dtype_value_type(dtype: Any) -> str | None:
    """The value type every non-null value of an engine column of ``dtype`` (a narwhals
    dtype) has in the in-memory check, or None when the dtype says nothing of it."""
    import narwhals as nw

    if dtype.is_integer() or dtype.is_float() or dtype.is_decimal():
        return "number"
    if dtype == nw.Boolean:
        return "boolean"
    if dtype in (nw.String, nw.Categorical) or isinstance(dtype, nw.Enum):
        return "string"
    if dtype == nw.Date or isinstance(dtype, nw.Datetime):
        return "date"
    if isinstance(dtype, nw.Duration):
        return "timedelta"
    if dtype == nw.Time:
        return "time"
    if dtype == nw.Binary:
        return "bytes"
    if isinstance(dtype, nw.List | nw.Array):
        return "array"
    if isinstance(dtype, nw.Struct):
        return "object"
    if dtype == nw.Unknown:
        return None
    return None
