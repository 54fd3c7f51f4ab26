"""The one contract every backend keeps: count the facts, reduce per the spec, sample, judge.

A backend holds one result's rows where they live — a pandas frame in memory, or an engine's
frame (DuckDB, polars, pyarrow, Ibis, Spark) — and answers the only questions the rest of
chartkit asks of rows:

- ``facts(names, distinct=…)``: what choosing a chart needs to know of a column, counted in
  one pass — its rows, the rows holding a value, its distinct values (of the columns
  ``distinct`` names; all by default), its span (lowest and highest) — as ``ColumnFacts``;
  of the rows ``where`` selects, when it holds terms (the rows a chart places, say);
- ``coverage(time, by)``: whether a category is an entity over time — the distinct times
  among the rows holding one, and how many of them the value of ``by`` found at the fewest
  holds (``chartkit.plan.choose.is_entity`` reads the two: a line splits by an entity only);
- ``profiles(declaration, violations)``: a ``ColumnProfile`` per column (declared type,
  counts, distinct values), in the order ``chartkit.plan.encode.profile_columns`` gives;
- ``reduce(grouping)``: the rows grouped as a ``Grouping`` (made from a ``ChartSpec``) says —
  group keys, a time bucket, bins of a number key, the aggregate of each measure, the top N —
  with the rows behind each group and the rows left out, as ``Groups``;
- ``sample(n)``: at most ``n`` rows (never more than ``MAX_SAMPLE``), for showing;
- ``offenders(declaration)``: the check's violations, each with its first offender
  (``chartkit.check``; for engines the counting is ``chartkit._frame_check``'s);
- ``count(where)`` / ``page(where, offset, limit)`` / ``tally(where, tests)``: the rows a list
  of ``Condition`` and ``AnyOf`` terms selects (the rows behind a mark: a category, a half-open
  bin or bucket, a missing value, a placed value, the rows left out), counted, fetched a page
  at a time, and counted by test in one pass (the offenders among them).

No backend parses a tool's column name: a name is a literal everywhere (engines name columns
by position), and a helper column can never take a data column's place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, runtime_checkable

from chartkit.errors import ChartkitError
from chartkit.options import TIME_UNITS, TimeUnit

if TYPE_CHECKING:
    import pandas as pd

    from chartkit.check.judge import ColumnViolation
    from chartkit.columns import ColumnDeclaration
    from chartkit.plan.decide import Plan
    from chartkit.plan.encode import ColumnProfile
    from chartkit.plan.facts import NumberFacts
    from chartkit.plan.kit import Whole
    from chartkit.plan.spec import ChartSpec
    from chartkit.read.rowset import RowsetReading

__all__ = [
    "AGGREGATIONS",
    "MAX_PAGE",
    "MAX_SAMPLE",
    "AnyOf",
    "Backend",
    "ColumnFacts",
    "Condition",
    "Grouping",
    "Groups",
    "Planning",
    "Source",
    "Term",
    "Told",
    "negated",
]

MAX_SAMPLE: Final = 10_000  # rows ``sample`` ever returns
MAX_PAGE: Final = 1_000  # rows one ``page`` ever returns
AGGREGATIONS: Final = ("sum", "mean", "median", "min", "max", "count")

Op = Literal["eq", "in", "null", "ge", "gt", "lt", "le", "finite", "infinite", "valid"]
_OPS: Final = ("eq", "in", "null", "ge", "gt", "lt", "le", "finite", "infinite", "valid")
_COMPARISONS: Final = ("eq", "ge", "gt", "lt", "le")


@dataclass(frozen=True, slots=True)
class ColumnFacts:
    """What a backend counted of one column: ``rows`` in the frame, ``values`` holding a value
    (neither null nor NaN), ``distinct`` values among them (None when not asked: counting them
    is the costly part), and the span ``lo``–``hi`` (numbers and dates; None for other columns
    or when no row holds a value)."""

    name: str
    rows: int
    values: int
    distinct: int | None
    lo: Any = None
    hi: Any = None

    @property
    def varies(self) -> bool:
        """Whether two rows hold different values (a value and a missing one differ too)."""
        if self.distinct is None:
            raise ChartkitError(f"the distinct values of {self.name!r} were not counted")
        return self.distinct > 1 or (self.distinct == 1 and self.values < self.rows)


@dataclass(frozen=True, slots=True)
class Condition:
    """One test of one column's value that every row passes or fails: ``column`` ``op``
    ``value``, or its exact complement with ``negate=True``.

    - ``eq`` / ``in`` (a category, a bucket's start; ``in`` takes a list), ``ge`` / ``gt`` /
      ``lt`` / ``le`` (a bin or bucket, half-open as ``ge`` + ``lt``): a missing value (null,
      or NaN) meets none of them; a number column is compared as floats, a text value only
      with text and a boolean only with a boolean.
    - ``null``: the row holds no value (null, or NaN): the "missing" category.
    - ``finite``: a finite number (no missing value, no infinity); ``infinite``: ±infinity.
    - ``valid``: the cell is of its declared type, ``value`` (a ``ColumnDeclaration``), or
      missing where that allows it: no offender of the check.

    A date value is a naive ``datetime`` read where the chart reads the column: in UTC for
    zoned times (the chart shows them in UTC), on the wall clock for naive ones; a date column
    is read at midnight. So a time bucket ``[start, end)`` of the chart is ``ge`` + ``lt`` of
    its edges, in the chart's zone, on every backend.

    Every test answers true or false for every row (a null never leaves a row undecided), so
    ``negate`` is the exact complement: ``Condition(c, "in", shown, negate=True)`` holds the
    rows of every other category, the missing one included.
    """

    column: str
    op: Op
    value: Any = None
    negate: bool = False

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ChartkitError(f"a condition's op is one of {', '.join(_OPS)}, got {self.op!r}")
        if not isinstance(self.column, str):
            raise ChartkitError(f"a condition names a column by its name, got {self.column!r}")
        if self.op == "in" and not isinstance(self.value, list | tuple | frozenset | set):
            raise ChartkitError(f"op 'in' takes a list of values, got {self.value!r}")
        if self.op in _COMPARISONS and _missing_value(self.value):
            raise ChartkitError(
                f"op {self.op!r} compares with a value, got {self.value!r}; the missing "
                "category is op 'null'"
            )
        if self.op == "valid":
            from chartkit.columns import ColumnDeclaration

            if not isinstance(self.value, ColumnDeclaration):
                raise ChartkitError(
                    f"op 'valid' takes the column's ColumnDeclaration, got {self.value!r}"
                )
        _check_negate(self.negate)


def _check_negate(negate: object) -> None:
    """A term's ``negate`` is a bool, or the term is refused with what it got."""
    if not isinstance(negate, bool):
        raise ChartkitError(f"negate is True or False, got {negate!r}")


@dataclass(frozen=True, slots=True)
class AnyOf:
    """A row passes when it passes at least one of ``terms`` (each a ``Condition`` or an
    ``AnyOf``); with ``negate=True``, when it passes none. A ``where`` list is the conjunction
    of its terms, so ``negated`` turns any list into one ``AnyOf``: the rows a chart left out
    are the rows that fail some test every drawn row passes."""

    terms: tuple[Term, ...]
    negate: bool = False

    def __post_init__(self) -> None:
        for t in self.terms:
            if not isinstance(t, Condition | AnyOf):
                raise ChartkitError(
                    f"an AnyOf holds Condition and AnyOf terms, got {type(t).__name__}"
                )
        _check_negate(self.negate)

    def columns(self) -> list[str]:
        """The columns its conditions test, in order."""
        return terms_columns(self.terms)


Term = Condition | AnyOf
"""One term of a ``where`` list: a ``Condition``, or an ``AnyOf`` of terms."""


def negated(where: Sequence[Term]) -> AnyOf:
    """The rows that fail at least one term of ``where``: ``not (t1 and t2 and …)``."""
    return AnyOf(tuple(_flip(t) for t in where))


def _flip(t: Term) -> Term:
    if isinstance(t, Condition):
        return Condition(t.column, t.op, t.value, not t.negate)
    return AnyOf(t.terms, not t.negate)


def terms_columns(where: Sequence[Term]) -> list[str]:
    """The columns a ``where`` list's conditions test, each once, in order."""
    out: list[str] = []
    for t in where:
        if isinstance(t, Condition):
            out.append(t.column)
        elif isinstance(t, AnyOf):
            out.extend(t.columns())
        else:
            raise ChartkitError(
                f"a where list holds Condition and AnyOf terms, got {type(t).__name__}"
            )
    return list(dict.fromkeys(out))


def _missing_value(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


@dataclass(frozen=True, slots=True)
class Grouping:
    """How to reduce rows: group by ``keys`` (a category, a date — ``bucket_seconds`` floors
    the first key, a date, to buckets of that many seconds from the epoch; ``time_unit``
    floors it to the start of its minute, hour, day, week (from Monday), month, quarter or
    year, as the chart reads the date; ``bins`` puts a number key in bins by
    their edges), then the ``aggregate`` of each of ``measures`` per group (no measure: the rows
    counted), keeping the ``top`` first keys with the highest value (the sum of the first
    measure over their groups, or their rows).

    A binned key holds the index ``i`` of its bin, ``[edges[i], edges[i+1])`` with the last bin
    closed — where ``numpy.histogram`` over the same edges counts the value (a value on an
    inner edge opens the next bin; of equal edges, the last one counts) — and only bins holding
    a row are groups. A row outside the edges is left out and counted (``Groups.outside``).

    A row with no value (null or NaN, or an infinite number) in a measure, a date key or a
    binned key is left out; a missing category is a group of its own. Rows whose value offends
    the declaration are left out of the column they offend, and counted.

    ``where`` (``Condition`` / ``AnyOf`` terms, as ``Backend.count`` reads them) keeps only the
    rows passing every term, before anything else: the counts of rows left out are among them.
    A chart groups the rows it places (``chartkit.backends.clauses.where`` of its ``Placed``
    clauses), the very rows a selection of one of its marks reads back.
    """

    keys: tuple[str, ...]
    measures: tuple[str, ...] = ()
    aggregate: str = "mean"
    bucket_seconds: int | None = None
    time_unit: TimeUnit | None = None
    top: int | None = None
    dates: tuple[str, ...] = ()  # the keys that are dates (left out when missing)
    bins: tuple[tuple[str, tuple[float, ...]], ...] = ()  # (key, its edges) per binned key
    where: tuple[Term, ...] = ()  # only the rows passing every term are grouped

    def __post_init__(self) -> None:
        if self.aggregate not in AGGREGATIONS:
            raise ChartkitError(
                f"aggregate={self.aggregate!r} is not one of {', '.join(AGGREGATIONS)}"
            )
        if not self.keys:
            raise ChartkitError("a grouping needs at least one key column")
        overlap = set(self.keys) & set(self.measures)
        if overlap:
            raise ChartkitError(f"{sorted(overlap)[0]!r} cannot be both a key and a measure")
        if self.bucket_seconds is not None and (
            not isinstance(self.bucket_seconds, int) or self.bucket_seconds < 1
        ):
            raise ChartkitError(f"bucket_seconds must be a positive integer, got "
                                f"{self.bucket_seconds!r}")  # fmt: skip
        if self.time_unit is not None and self.time_unit not in TIME_UNITS:
            raise ChartkitError(
                f"time_unit={self.time_unit!r} is not one of {', '.join(TIME_UNITS)}"
            )
        if self.bucket_seconds and self.time_unit:
            raise ChartkitError("a grouping takes bucket_seconds or time_unit, not both")
        if (self.bucket_seconds or self.time_unit) and self.keys[0] not in self.dates:
            raise ChartkitError(f"the bucketed key {self.keys[0]!r} must be one of the dates")
        for name, edges in self.bins:
            _check_edges(name, edges, self)
        if not isinstance(self.where, tuple):
            raise ChartkitError(f"where is a tuple of terms, got {type(self.where).__name__}")
        terms_columns(self.where)  # (each a Condition or an AnyOf, or a clear error)

    @property
    def edges(self) -> dict[str, tuple[float, ...]]:
        """The edges of each binned key, by name."""
        return dict(self.bins)

    @property
    def counted(self) -> bool:
        """True when the rows of each group are counted (no measure, or ``count``)."""
        return not self.measures or self.aggregate == "count"

    @property
    def values(self) -> tuple[str, ...]:
        """The measures whose aggregate each group holds (none when rows are counted)."""
        return () if self.counted else self.measures

    @classmethod
    def of_spec(cls, spec: ChartSpec) -> Grouping:
        """The grouping behind a chart spec: its reduction's keys (the chart's own ``measure``
        key stands for the measures, not a column), the measured channel's columns, its
        aggregate, bucket and top-N."""
        r = spec.reduction
        measured = next((c for c in spec.channels if c.aggregate is not None), None)
        if spec.kind != "chart" or measured is None or not r.keys:
            raise ChartkitError("this chart spec is not grouped: it has no reduction to compute")
        aggregate = r.aggregate or measured.aggregate or "mean"
        measures = () if aggregate == "count" else (measured.measures or (measured.column,))
        keys = tuple(k for k in r.keys if not (k == "measure" and measured.measures))
        dates = tuple(c.column for c in spec.channels if c.type == "temporal" and c.column in keys)
        unit = r.time_unit
        return cls(keys, measures, aggregate, r.bucket_seconds, unit, r.top, dates)  # type: ignore[arg-type]


def _check_edges(name: str, edges: tuple[float, ...], g: Grouping) -> None:
    import itertools
    import math

    from chartkit._safe import cap_text, name_list

    q = name_list([name])  # (quoted, and cut when long)
    if name not in g.keys or name in g.dates:
        raise ChartkitError(f"the binned column {q} must be a key, and not a date")
    if [n for n, _ in g.bins].count(name) > 1:
        raise ChartkitError(f"{q} is binned twice; give each key its edges once")
    if not isinstance(edges, tuple) or len(edges) < 2:
        raise ChartkitError(f"the bins of {q} need a tuple of two edges or more, got "
                            f"{cap_text(repr(edges), 200)}")  # fmt: skip
    for e in edges:
        if not isinstance(e, float) or not math.isfinite(e):
            raise ChartkitError(f"the edges of {q} are finite floats, got {cap_text(repr(e), 200)}")
    if any(b < a for a, b in itertools.pairwise(edges)) or edges[-1] <= edges[0]:
        raise ChartkitError(f"the edges of {q} must rise from the first to the last")


@dataclass(frozen=True)
class Groups:
    """A backend's answer to a ``Grouping``: ``frame`` holds one row per group, its key columns
    then its measures' aggregates, under the columns' own names (no helper column beside
    them: the counts are apart); ``rows`` the rows behind each group (one tuple per measure,
    or one tuple of rows counted); ``left_out`` the rows left out because they offend a
    column's declaration, by column; ``no_value`` the rows left out for holding no value;
    ``outside`` the rows left out for a binned value outside its edges; ``grouped`` the rows
    of every group, before ``top`` cut them (the rows the chart places)."""

    frame: pd.DataFrame = field(repr=False)
    rows: tuple[tuple[int, ...], ...]
    left_out: tuple[tuple[str, int], ...] = ()
    no_value: int = 0
    categories: int | None = None  # the first key's values before ``top`` cut them
    outside: int = 0
    grouped: int = 0


@runtime_checkable
class Backend(Protocol):
    """The rows of one result where they live, and the questions chartkit asks of them."""

    engine: str  # "pandas", or the engine's name (duckdb, polars, pyarrow, ibis, pyspark)
    rows: int
    columns: tuple[str, ...]

    def facts(
        self,
        names: Sequence[str],
        *,
        distinct: Sequence[str] | None = None,
        where: Sequence[Term] = (),
    ) -> Mapping[str, ColumnFacts]: ...

    def coverage(self, time: str, by: str) -> tuple[int, int]: ...

    def positions(self, x: str, by: str) -> tuple[list[int], int]: ...

    def unique_pairs(self, a: str, b: str) -> bool: ...

    def all_quoted(self, name: str) -> bool: ...

    def numbers(self, names: Sequence[str]) -> Mapping[str, NumberFacts]: ...

    def unique_key(self, names: Sequence[str]) -> bool: ...

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]: ...

    def reduce(
        self,
        grouping: Grouping,
        declaration: Mapping[str, ColumnDeclaration] | None = None,
    ) -> Groups: ...

    def sample(self, n: int) -> pd.DataFrame: ...

    def offenders(self, declaration: Mapping[str, Any]) -> tuple[ColumnViolation, ...]: ...

    def count(self, where: Sequence[Term]) -> int: ...

    def tally(
        self, where: Sequence[Term], tests: Mapping[str, Sequence[Term]]
    ) -> dict[str, int]: ...

    def page(self, where: Sequence[Term], offset: int = 0, limit: int = 100) -> pd.DataFrame: ...


@dataclass(frozen=True)
class Told:
    """What a source says of the plan it answered (``Planning.told``): the frame the View
    keeps; its own sentences, said after the plan's (an engine says what left it); the rows
    left out and of how many when the rows were reduced where they live (``left_out`` None:
    the plan's own count, over ``frame``); the drawn measures and times missing a value
    (None: read from ``frame``); the violations the chart was planned with (None when not
    known here)."""

    frame: pd.DataFrame = field(repr=False)
    notes: tuple[str, ...] = ()
    left_out: int | None = None
    total: int | None = None
    empty: tuple[str, ...] | None = None
    violations: tuple[ColumnViolation, ...] | None = None


@dataclass(frozen=True)
class Planning:
    """What ``plan_view`` is handed by a source (``Source.planning``): the frame it reads (the
    rows in memory, or every declared column and no row when they stay in an engine), what
    that frame stands for (``whole``: None in memory), and ``told``, which says what the
    source adds once the plan is made."""

    frame: pd.DataFrame = field(repr=False)
    whole: Whole | None
    told: Callable[[Plan, Any], Told] = field(repr=False)


class Source(Protocol):
    """The rows of one ``view()`` where they live, as its one pipeline asks them
    (``chartkit.views``), picked once at the door (``chartkit.backends.source_for``): in
    memory (``MemorySource``) or in a query engine (``EngineSource``).

    The pipeline asks, in this order, each answer handed to the next: ``reading`` (what the
    check judges: an engine's carries the profiling pass, counted at the door), ``profiles``,
    ``refusal`` (what the source cannot answer; ``collected`` is the same rows in memory, or
    None when they must stay where they are), ``planning`` (the frame, the ``Whole`` and how
    to tell what the source adds to the plan).
    """

    plans_choose: bool
    """True when ``plan_view`` draws ``choose=N`` itself (memory probes the opening chart);
    else the pipeline plans the Nth alternative's picks (an engine refuses by the picks)."""

    @property
    def reading(self) -> RowsetReading: ...

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]: ...

    def refusal(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
        picks: Mapping[str, Any],
        chart_args: Mapping[str, Any],
    ) -> str | None: ...

    def collected(self) -> Source | None: ...

    def planning(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
        profiles: Mapping[str, ColumnProfile],
    ) -> Planning: ...


