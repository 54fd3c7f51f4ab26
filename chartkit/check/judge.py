"""The column check: rows against their declaration → one ``ColumnViolation`` per broken column.

This is the hot path. A list of plain dicts read by the compiled reader
(``chartkit._speedups``) comes with each column's census — how many values of each exact type
(int, float, NaN, str, bool, None, absent; strings of a date column as dates or not, by
``chartkit._isodate``'s grammar, which the C validator implements whole), and where the first
of each is — and a column whose census covers every value is judged from it alone. Any other
column (a type the census does not know, or every column when the reader is not built) is
judged from its values by ``_check_values``, a column at a time, by value *type* first (each
value coded by its exact type in one C pass, ``_speedups.type_codes``, exact float NaNs apart;
``map(type, ...)`` without the extension); only the types whose values need a look of their
own (a float that may be NaN, a string that may be a date) are looked at, and even those
mostly at once (``np.isnan``, the date pattern once per distinct string). Both give the same
violation. A dataframe is judged by dtype where the dtype decides the question, and by its
values' types only for object columns; ``offending_mask`` takes the same per-type verdicts row
by row. What a value of each type means in each declared column is one table,
``chartkit.check.verdicts``: every one of these paths (and the engine check) reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from chartkit._isodate import ISO_RE, engine_pattern
from chartkit._lazy import lazy_module
from chartkit._safe import sample_text
from chartkit.check.verdicts import ABSENCE_TYPE_NAMES as ABSENCE_TYPE_NAMES  # read by encode.py
from chartkit.check.verdicts import (
    NOTHING,
    OFFENDS,
    OK,
    decided_type,
    is_float_type,
    isnan,
    offends,
    reported,
    string_verdict,
    type_name,
    value_type,
    verdict,
)
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration, ColumnType, normalize_result_columns
from chartkit.read import columnar
from chartkit.read.columnar import CENSUS_VALUE_TYPES, Absent, Census
from chartkit.read.rowset import read_rowset
from chartkit.violations import (
    OFFENDERS_LISTED,
    VIOLATION_KINDS,
    ColumnViolation,
    OffendingValue,
    ViolationKind,
    most_frequent,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")

__all__ = [
    "OFFENDERS_LISTED",
    "VIOLATION_KINDS",
    "ColumnViolation",
    "OffendingValue",
    "ViolationKind",
    "check_columns",
    "most_frequent",
    "offending_mask",
    "surely_complete",
    "value_type_name",
]


def check_columns(
    rows_or_reading: object, result_columns: Mapping[str, Any]
) -> tuple[ColumnViolation, ...]:
    """Check rows against a declaration: violations in declaration order, one per column at most.

    Pure: nothing is logged or changed. Not a rowset → no violations (the caller's
    disposition says not-applicable). A malformed declaration raises ``ResultColumnsError``.

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
    if reading.frame is None and reading.rows is None:  # an engine frame: judged by queries
        from chartkit.check._frame_check import check_frame

        return check_frame(reading, declared)
    out: list[ColumnViolation] = []
    if reading.frame is not None:
        for name, decl in declared.items():
            found = _check_series(reading.frame, name, decl, reading.total)
            if found is not None:
                out.append(found)
        return tuple(out)
    assert reading.rows is not None
    names = list(declared)
    for name, values in zip(names, reading.values(names), strict=True):
        decl, census = declared[name], reading.census(name)  # a census: read in C
        offenders = None if census is None else _census_offenders(census, decl)
        if census is None or offenders is None:  # judged from the values
            found = _check_values(values, name, decl, reading.total)
        elif census.count("absent") == reading.total:
            found = ColumnViolation.missing(name, decl, reading.total)
        else:
            found = _violation(offenders, values, name, decl, reading.total)
        if found is not None:
            out.append(found)
    return tuple(out)


# --- values ---------------------------------------------------------------------------------

_OK, _NOTHING, _BAD, _LOOK = 0, 1, 2, 3  # what a value's type says about it, per declared type

# float types whose values numpy reads as float64 exactly as they are (so ``np.isnan`` of the
# whole lot at once is ``v != v`` of each)
_NUMPY_READS: Final = frozenset({float, np.float64, np.float32, np.float16})
_NAN_CODE: Final = 255  # ``_speedups.type_codes``' code for an exact float holding NaN
_DEDUPE_PROBE: Final = 1024  # strings looked at to decide whether deduplicating pays
_ISO_MATCH: Final = ISO_RE.fullmatch  # a Match for a date string, None for any other


