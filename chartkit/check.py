"""The column check: rows against their declaration → one ``ColumnViolation`` per broken column.

This is the hot path. A list of dicts is judged a column at a time, by value *type* first
(counted in C with ``Counter(map(type, ...))``); only the types whose values need a look of
their own (a float that may be NaN, a string that may be an ISO date) are looked at per
distinct value. A dataframe is judged by dtype where the dtype decides the question, and
value by value only for object columns.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from chartkit.columns import COLUMN_TYPES, ColumnDeclaration, ColumnType, normalize_result_columns
from chartkit.errors import ChartkitError
from chartkit.rowset import read_rowset

__all__ = [
    "VIOLATION_KINDS",
    "ColumnViolation",
    "ViolationKind",
    "check_columns",
    "value_type_name",
]

ViolationKind = Literal["column-type-mismatch", "missing-column"]
VIOLATION_KINDS: tuple[ViolationKind, ...] = ("column-type-mismatch", "missing-column")

ABSENCE_TYPE_NAMES: Final = frozenset({"null", "absent"})


@dataclass(frozen=True, slots=True)
class ColumnViolation:
    """One declared column whose rows break the declaration.

    ``sample`` is the first offending value as the tool returned it (None for an absence),
    ``sample_type`` its JSON-ish name; ``affected`` of ``total`` rows offend, ``absent`` of them
    by holding nothing (null, NaN, NaT or a key not set); ``offending_types`` names what the
    offenders hold, first seen first.
    """

    kind: ViolationKind
    column: str
    declared: ColumnType
    nullable: bool
    sample: Any
    sample_type: str
    affected: int
    total: int
    absent: int = 0
    offending_types: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in VIOLATION_KINDS:
            raise ChartkitError(f"kind {self.kind!r} is not one of {', '.join(VIOLATION_KINDS)}")
        if self.declared not in COLUMN_TYPES:
            raise ChartkitError(f"declared {self.declared!r} is not one of {COLUMN_TYPES}")
        if not 0 <= self.absent <= self.affected <= self.total:
            raise ChartkitError(
                f"counts must satisfy 0 <= absent <= affected <= total, got absent={self.absent}, "
                f"affected={self.affected}, total={self.total}"
            )

    @property
    def about_absence(self) -> bool:
        """True when some offending rows hold nothing (so ``nullable`` is a possible fix)."""
        return self.kind == "column-type-mismatch" and self.absent > 0


def check_columns(
    rows_or_reading: object, result_columns: Mapping[str, Any]
) -> tuple[ColumnViolation, ...]:
    """Check rows against a declaration: violations in declaration order, one per column at most.

    Pure: nothing is logged, raised or changed. Not a rowset → no violations (the caller's
    disposition says not-applicable).

    >>> rows = [{"logical_unit_number": "", "host_group": "vdi-a"},
    ...         {"logical_unit_number": 3, "host_group": "vdi-a"}]
    >>> [(v.column, v.sample, v.affected, v.total) for v in
    ...  check_columns(rows, {"logical_unit_number": "number", "host_group": "string"})]
    [('logical_unit_number', '', 1, 2)]
    >>> check_columns([{"logical_unit_number": 0}], {"logical_unit_number": "number"})
    ()
    """
    reading = read_rowset(rows_or_reading)
    if reading is None:
        return ()
    declared = normalize_result_columns(result_columns)
    out: list[ColumnViolation] = []
    for name, decl in declared.items():
        if reading.frame is not None:
            found = _check_series(reading.frame, name, decl, reading.total)
        else:
            assert reading.rows is not None
            found = _check_values(
                [r.get(name, ABSENT) for r in reading.rows], name, decl, reading.total
            )
        if found is not None:
            out.append(found)
    return tuple(out)


# --- values ---------------------------------------------------------------------------------


class _Absent:
    """The one value standing for "this row has no such key"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()

_OK, _NOTHING, _BAD, _LOOK = 0, 1, 2, 3  # what a value's type says about it, per declared type
_NULL_TYPES: Final = (type(None), _Absent, type(pd.NA), type(pd.NaT))


def value_type_name(value: object) -> str:
    """The JSON-ish name of a value's type: string, number, boolean, null, absent, object, …

    >>> [value_type_name(v) for v in ("", 0, True, None, {}, [], float("nan"))]
    ['string', 'number', 'boolean', 'null', 'object', 'array', 'null']
    """
    return _type_name(type(value), value)


def _type_name(tp: type, value: object = None) -> str:
    if tp is _Absent:
        return "absent"
    if issubclass(tp, _NULL_TYPES) or (_is_float(tp) and value is not None and _isnan(value)):
        return "null"
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
    return tp.__name__


def _is_float(tp: type) -> bool:
    return issubclass(tp, float | np.floating | Decimal)


def _isnan(value: Any) -> bool:
    try:
        return bool(value != value)  # NaN is the one value unequal to itself
    except (TypeError, ValueError):
        return False


def _classify(declared: ColumnType, tp: type) -> int:
    """What holding a value of type ``tp`` means in a column declared ``declared``."""
    if issubclass(tp, _NULL_TYPES):
        return _NOTHING
    if _is_float(tp) and declared != "number":
        return _LOOK  # NaN is an absence; any other float is a mismatch
    if declared == "number":
        if issubclass(tp, bool | np.bool_):
            return _BAD  # bool subclasses int in Python; True is not a number
        if issubclass(tp, int | np.integer):
            return _OK
        return _LOOK if _is_float(tp) else _BAD
    if declared == "string":
        return _OK if issubclass(tp, str) else _BAD
    if declared == "boolean":
        return _OK if issubclass(tp, bool | np.bool_) else _BAD
    # date
    if issubclass(tp, dt.date):
        return _OK
    return _LOOK if issubclass(tp, str | np.datetime64) else _BAD