def bounded(n: object, cap: int, what: str) -> int:
    """``n`` as a row count of at least 0, cut at ``cap``; a clear error for anything else."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ChartkitError(f"{what} must be a non-negative integer, got {n!r}")
    return min(n, cap)


def own_keys(tests: Mapping[str, Any]) -> None:
    """A tally's tests are keyed apart from its own key for the total, ``"rows"``."""
    if "rows" in tests:
        raise ChartkitError(
            'a tally\'s tests cannot be keyed "rows" (the key of the rows selected); key them '
            "by place (t0, t1, …) and map the counts back"
        )


def check_names(names: Sequence[str], columns: Sequence[str]) -> None:
    """Every name a column of the frame, or an error listing them."""
    known = set(columns)
    for name in names:
        if name not in known:
            from chartkit._safe import name_list

            raise ChartkitError(
                f"{name!r} names no column of this result; its columns are {name_list(columns)}"
            )


def cut_to_top(
    out: pd.DataFrame, rows: list[tuple[int, ...]], g: Grouping
) -> tuple[pd.DataFrame, list[tuple[int, ...]], int]:
    """The groups of the ``g.top`` first keys with the highest value (their sum), ties in key
    order, the same in every backend."""
    import numpy as np
    import pandas as pd

    first = g.keys[0]
    value = rows[0] if g.counted else out[g.measures[0]]
    rank = (
        pd.Series(np.asarray(value, dtype=float))
        .groupby(out[first], sort=False, dropna=False)
        .sum()
    )
    rank = rank.sort_values(ascending=False, kind="stable")
    if len(rank) <= (g.top or 0):
        return out, rows, len(rank)
    top = rank.index[: g.top]
    kept = out[first].isin(top).to_numpy()
    if top.isna().any():
        kept = kept | out[first].isna().to_numpy()  # (not in place: pandas' may be read-only)
    kept_rows = [tuple(np.asarray(r)[kept].tolist()) for r in rows]
    return out[kept], kept_rows, len(rank)
