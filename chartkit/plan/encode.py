"""Declared type → Vega-Lite type, and what each column can do on an axis.

One table (``VEGALITE_TYPES``) maps the four declared types to Vega-Lite's measurement types.
A declared column's type never depends on its values. A column the declaration leaves out
falls back to Altair's own inference (``source="inferred"``) — chartkit writes no sniffer.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
import pandas as pd

from chartkit._isodate import parse_iso
from chartkit._safe import sample_text
from chartkit.check.judge import ABSENCE_TYPE_NAMES, ColumnViolation, offending_mask
from chartkit.columns import COLUMN_TYPES, ColumnDeclaration, ColumnType
from chartkit.errors import ChartkitError
from chartkit.messages import render_sample
from chartkit.read.columnar import known_wall_clock, text_encoding

__all__ = [
    "ASCII_NUMBER_TEXT",
    "VEGALITE_TYPES",
    "AxisRefusal",
    "Channel",
    "ColumnProfile",
    "Encoding",
    "VegaLiteType",
    "any_aware",
    "as_numbers",
    "as_wall_clock",
    "describe_offenders",
    "distinct_values",
    "numeric_strings_only",
    "profile_columns",
    "vegalite_type",
    "wall_clock",
]

VegaLiteType = Literal["quantitative", "temporal", "nominal"]
Channel = Literal["x", "y", "color", "facet", "size"]
Source = Literal["declared", "inferred"]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]

VEGALITE_TYPES: Final[Mapping[ColumnType, VegaLiteType]] = {
    "number": "quantitative",
    "date": "temporal",
    "string": "nominal",
    "boolean": "nominal",
}
"""The one table from declared column type to Vega-Lite type."""

ID_LIKE_SHARE = 0.8  # a string column with more distinct values than this share …
ID_LIKE_MIN_ROWS = 50  # … and more rows than this looks like an identifier;
ID_LIKE_WIDE_SHARE = 0.5  # on a column of hundreds of values (ID_LIKE_WIDE_ROWS rows or more),
ID_LIKE_WIDE_ROWS = 100  # over half of them distinct already reads as names (cities, cars)

_NUMERIC_TEXT = re.compile(r"\s*[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*")
# The same pattern for pyarrow's and the engines' RE2 with ASCII digits and spaces only
# (Python's \d and \s also take other scripts' digits and Unicode spaces, RE2's do not): what
# it accepts, ``_NUMERIC_TEXT`` accepts; what it refuses, Python decides.
ASCII_NUMBER_TEXT: Final = (
    r"^[\t\n\v\f\r ]*[-+]?([0-9][0-9_]*(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?[\t\n\v\f\r ]*$"
)


def vegalite_type(column_type: ColumnType) -> VegaLiteType:
    """The Vega-Lite type a declared column type is drawn as.

    >>> [vegalite_type(t) for t in ("number", "date", "string", "boolean")]
    ['quantitative', 'temporal', 'nominal', 'nominal']
    """
    try:
        return VEGALITE_TYPES[column_type]
    except (KeyError, TypeError):
        raise ChartkitError(
            f"column type {column_type!r} is not one of {', '.join(COLUMN_TYPES)}"
        ) from None


@dataclass(frozen=True, slots=True)
class Encoding:
    """One channel of a chart: which column, drawn as which Vega-Lite type, and why.

    ``source`` says where the type came from: ``"declared"`` (the declaration, whose type is
    ``declared``) or ``"inferred"`` (Altair's inference, for a column the declaration leaves
    out).
    ``aggregate`` names the aggregation drawn (``"mean"``, ``"sum"``, ``"count"``) and ``bin``
    says the values were binned; both were computed in pandas before the spec was built.
    ``field`` is the column's name in the chart's data (names with ``.``, ``[``, ``]``, ``:``
    or quotes are renamed so Vega-Lite cannot read them as nested fields). ``measures`` names
    every measure when several are drawn (``y=[...]``): the y encoding holds their values and
    the color encoding (column ``measure``) tells them apart. ``calendar``: a number named a
    time holding calendar years (quarters as 1945.25), whose ticks print as years (1948, never
    1,948).
    """

    column: str
    type: VegaLiteType
    source: Literal["declared", "inferred"]
    aggregate: str | None = None
    bin: bool = False
    field: str = ""
    title: str = ""
    declared: ColumnType | None = None
    measures: tuple[str, ...] = ()
    calendar: bool = False  # a number holding calendar years (1945.25): ticks print as years

    def describe(self) -> str:
        """One line for people: ``declared number → quantitative`` or ``inferred nominal``."""
        if self.measures and self.field == "measure":
            return f"one series per measure: {', '.join(self.measures)} → nominal"
        if self.measures:
            names = ", ".join(self.measures)
            what = f"{self.aggregate} of {names}" if self.aggregate else names
            return f"{what}: declared number → {self.type}"
        if self.aggregate == "count":
            return (
                f"rows counted per {self.column} value{' bin' if self.bin else ''} → quantitative"
            )
        what = f"{self.aggregate} of {self.column}" if self.aggregate else self.column
        if self.bin:
            what = f"{what} (binned)"
        if self.source == "inferred":
            return f"{what}: inferred {self.type} — not declared"
        return f"{what}: declared {self.declared} → {self.type}"


@dataclass(frozen=True, slots=True)
class AxisRefusal:
    """An axis chartkit would not draw, and why; ``violation`` is set when the check is why."""

    column: str
    channel: Channel
    reason: str
    violation: ColumnViolation | None = None


@dataclass(frozen=True, slots=True)
class ColumnProfile:
    """What one column of a result can do on an axis."""

    name: str
    type: VegaLiteType
    source: Literal["declared", "inferred"]
    declaration: ColumnDeclaration | None
    violation: ColumnViolation | None
    present: bool
    distinct: int
    rows: int
    # the type an engine holds a declared column as, when it is not the declared one (its
    # values are judged one by one only when they leave the engine: it is not ``present``)
    held_as: str | None = None

    @property
    def declared(self) -> ColumnType | None:
        return self.declaration.type if self.declaration is not None else None

    @property
    def usable(self) -> bool:
        """False when the column is missing or every row offends its declaration."""
        if not self.present:
            return False
        v = self.violation
        return v is None or v.affected < v.total

    @property
    def is_measure(self) -> bool:
        return self.usable and self.type == "quantitative"

    @property
    def id_like_share(self) -> float | None:
        """The share of distinct values over which this column reads as an identifier:
        ``ID_LIKE_WIDE_SHARE`` on ``ID_LIKE_WIDE_ROWS`` rows or more, ``ID_LIKE_SHARE`` over
        ``ID_LIKE_MIN_ROWS``; None on fewer rows (a short column's values may all differ)."""
        if self.rows >= ID_LIKE_WIDE_ROWS:
            return ID_LIKE_WIDE_SHARE
        return ID_LIKE_SHARE if self.rows > ID_LIKE_MIN_ROWS else None

    @property
    def id_like(self) -> bool:
        """A string column whose values are mostly distinct: an identifier, not a category
        (city or car names, 77% distinct over hundreds of rows, are not bars)."""
        share = self.id_like_share
        return self.type == "nominal" and share is not None and self.distinct > share * self.rows

    def describe_type(self) -> str:
        """``host_group is string`` or ``raised_at is inferred temporal``."""
        if self.declared is not None:
            return f"{self.name} is {self.declared}"
        return f"{self.name} is undeclared ({self.type}, inferred)"


def profile_columns(
    frame: pd.DataFrame,
    declaration: Mapping[str, ColumnDeclaration] | None,
    violations: tuple[ColumnViolation, ...],
) -> dict[str, ColumnProfile]:
    """A profile for every declared column, in the declaration's order (the tool author's),
    then every undeclared column of the frame, in the frame's order.

    The order is what the chart rules try columns in, so a chart never depends on the order
    of the keys in the rows: only on the declaration's.
    """
    by_column = {v.column: v for v in violations}
    declared = dict(declaration or {})
    names = [str(c) for c in frame.columns]
    known = set(names)  # once: a wide result has as many declared columns as names
    out: dict[str, ColumnProfile] = {}
    for name in [*declared, *(n for n in names if n not in declared)]:
        decl = declared.get(name)
        present = name in known
        series = _series(frame, name) if present else None
        vl: VegaLiteType = vegalite_type(decl.type) if decl is not None else _infer(series)
        source: Source = "declared" if decl is not None else "inferred"
        distinct = 0
        if series is not None and vl == "nominal":
            flagged = by_column.get(name)
            if decl is not None and flagged is not None and flagged.affected:
                # the chart leaves a category's offenders out, and an engine counts so
                series = series[~offending_mask(series, decl)]
            distinct = distinct_values(series)
        out[name] = ColumnProfile(
            name,
            vl,
            source,
            decl,
            by_column.get(name),
            present,
            distinct,
            len(frame),
        )
    return out


def distinct_values(series: pd.Series) -> int:
    """``nunique()`` of a column (an object column's by text): text held by pyarrow is counted
    from its dictionary encoding (``chartkit.read.columnar.text_encoding``), which the chart's
    series codes reuse."""
    if series.dtype == object:
        return _distinct_texts(series)
    array = series.array
    if isinstance(array, pd.arrays.ArrowStringArray):
        return len(text_encoding(array.__arrow_array__()).dictionary)
    return int(series.nunique())


def _distinct_texts(series: pd.Series) -> int:
    """Distinct values of an object column, by their text (lists and dicts are unhashable)."""
    try:
        return int(series.astype(str).nunique())
    except (UnicodeEncodeError, RecursionError):  # a lone surrogate, a value nested deep
        return int(pd.Series([sample_text(v) for v in series.tolist()], dtype=object).nunique())


def _series(frame: pd.DataFrame, name: str) -> pd.Series:
    s = frame[name]
    if isinstance(s, pd.DataFrame):  # duplicated label
        s = s.iloc[:, 0]
    return s


def _infer(series: pd.Series | None) -> VegaLiteType:
    """Altair's own inference for an undeclared column, narrowed to the three types we draw."""
    from altair.utils.core import infer_vegalite_type_for_pandas

    if series is None:
        return "nominal"
    with warnings.catch_warnings():  # "I don't know how to infer … Defaulting to nominal."
        warnings.simplefilter("ignore", UserWarning)  # (Decimal, mixed): nominal is our answer
        found = infer_vegalite_type_for_pandas(series)
    kind = found[0] if isinstance(found, tuple) else found
    if kind in ("quantitative", "temporal"):
        return kind
    return "nominal"


# --- values on an axis ------------------------------------------------------------------------


def numeric_strings_only(series: pd.Series, mask: BoolArray) -> bool:
    """True when every offending value is a string that reads as a number (``"1240"``).

    Only looked at, never converted: the message says the tool quotes its numbers. Text held
    by pyarrow is first matched in C against the ASCII spelling of the same pattern (which
    accepts only what ``_NUMERIC_TEXT`` accepts); only the values it does not prove — a
    missing one, or text with other digits or spaces — are read by Python's ``re``.
    """
    offenders = series[mask]
    if not len(offenders):
        return False
    unproven = _not_ascii_numbers(offenders)
    return all(isinstance(v, str) and _NUMERIC_TEXT.fullmatch(v) is not None for v in unproven)


def _not_ascii_numbers(offenders: pd.Series) -> list[Any]:
    """The values ``ASCII_NUMBER_TEXT`` does not prove numbers (pyarrow text: matched in C,
    missing values as None), or every value of any other column."""
    array = offenders.array
    arrow = array.__arrow_array__() if isinstance(array, pd.arrays.ArrowStringArray) else None
    if arrow is None:
        return offenders.tolist()
    import pyarrow.compute as pc  # type: ignore[import-untyped]

    proven = pc.fill_null(pc.match_substring_regex(arrow, ASCII_NUMBER_TEXT), False)
    if pc.all(proven).as_py():
        return []
    rest: list[Any] = pc.filter(arrow, pc.invert(proven)).to_pylist()
    return rest


def as_numbers(series: pd.Series) -> pd.Series:
    """Conforming number values as floats (offenders already removed; nothing is coerced)."""
    api = pd.api.types
    if (
        api.is_numeric_dtype(series.dtype)
        and not api.is_bool_dtype(series.dtype)
        and not api.is_complex_dtype(series.dtype)  # casting would drop the imaginary part
    ):
        return series.astype("float64")
    return pd.Series([_float(v) for v in series.tolist()], index=series.index, dtype="float64")


def _float(value: Any) -> float:
    """A conforming number as a float; NaN for nothing, and for an int too large for a float
    (the caller leaves such a row out and says so — it never becomes some other number)."""
    if value is None or value is pd.NA or value is pd.NaT:
        return np.nan
    if isinstance(value, np.datetime64 | np.timedelta64 | complex | np.complexfloating):
        return np.nan  # NaT, or a value already left out as no number (a complex is none)
    try:
        return float(value)
    except OverflowError:
        return np.nan


_OFFSET = r"[Tt\s]\d\d(?::?\d\d){0,2}(?:[.,]\d+)?\s*(?:[Zz]|[+-]\d\d(?::?\d\d)?)$"  # time, zone


def any_aware(series: pd.Series) -> bool:
    """Whether any date value carries a time zone (an aware datetime, or an ISO offset)."""
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        return getattr(series.dt, "tz", None) is not None
    for value in series.tolist():
        if isinstance(value, str):
            if re.search(_OFFSET, value.strip()):
                return True
        elif isinstance(value, dt.datetime) and value.tzinfo is not None:
            return True
    return False


def as_wall_clock(series: pd.Series) -> pd.Series:
    """Conforming date values as naive timestamps: aware ones in UTC, naive ones as given."""
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        s = series
        if getattr(s.dt, "tz", None) is not None:
            s = s.dt.tz_convert(None)  # (to UTC, the zone dropped: no copy of the times)
        return s
    try:
        parsed = pd.to_datetime(series, utc=True, format="ISO8601")
        return parsed.dt.tz_localize(None)
    except (ValueError, TypeError):
        pass
    return pd.Series(
        pd.to_datetime(pd.Series([_wall_clock(v) for v in series.tolist()], dtype=object)),
        index=series.index,
    )


def wall_clock(series: pd.Series, keep: BoolArray | None = None) -> tuple[pd.Series, bool]:
    """``as_wall_clock`` and ``any_aware`` from one parse: the naive timestamps, and whether any
    value carried a time zone. With ``keep``, those of ``series[keep]``: a column a reading
    parsed is filtered after, not parsed again (whether a kept value carries a zone is then
    searched in its text, in C).

    A column of ISO strings that a list of dicts' reading already parsed (in C, while the
    check validated them: ``RowsetReading.to_frame`` hands those on with the exact Arrow
    array it built) is not parsed again. Other strings are parsed once, in C (pandas' ISO 8601
    reader, which keeps a zone when every value shares it); values with several zones, or
    zones beside naive values, which pandas will not hold in one column, take the two separate
    steps.
    """
    known = _parsed_by_reading(series)
    if keep is not None:
        if known is None:
            return wall_clock(series[keep])
        times, aware = known
        if aware and _parsed_zones(series) == (0, len(series)):  # every value zoned: no search
            return times[keep], bool(keep.any())
        return times[keep], aware and _any_offset(series.array.__arrow_array__(), keep)
    if known is not None:
        return known
    if not pd.api.types.is_datetime64_any_dtype(series.dtype):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                parsed = pd.to_datetime(series, format="ISO8601")
        except (ValueError, TypeError, OverflowError, Warning):
            parsed = None
        if parsed is None or not pd.api.types.is_datetime64_any_dtype(parsed.dtype):
            return as_wall_clock(series), any_aware(series)
        series = parsed
    return as_wall_clock(series), getattr(series.dt, "tz", None) is not None


# ``_OFFSET`` for pyarrow's RE2 on text below U+0100 (a reading parses no other: see
# chartkit/_speedups.c), with Python's \s and \d there spelled out, and the stripped end
# ``any_aware`` searches allowed for.
_SPACE = r"[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}]"
_RE2_OFFSET: Final = (
    r"[Tt\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}][0-9][0-9](?::?[0-9][0-9]){0,2}(?:[.,][0-9]+)?"
    + _SPACE
    + r"*(?:[Zz]|[+-][0-9][0-9](?::?[0-9][0-9])?)"
    + _SPACE
    + "*$"
)


def _any_offset(arrow: Any, keep: BoolArray) -> bool:
    """Whether any kept date string of a reading's column carries a zone, searched in C."""
    import pyarrow as pa
    import pyarrow.compute as pc

    found = pc.match_substring_regex(pc.filter(arrow, pa.array(keep)), _RE2_OFFSET)
    return bool(pc.any(found).as_py())


def _parsed_by_reading(series: pd.Series) -> tuple[pd.Series, bool] | None:
    """``wall_clock``'s answer when the series holds exactly the Arrow array of date strings a
    reading parsed (see ``chartkit.read.columnar.remember_wall_clock``); None otherwise."""
    array = series.array
    if not isinstance(array, pd.arrays.ArrowStringArray):
        return None
    clock = known_wall_clock(array.__arrow_array__())
    if clock is None:
        return None
    times = clock.times()
    if len(times) != len(series):
        return None
    return pd.Series(times, index=series.index, name=series.name, copy=False), clock.aware


def _parsed_zones(series: pd.Series) -> tuple[int, int] | None:
    """``(naive, zoned)`` as the reading's parse of exactly this column counted them (every
    value a date string: see ``_parsed_by_reading``); None when no reading parsed it."""
    array = series.array
    if not isinstance(array, pd.arrays.ArrowStringArray):
        return None
    clock = known_wall_clock(array.__arrow_array__())
    if clock is None or len(clock.micros) != 8 * len(series):
        return None
    return len(series) - clock.zoned, clock.zoned


def _wall_clock(value: Any) -> dt.datetime | None:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return None
    if isinstance(value, str):
        value = parse_iso(value)  # None for no date string (the check filed it)
    if isinstance(value, np.datetime64):
        return None if np.isnat(value) else pd.Timestamp(value).to_pydatetime()
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            return value.astimezone(dt.UTC).replace(tzinfo=None)
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    return None


def describe_offenders(v: ColumnViolation) -> str:
    """``hold string (first: "")`` — the offenders, from the violation, in the spec's voice."""
    held = " or ".join(
        "nothing" if t in ABSENCE_TYPE_NAMES else t for t in (v.offending_types or (v.sample_type,))
    )
    first = "null" if v.sample_type in ABSENCE_TYPE_NAMES else render_sample(v.sample)
    return f"hold {held} (first: {first})"