def value_type_name(value: object) -> str:
    """The JSON-ish name of a value's type: string, number, boolean, null, absent, object, …

    >>> [value_type_name(v) for v in ("", 0, True, None, {}, [], float("nan"))]
    ['string', 'number', 'boolean', 'null', 'object', 'array', 'null']
    """
    return _type_name(type(value), value)


def _type_name(tp: type, value: object = None) -> str:
    return type_name(tp, value)


_CODES: Final = {OK: _OK, NOTHING: _NOTHING, OFFENDS: _BAD}  # chartkit.check.verdicts as codes


def _classify(declared: ColumnType, tp: type) -> int:
    """What holding a value of type ``tp`` means in a column declared ``declared``: the
    verdict of ``chartkit.check.verdicts``, or ``_LOOK`` when it depends on the value (NaN, NaT, a
    string's form in a date column)."""
    decided = decided_type(tp)
    if decided is None:
        return _LOOK  # NaN and NaT are absences; any other value is judged by its type
    if decided == "string":
        settled = string_verdict(declared)
        return _LOOK if settled is None else _CODES[settled]
    return _CODES[verdict(declared, decided)]


def _look(declared: ColumnType, value: Any) -> int:
    """The verdict on one value whose type alone does not decide it."""
    return _CODES[verdict(declared, value_type(value))]


_NUMBER: Final = {d: _CODES[verdict(d, "number")] for d in COLUMN_TYPES}  # a float, not NaN


class _Offenders:
    """Offending values grouped by type name: how many, and where the first one is."""

    __slots__ = ("groups",)

    def __init__(self) -> None:
        self.groups: dict[str, list[int]] = {}  # type name -> [count, first index]

    def add(self, name: str, count: int, first: int) -> None:
        if count <= 0:
            return
        had = self.groups.get(name)
        if had is None:
            self.groups[name] = [count, first]
        else:
            had[0] += count
            had[1] = min(had[1], first)


def _check_values(
    values: Sequence[Any], name: str, decl: ColumnDeclaration, total: int
) -> ColumnViolation | None:
    """Judge one column's values (``ABSENT`` where a row lacks the key).

    Each value is coded by its exact type once (``_type_codes``: in C where the extension is
    built, exact float NaNs coded apart); a type that settles the verdict is counted and
    located from the codes; only the values of types left to a look — floats (NaN?), strings
    in a date column (dates?), numpy datetimes (NaT?) — are looked at, floats and strings at
    once (``np.isnan``, the date pattern once per distinct string).
    """
    declared, nullable = decl.type, decl.nullable
    listed = values if isinstance(values, list) else list(values)
    codes, kinds, nan_apart = _type_codes(listed)
    counts = np.bincount(codes, minlength=max(len(kinds), _NAN_CODE + 1))
    nans = int(counts[_NAN_CODE]) if nan_apart else 0
    if kinds == [Absent] and not nans:
        return ColumnViolation.missing(name, decl, total)

    def first(code: int) -> int:
        return int(np.argmax(codes == code))

    found = _Offenders()
    null = _CODES[verdict(declared, "null")]
    if nans and _offends(null, nullable):
        found.add("null", nans, first(_NAN_CODE))
    floats: list[int] = []
    strings: list[int] = []
    others: list[int] = []
    for i, tp in enumerate(kinds):
        said = _classify(declared, tp)
        if nan_apart and tp is float:  # its NaNs are coded apart: these are numbers
            said = _NUMBER[declared]
        if _offends(said, nullable):
            found.add(_type_name(tp), int(counts[i]), first(i))
        elif said == _LOOK:
            kind = floats if is_float_type(tp) else strings if issubclass(tp, str) else others
            kind.append(i)
    if floats and (_NUMBER[declared] != _OK or _offends(null, nullable)):  # else all allowed
        objects = np.fromiter(listed, dtype=object, count=len(listed))
        for i in floats:
            _judge_floats(objects, np.flatnonzero(codes == i), kinds[i], declared, nullable, found)
    if strings:
        everything = len(strings) == len(kinds) and not nans
        at = None if everything else np.flatnonzero(np.isin(codes, strings))
        _judge_iso(listed, at, found)
    for i in others:
        for at_i in np.flatnonzero(codes == i).tolist():
            value = listed[at_i]
            if _offends(_look(declared, value), nullable):
                found.add(_type_name(type(value), value), 1, at_i)
    return _violation(found, listed, name, decl, total, (codes, kinds, nan_apart))