def _look(declared: ColumnType, value: Any) -> int:
    """The verdict on one value whose type alone does not decide it."""
    if isinstance(value, str):  # only reached for a date column
        try:
            dt.datetime.fromisoformat(value)
        except ValueError:
            return _BAD
        return _OK
    if isinstance(value, np.datetime64):
        return _NOTHING if np.isnat(value) else _OK
    if _isnan(value):
        return _NOTHING
    return _OK if declared == "number" else _BAD


def _check_values(
    values: Sequence[Any], name: str, decl: ColumnDeclaration, total: int
) -> ColumnViolation | None:
    """Judge one column's values (``ABSENT`` where a row lacks the key)."""
    declared, nullable = decl.type, decl.nullable
    counts = Counter(map(type, values))
    if counts.keys() == {_Absent}:
        return ColumnViolation(
            "missing-column",
            name,
            declared,
            nullable,
            None,
            "absent",
            total,
            total,
            total,
            ("absent",),
        )
    verdict = {tp: _classify(declared, tp) for tp in counts}
    looked: dict[Any, int] = {}
    look_types = {tp for tp, v in verdict.items() if v == _LOOK}
    if look_types:
        distinct = (
            Counter(values)
            if len(counts) == 1
            else Counter(v for v in values if type(v) in look_types)
        )
        for value in distinct:
            looked[value] = _look(declared, value)
    bad = nothing = 0
    for tp, n in counts.items():
        if verdict[tp] == _BAD:
            bad += n
        elif verdict[tp] == _NOTHING:
            nothing += n
    if looked:
        for value, n in distinct.items():
            if looked[value] == _BAD:
                bad += n
            elif looked[value] == _NOTHING:
                nothing += n
    if nullable:
        nothing = 0
    if not bad and not nothing:
        return None

    def offends(value: Any) -> bool:
        v = verdict[type(value)]
        if v == _LOOK:
            v = looked[value]
        return v == _BAD or (v == _NOTHING and not nullable)

    first = next(v for v in values if offends(v))
    kinds = dict.fromkeys(_type_name(type(v), v) for v in _first_of_each_type(values, offends))
    sample_type = _type_name(type(first), first)
    return ColumnViolation(
        "column-type-mismatch",
        name,
        declared,
        nullable,
        None if sample_type in ABSENCE_TYPE_NAMES else first,
        sample_type,
        bad + nothing,
        total,
        nothing,
        tuple(kinds),
    )


def _first_of_each_type(values: Iterable[Any], offends: Callable[[Any], bool]) -> list[Any]:
    """One offending value per type name, in first-seen order (a cheap pass: types repeat)."""
    seen: dict[str, Any] = {}
    for v in values:
        if offends(v):
            seen.setdefault(_type_name(type(v), v), v)
            if len(seen) >= 4:
                break
    return list(seen.values())


# --- dataframes -----------------------------------------------------------------------------


def _check_series(
    frame: pd.DataFrame, name: str, decl: ColumnDeclaration, total: int
) -> ColumnViolation | None:
    """Judge one dataframe column, by dtype where the dtype settles it."""
    if name not in frame.columns:
        return ColumnViolation(
            "missing-column",
            name,
            decl.type,
            decl.nullable,
            None,
            "absent",
            total,
            total,
            total,
            ("absent",),
        )
    series = frame[name]
    if isinstance(series, pd.DataFrame):  # duplicated column label: judge the first
        series = series.iloc[:, 0]
    dtype = series.dtype
    settled = _dtype_verdict(decl.type, dtype)
    if settled is None:  # object (or otherwise mixed) column: value by value
        return _check_values(series.astype(object).tolist(), name, decl, total)
    missing = series.isna().to_numpy()
    if settled == _OK:
        offends = missing if not decl.nullable else None
    else:
        offends = np.ones(total, dtype=bool) if not decl.nullable else ~missing
    if offends is None or not offends.any():
        return None
    affected = int(offends.sum())
    nothing = 0 if decl.nullable else int(missing.sum())
    first_at = int(offends.argmax())
    first = series.iloc[first_at]
    sample_type = "null" if missing[first_at] else _type_name(type(first), first)
    kinds = [sample_type]
    if settled == _BAD and nothing and not missing[first_at]:
        kinds.append("null")
    elif settled == _BAD and missing[first_at] and affected > nothing:
        later = series.iloc[int((~missing).argmax())]
        kinds.append(_type_name(type(later), later))
    return ColumnViolation(
        "column-type-mismatch",
        name,
        decl.type,
        decl.nullable,
        None if sample_type in ABSENCE_TYPE_NAMES else first,
        sample_type,
        affected,
        total,
        nothing,
        tuple(kinds),
    )


def _dtype_verdict(declared: ColumnType, dtype: Any) -> int | None:
    """``_OK`` (only missing values can offend), ``_BAD`` (every present value offends), or
    None when the dtype does not decide and values must be looked at."""
    api = pd.api.types
    if isinstance(dtype, pd.CategoricalDtype) or api.is_object_dtype(dtype):
        return None
    if api.is_bool_dtype(dtype):
        return _OK if declared == "boolean" else _BAD
    if api.is_numeric_dtype(dtype):
        return _OK if declared == "number" else _BAD
    if api.is_datetime64_any_dtype(dtype):
        return _OK if declared == "date" else _BAD
    if api.is_string_dtype(dtype):
        if declared == "string":
            return _OK
        return None if declared == "date" else _BAD
    return None