def _judge_floats(
    objects: np.ndarray[Any, Any],
    at: np.ndarray[Any, Any],
    tp: type,
    declared: ColumnType,
    nullable: bool,
    found: _Offenders,
) -> None:
    """File the floats of type ``tp`` (at ``at``) that offend: NaN unless nullable, and any
    float outside a number column."""
    picked = objects[at]
    if tp in _NUMPY_READS:
        nan = np.isnan(picked.astype(np.float64))
    else:  # Decimal (a signalling NaN refuses to be compared), subclasses: one at a time
        nan = np.fromiter(map(isnan, picked.tolist()), dtype=bool, count=len(picked))
    if _offends(_CODES[verdict(declared, "null")], nullable) and nan.any():
        found.add("null", int(nan.sum()), int(at[np.argmax(nan)]))
    if _NUMBER[declared] == _BAD and not nan.all():
        found.add("number", int(len(nan) - nan.sum()), int(at[np.argmin(nan)]))


def _judge_iso(values: list[Any], at: np.ndarray[Any, Any] | None, found: _Offenders) -> None:
    """File the strings of a date column (all values, or those at ``at``) that are no date
    strings (``chartkit._isodate``)."""
    texts: list[str] = values if at is None else [values[i] for i in at.tolist()]
    bad = _not_iso(texts)
    if not bad:
        return
    flags = np.fromiter(map(bad.__contains__, texts), dtype=bool, count=len(texts))
    where = int(np.argmax(flags))
    found.add("string", int(flags.sum()), where if at is None else int(at[where]))


def _violation(
    found: _Offenders,
    values: Sequence[Any],
    name: str,
    decl: ColumnDeclaration,
    total: int,
    coded: _Coded | None = None,
) -> ColumnViolation | None:
    """The column's violation from its offenders grouped by type name (None if there are none):
    the first offender's group leads, as the tool's rows show them; the most frequent offending
    values counted (``_frequent``) from the values' type codes (``coded``, when already made)."""
    if not found.groups:
        return None
    declared, nullable = decl.type, decl.nullable
    ordered = sorted(found.groups.items(), key=lambda item: item[1][1])
    nothing = sum(n for kind, (n, _) in ordered if kind in ABSENCE_TYPE_NAMES)
    affected = sum(n for _, (n, _) in ordered)
    sample_type, (_, first_at) = ordered[0]
    return ColumnViolation(
        "column-type-mismatch",
        name,
        declared,
        nullable,
        None if sample_type in ABSENCE_TYPE_NAMES else values[first_at],
        sample_type,
        affected,
        total,
        nothing,
        tuple(kind for kind, _ in ordered[:4]),
        _frequent(found, values, decl, coded),
    )


_Coded = tuple[np.ndarray[Any, Any], list[type], bool]  # _type_codes' answer


def _frequent(
    found: _Offenders, values: Sequence[Any], decl: ColumnDeclaration, coded: _Coded | None
) -> tuple[OffendingValue, ...]:
    """The most frequent distinct offending values of a column and their counts.

    Absences are counted from ``found`` alone (null and absent are one entry each); the values
    that offend by their type are found per exact type (``_classify``'s verdicts, a look only
    where it leaves one: a date column's strings, a float or numpy time that may offend) and
    counted with one ``Counter`` per type.
    """
    entries: dict[tuple[str, Any], list[Any]] = {}  # (type name, value) -> [value, type, count]

    def put(key: tuple[str, Any], value: Any, named: str, count: int) -> None:
        had = entries.get(key)
        if had is None:
            entries[key] = [value, named, count]
        else:
            had[2] += count

    for kind in sorted(ABSENCE_TYPE_NAMES):
        if kind in found.groups:
            put((kind, None), None, kind, found.groups[kind][0])
    if any(kind not in ABSENCE_TYPE_NAMES for kind in found.groups):
        declared, nullable = decl.type, decl.nullable
        listed = values if isinstance(values, list) else list(values)
        codes, kinds, nan_apart = coded if coded is not None else _type_codes(listed)
        # the types in the order the rows first hold them, whatever order the codes were made
        # in (the C reader's differs from Python's): equal values of two types (0 and 0.0) are
        # then listed as the one the rows hold first, on every path
        present, first = np.unique(codes, return_index=True)
        seen = dict(zip(present.tolist(), first.tolist(), strict=True))
        for i in sorted(range(len(kinds)), key=lambda k: seen.get(k, len(listed))):
            tp = kinds[i]
            said = _NUMBER[declared] if nan_apart and tp is float else _classify(declared, tp)
            held = decided_type(tp)
            if said in (_OK, _NOTHING) or (said == _LOOK and held is None and is_float_type(tp)
                                           and _NUMBER[declared] == _OK):  # fmt: skip
                continue  # none offends but by holding nothing, counted above
            picked = [listed[j] for j in np.flatnonzero(codes == i).tolist()]
            if said == _LOOK and held == "string":  # a date column: its strings of no date form
                bad = _not_iso(picked)
                picked = [v for v in picked if v in bad]
            elif said == _LOOK:  # a NaN or NaT is nothing (counted above): each value's own type
                for v in picked:
                    named = type_name(tp, v)
                    if named not in ABSENCE_TYPE_NAMES and _offends(_look(declared, v), nullable):
                        put((named, _key(v)), v, named, 1)
                continue
            held = type_name(tp)
            try:
                counted = list(Counter(picked).items())
            except TypeError:  # unhashable (a list, a dict): told apart by their bounded text
                for v in picked:
                    put((held, sample_text(v)), v, held, 1)
                continue
            for v, n in counted:
                put((held, v), v, held, n)
    return most_frequent(OffendingValue(v, t, n) for v, t, n in entries.values())


def _key(value: Any) -> Any:
    """A value as a key of ``_frequent``'s count: itself, or its bounded text if unhashable."""
    try:
        hash(value)
    except TypeError:
        return sample_text(value)
    return value


_CENSUS_NOT_TEXT: Final = tuple(c for c in CENSUS_VALUE_TYPES if c not in ("str", "iso", "not_iso"))


def _census_offenders(census: Census, decl: ColumnDeclaration) -> _Offenders | None:
    """``_check_values``'s offenders, from a column's census alone; None when the census does
    not decide the column (a value of a type it does not know).

    Each class of the census is a value type of ``chartkit.check.verdicts`` (``CENSUS_VALUE_TYPES``:
    an int or a float that is not NaN a number, None and NaN null, …), judged by the one table;
    the strings of a column that the form decides (a date column) by the C validator's
    verdict on each (``iso`` / ``not_iso``), any other column's strings all at once (``str``).
    """
    declared, nullable = decl.type, decl.nullable
    if census.count("other"):
        return None
    found = _Offenders()
    strings = ("iso", "not_iso") if string_verdict(declared) is None else ("str",)
    for cls in (*_CENSUS_NOT_TEXT, *strings):
        held = CENSUS_VALUE_TYPES[cls]
        if offends(verdict(declared, held), nullable=nullable):
            found.add(reported(held), census.count(cls), census.first(cls))
    return found


def _not_iso(texts: Sequence[str]) -> set[str]:
    """The distinct strings that are no date strings (``chartkit._isodate``).

    When the strings repeat (dates, a few timestamps), each distinct one is matched once; when
    most differ, deduplicating costs more than matching, so all are matched and only a failure
    sends us back to the distinct ones. How many differ is estimated from repeats in a sample
    spread over the column (m samples of D distinct values repeat about m²/2D times), since
    the first rows of a long column can all differ while the column holds few values.
    """
    step = max(1, len(texts) // _DEDUPE_PROBE)
    probe = texts[::step][:_DEDUPE_PROBE]
    repeats = len(probe) - len(set(probe))
    if repeats * len(texts) * 6 < len(probe) ** 2 * 5:  # about D > 0.6 × rows: match them all
        refused = _refused_at_once(texts)
        if refused is not None:
            return refused
    return {t for t in set(texts) if _ISO_MATCH(t) is None}


_VECTORIZED_FROM: Final = 4096  # strings from which matching them in pyarrow pays


def _refused_at_once(texts: Sequence[str]) -> set[str] | None:
    """The strings that are no date strings, all matched at once by the same pattern in
    pyarrow (RE2, the engines' form, held to Python's by ``tests/test_isodate.py``), or one by
    one until the first failure; None when that failure leaves the rest to be looked at."""
    if len(texts) >= _VECTORIZED_FROM:
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
            import pyarrow.compute as pc  # type: ignore[import-untyped]

            array = pa.array(texts, pa.string())
        except (ImportError, UnicodeError):  # no pyarrow; a lone surrogate no UTF-8 holds
            pass
        else:
            dates = pc.match_substring_regex(array, engine_pattern())
            if pc.all(dates).as_py():
                return set()
            return set(pc.filter(array, pc.invert(dates)).to_pylist())
    return set() if all(map(_ISO_MATCH, texts)) else None


# --- dataframes -----------------------------------------------------------------------------


def _check_series(
    frame: pd.DataFrame, name: str, decl: ColumnDeclaration, total: int
) -> ColumnViolation | None:
    """Judge one dataframe column, by dtype where the dtype settles it."""
    if name not in frame.columns:
        return ColumnViolation.missing(name, decl, total)
    series = frame[name]
    if isinstance(series, pd.DataFrame):  # duplicated column label: judge the first
        series = series.iloc[:, 0]
    dtype = series.dtype
    settled = _dtype_verdict(decl.type, dtype)
    if settled is None:  # object (or otherwise mixed) column: value by value
        return _check_values(series.astype(object).tolist(), name, decl, total)
    if settled == _OK and (decl.nullable or surely_complete(series)):
        return None  # only a missing value could offend, and none can or none is there
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
    frequent = [OffendingValue(None, "null", nothing)] if nothing else []
    if settled == _BAD:  # every present value offends: counted by pandas, one hash pass
        counted = series[~missing].value_counts(sort=False, dropna=True)
        for v, n in zip(counted.index.tolist(), counted.tolist(), strict=True):
            frequent.append(OffendingValue(v, _type_name(type(v), v), int(n)))
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
        most_frequent(frequent),
    )


def surely_complete(series: pd.Series) -> bool:
    """True when a column is told to hold no missing value without a mask of its rows: a
    float column's least value is NaN when it holds one, a date column's least integer is
    NaT, an integer or boolean numpy column holds none, Arrow counts its nulls. False when
    a value is missing or this cannot be told so (then ``isna`` decides).

    >>> surely_complete(pd.Series([1.5, 2.0])), surely_complete(pd.Series([1.5, None]))
    (True, False)
    >>> surely_complete(pd.Series(pd.to_datetime(["2024-05-13", None], utc=True)))
    False
    """
    if not len(series):
        return True
    array = series.array
    if isinstance(array, pd.arrays.DatetimeArray):  # zoned or not: its integers
        return bool(np.asarray(array.view("i8")).min() != _NAT)
    if isinstance(array, pd.arrays.ArrowStringArray):
        return bool(array.__arrow_array__().null_count == 0)
    dtype = series.dtype
    if not isinstance(dtype, np.dtype):
        return False
    if dtype.kind in "iub":
        return True
    if dtype.kind == "f":
        return not bool(np.isnan(series.to_numpy().min()))  # (NaN is min's answer if held)
    return False


_NAT: Final = -(2**63)  # the integer a date column holds for NaT


def _dtype_verdict(declared: ColumnType, dtype: Any) -> int | None:
    """``_OK`` (only missing values can offend), ``_BAD`` (every present value offends), or
    None when the dtype does not decide and values must be looked at: the verdict of
    ``chartkit.check.verdicts`` on the value type every present value of the dtype has."""
    held = _dtype_value_type(dtype)
    if held is None:
        return None
    settled = string_verdict(declared) if held == "string" else verdict(declared, held)
    if settled is None:  # text in a date column: each string's form decides
        return None
    return _OK if settled == OK else _BAD


def _dtype_value_type(dtype: Any) -> str | None:
    """The value type (``chartkit.check.verdicts``) of every present value of a pandas dtype, or
    None for an object, categorical or otherwise mixed one."""
    api = pd.api.types
    if isinstance(dtype, pd.CategoricalDtype) or api.is_object_dtype(dtype):
        return None
    if api.is_bool_dtype(dtype):
        return "boolean"
    if api.is_complex_dtype(dtype):
        return "complex"  # no number a chart can place, as in a list of dicts
    if api.is_timedelta64_dtype(dtype):
        return "timedelta"
    if api.is_numeric_dtype(dtype):
        return "number"
    if api.is_datetime64_any_dtype(dtype):
        return "date"
    if api.is_string_dtype(dtype):
        return "string"
    return None


def offending_mask(
    series: pd.Series, decl: ColumnDeclaration
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which rows of one column offend its declaration — the verdicts of ``check_columns``.

    The chart leaves these rows out of the column's axis; nothing is converted. A column
    whose dtype does not settle it is judged per exact type, as ``check_columns`` judges a
    list (``_values_mask``), not value by value.

    >>> offending_mask(pd.Series(["", 3, None]), ColumnDeclaration("number")).tolist()
    [True, False, True]
    """
    settled = _dtype_verdict(decl.type, series.dtype)
    if settled is not None:
        missing = series.isna().to_numpy()
        if settled == _BAD:
            return np.ones(len(series), dtype=bool) if not decl.nullable else ~missing
        return np.zeros(len(series), dtype=bool) if decl.nullable else missing
    objects = series.astype(object).to_numpy()
    return _values_mask(objects, decl.type, decl.nullable)


_Mask = np.ndarray[Any, np.dtype[np.bool_]]


def _values_mask(objects: np.ndarray[Any, Any], declared: ColumnType, nullable: bool) -> _Mask:
    """``offending_mask`` of an object array (see ``_list_mask``)."""
    return _list_mask(objects.tolist(), declared, nullable, objects=objects)


def _list_mask(
    values: list[Any],
    declared: ColumnType,
    nullable: bool,
    coded: _Coded | None = None,
    *,
    objects: np.ndarray[Any, Any] | None = None,
) -> _Mask:
    """Which values offend: the verdict is taken per exact type, and only
    the types ``_classify`` leaves to a look are looked at — floats at once (NaNs told apart in
    C by ``_speedups.type_codes``, else by ``np.isnan``), the strings of a date column once
    per distinct string, any other such type (Decimal, numpy dates, subclasses) value by
    value with ``_look``."""
    n = len(values)
    if not n:
        return np.zeros(0, dtype=bool)
    codes, kinds, nan_apart = coded if coded is not None else _type_codes(values)
    verdicts = [_classify(declared, tp) for tp in kinds]
    if nan_apart and float in kinds:  # exact floats coded apart from their NaNs: no look
        verdicts[kinds.index(float)] = _NUMBER[declared]
    table = np.zeros(max(len(kinds), _NAN_CODE + 1), dtype=bool)
    table[: len(kinds)] = [_offends(v, nullable) for v in verdicts]
    if nan_apart:
        table[_NAN_CODE] = _offends(_CODES[verdict(declared, "null")], nullable)  # a float NaN
    out: _Mask = table[codes]
    for i, (tp, said) in enumerate(zip(kinds, verdicts, strict=True)):
        if said == _LOOK:
            if objects is None:
                objects = np.fromiter(values, dtype=object, count=n)
            at = np.flatnonzero(codes == i)
            out[at] = _looked_mask(objects[at], tp, declared, nullable)
    return out


def _type_codes(values: list[Any]) -> tuple[np.ndarray[Any, Any], list[type], bool]:
    """Each value's index in the list of distinct exact types, the types, and whether exact
    float NaNs are coded ``_NAN_CODE`` apart (in C, when ``chartkit._speedups`` is there and
    the values hold at most 255 types; else listed with ``map(type, ...)``, NaNs not apart)."""
    speedups = columnar.SPEEDUPS
    got = None if speedups is None else speedups.type_codes(values)
    if got is not None:
        return np.frombuffer(got[0], dtype=np.uint8), list(got[1]), True
    kinds = list(set(map(type, values)))
    if len(kinds) == 1:  # the usual case: no second pass
        return np.zeros(len(values), dtype=np.uint8), kinds, False
    number = {tp: i for i, tp in enumerate(kinds)}
    small = np.uint8 if len(kinds) <= 256 else np.intp
    codes = np.fromiter(map(number.__getitem__, map(type, values)), small, count=len(values))
    return codes, kinds, False


def _offends(verdict: int, nullable: bool) -> bool:
    return verdict == _BAD or (verdict == _NOTHING and not nullable)


def _looked_mask(
    objects: np.ndarray[Any, Any], tp: type, declared: ColumnType, nullable: bool
) -> _Mask:
    """Which of these values, all of exact type ``tp`` that ``_classify`` leaves to ``_look``,
    offend: the verdicts of ``_look``, taken at once where the type allows it."""
    if tp in _NUMPY_READS:
        nan = np.isnan(objects.astype(np.float64))
        bad = ~nan if _NUMBER[declared] == _BAD else np.zeros(len(nan), dtype=bool)
        return bad | nan if _offends(_CODES[verdict(declared, "null")], nullable) else bad
    if tp is str:  # only a date column leaves strings to a look: ISO or not
        texts: list[str] = objects.tolist()
        bad = _not_iso(texts)
        if not bad:
            return np.zeros(len(texts), dtype=bool)
        return np.fromiter(map(bad.__contains__, texts), dtype=bool, count=len(texts))
    verdicts = [_offends(_look(declared, value), nullable) for value in objects.tolist()]
    return np.array(verdicts, dtype=bool)
