"""The query backend: an engine's frame (DuckDB, polars lazy or eager, pyarrow, Ibis, Spark),
answered by queries where it lives, through narwhals' expressions.

Every query names columns by position (``chartkit.backends._native``), so no column name of a
tool's reaches an engine as text, and no helper column meets a data column. Only counts, the
groups of a reduction, a bounded sample or page, and the check's first offenders leave the
engine.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

import numpy as np
import pandas as pd

from chartkit._safe import cap_names, visible
from chartkit.backends._contract import (
    MAX_PAGE,
    MAX_SAMPLE,
    AnyOf,
    ColumnFacts,
    Condition,
    Grouping,
    Groups,
    Term,
    bounded,
    check_names,
    cut_to_top,
    terms_columns,
)
from chartkit.backends._contract import (
    own_keys as _own_keys,
)
from chartkit.backends._native import (
    aliases,
    bucket_starts,
    collect,
    named,
    positional,
)
from chartkit.check.judge import ColumnViolation, check_columns
from chartkit.columns import ColumnDeclaration, normalize_result_columns
from chartkit.errors import ChartkitError
from chartkit.plan.choose import SETTLING
from chartkit.plan.encode import ASCII_NUMBER_TEXT, ColumnProfile, vegalite_type
from chartkit.plan.facts import NO_NUMBERS, NumberFacts
from chartkit.plan.roles import (
    KEY_VALUES,
)
from chartkit.read.dialects import Dialect
from chartkit.read.engines import EngineReading, head

__all__ = ["QueryBackend"]

_UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": 86400}
_VL_OF_VALUE = {"number": "quantitative", "date": "temporal"}


class QueryBackend:
    """An engine frame's rows, answered by queries in the engine (see ``chartkit.backends``)."""

    def __init__(self, reading: EngineReading) -> None:
        if not isinstance(reading, EngineReading):
            raise TypeError(f"QueryBackend holds an EngineReading, got {type(reading).__name__}")
        self.reading = reading
        self.engine = reading.engine
        self.rows = reading.total
        self.columns = reading.columns
        self._schema = dict(reading.schema)
        # facts asked once per reading: every backend, and the check, of one view() share them
        self._counted: dict[str, ColumnFacts] = reading.counted
        self._asked: dict[tuple[str, str, str], Any] = {}  # coverage, positions, pairs asked

    def __repr__(self) -> str:
        return (
            f"QueryBackend(engine={self.engine!r}, rows={self.rows}, columns={len(self.columns)})"
        )

    # -- facts ----------------------------------------------------------------------------

    def facts(
        self,
        names: Sequence[str],
        *,
        distinct: Sequence[str] | None = None,
        where: Sequence[Term] = (),
        numbers: Sequence[str] = (),
    ) -> dict[str, ColumnFacts]:
        """The facts of ``names``, counted in one query (remembered: asked again, free); of
        the rows ``where`` selects, counted afresh, when it holds terms. ``numbers``: columns
        whose ``NumberFacts`` (``numbers``) are counted in the same query, for every row
        (the profiling pass asks the roles' question with its own)."""

        check_names(names, self.columns)
        counted = set(names if distinct is None else distinct)
        if where:
            return _facts(self, list(dict.fromkeys(names)), counted, where)[0]
        wanted = [
            n
            for n in dict.fromkeys(names)
            if n not in self._counted or (n in counted and self._counted[n].distinct is None)
        ]
        check_names(numbers, self.columns)
        also = [
            n
            for n in dict.fromkeys(numbers)
            if ("numbers", n, "") not in self._asked and self._schema[n].is_numeric()
        ]
        if wanted or also:
            exact = self.rows <= KEY_VALUES
            got, told = _profile(self, wanted, counted, also, exact=exact)
            self._counted.update(got)
            for n in also:
                self._asked[("numbers", n, "")] = told[n]
        return {n: self._counted[n] for n in dict.fromkeys(names)}

    def remembered(self) -> Mapping[str, ColumnFacts]:
        """The facts this backend has counted so far (asking them again costs no query)."""
        return dict(self._counted)

    def coverage(self, time: str, by: str) -> tuple[int, int]:
        """``(fewest, times)``, counted in the engine (``_coverage``)."""
        check_names([time, by], self.columns)
        got: tuple[int, int] = self._once(
            ("coverage", time, by), lambda: _coverage(self.reading, time, by)
        )
        return got

    def positions(self, x: str, by: str) -> tuple[list[int], int]:
        """``(per_group, distinct)``, counted in the engine (``_positions``)."""
        check_names([x, by], self.columns)
        floats = self._schema[x].is_float()
        got: tuple[list[int], int] = self._once(
            ("positions", x, by), lambda: _positions(self.reading, floats, x, by)
        )
        return got

    def unique_pairs(self, a: str, b: str) -> bool:
        """Whether no two rows hold the same pair of values, counted in the engine."""
        check_names([a, b], self.columns)
        got: bool = self._once(("pairs", a, b), lambda: _unique_pairs(self.reading, a, b))
        return got

    def numbers(self, names: Sequence[str]) -> Mapping[str, NumberFacts]:
        """``NumberFacts`` of each named number column the engine holds as numbers, counted in
        the engine in one query (``_numbers``); a column it holds as another type (text, JSON
        values judged one by one as they leave it) is left out of the answer: not counted."""
        wanted = [n for n in dict.fromkeys(names) if ("numbers", n, "") not in self._asked]
        check_names(wanted, self.columns)
        numeric = [n for n in wanted if self._schema[n].is_numeric()]
        exact = self.rows <= KEY_VALUES
        got = _numbers(self.reading, numeric, self._schema, distinct=exact) if numeric else {}
        if not exact and got:
            got = _settled(self.reading, got, self._schema)
        for n in wanted:
            self._asked[("numbers", n, "")] = got.get(n)
        return {
            n: facts for n in dict.fromkeys(names)
            if (facts := self._asked[("numbers", n, "")]) is not None
        }  # fmt: skip

    def unique_key(self, names: Sequence[str]) -> bool:
        """Whether no two rows share the values of all ``names``: the largest group of one
        ``GROUP BY`` of them, counted in the engine."""
        keys = list(dict.fromkeys(names))
        check_names(keys, self.columns)
        known = self._known_key(keys)
        if known is not None:
            return known
        got: bool = self._once(
            ("key", "\x00".join(keys), ""), lambda: _unique_key(self.reading, keys)
        )
        return got

    def _known_key(self, keys: Sequence[str]) -> bool | None:
        """Whether one column keys the rows, from what the profiling pass counted (its
        distinct values, or an integer column's ``NumberFacts``): every value once, and at
        most one row missing one. None when not counted (a float's NaN and null are one key,
        which the facts do not tell apart: the ``GROUP BY`` asks it)."""
        if len(keys) != 1 or self._schema[keys[0]].is_float():
            return None
        name = keys[0]
        f = self._counted.get(name)
        if f is not None and f.distinct is not None:
            return f.distinct == f.values and f.rows - f.values <= 1
        n = self._asked.get(("numbers", name, ""))
        if isinstance(n, NumberFacts) and self._schema[name].is_integer():
            return n.distinct == n.values and self.rows - n.values <= 1
        return None

    def all_quoted(self, name: str) -> bool:
        """Whether every row of a text column holds a number in quotes, matched in the engine
        (``_all_quoted``)."""
        from chartkit.check.verdicts import dtype_value_type as value_type

        check_names([name], self.columns)
        if value_type(self._schema[name]) != "string":
            return False
        got: bool = self._once(("quoted", name, ""), lambda: _all_quoted(self.reading, name))
        return got

    def _once(self, asked: tuple[str, str, str], count: Callable[[], Any]) -> Any:
        """A fact this backend counted already, else ``count()``'s, remembered (each asked of
        the engine once however many times a plan reads it)."""
        if asked not in self._asked:
            self._asked[asked] = count()
        return self._asked[asked]

    def profiles(
        self,
        declaration: Mapping[str, ColumnDeclaration] | None,
        violations: tuple[ColumnViolation, ...],
    ) -> dict[str, ColumnProfile]:
        """A profile per declared column, in the declaration's order, then per undeclared
        column of the engine (as ``profile_columns`` orders them): the declared type, or the
        one the engine's type says for a column the declaration leaves out; categories'
        distinct values counted — of a declared category the check flagged, among the cells
        of its type only (the chart leaves its offenders out: a CSV's typed reading holds
        them as nulls, a text column as text)."""
        from chartkit.check.verdicts import dtype_value_type as value_type

        declared = dict(declaration or {})
        broken = {v.column: v for v in violations}
        kinds: dict[str, tuple[Any, Any]] = {}
        for name in self.columns:
            decl = declared.get(name)
            if decl is not None:
                kinds[name] = (vegalite_type(decl.type), "declared")
            else:
                kind = value_type(self._schema[name]) or "string"
                kinds[name] = (_VL_OF_VALUE.get(kind, "nominal"), "inferred")
        # a column of a type no check reads (a struct, a list) is no category to count
        nominal = [
            n
            for n in self.columns
            if kinds[n][0] == "nominal"
            and (n in declared or value_type(self._schema[n]) in ("string", "boolean"))
        ]
        counted = self.facts(nominal) if nominal else {}
        out: dict[str, ColumnProfile] = {}
        for name in [*declared, *(n for n in self.columns if n not in declared)]:
            if name not in kinds:  # declared, and the engine lacks it
                decl = declared[name]
                out[name] = ColumnProfile(
                    name, vegalite_type(decl.type), "declared", decl, broken.get(name), False, 0,
                    self.rows,
                )  # fmt: skip
                continue
            vl, source = kinds[name]
            distinct = (counted[name].distinct or 0) if name in counted else 0
            decl, flagged = declared.get(name), broken.get(name)
            if name in counted and decl is not None and flagged is not None and flagged.affected:
                valid = [Condition(name, "valid", decl)]
                distinct = self.facts([name], distinct=[name], where=valid)[name].distinct or 0
            out[name] = ColumnProfile(
                name, vl, source, declared.get(name), broken.get(name), True, distinct, self.rows
            )
        return out

    # -- reduce ---------------------------------------------------------------------------

    def reduce(
        self, grouping: Grouping, declaration: Mapping[str, ColumnDeclaration] | None = None
    ) -> Groups:
        return _reduce(self, grouping, declaration)[0]

    def reduce_spanned(self, grouping: Grouping) -> tuple[Groups, Any, Any]:
        """``reduce``, and the least and greatest value of its first key (a date) over the rows
        the groups hold, in the same query: a line's span, read from its own groups."""
        return _reduce(self, grouping, None, spans=True)

    # -- rows -----------------------------------------------------------------------------

    def sample(self, n: int) -> pd.DataFrame:
        out: pd.DataFrame = head(self.reading, bounded(n, MAX_SAMPLE, "n"))
        return out

    def offenders(self, declaration: Mapping[str, Any]) -> tuple[ColumnViolation, ...]:
        return check_columns(self.reading, declaration)  # counted by chartkit._frame_check

    def count(self, where: Sequence[Term]) -> int:
        return self.tally(where, {})["rows"]

    def tally(self, where: Sequence[Term], tests: Mapping[str, Sequence[Term]]) -> dict[str, int]:
        """The rows ``where`` selects (``"rows"``), and among them the rows each list of
        ``tests`` selects, by its key (a key of its own: ``"rows"`` is refused) — one query."""
        import narwhals as nw

        _own_keys(tests)
        names = terms_columns([*where, *(t for ts in tests.values() for t in ts)])
        terms = _Terms(self)
        exprs: list[Any] = [nw.len().alias("n")]
        for i, ts in enumerate(tests.values()):
            exprs.append(terms.exact(list(ts)).cast(nw.Int64).sum().alias(f"t{i}"))
        got = collect(self.reading, names, "count", self._where(where).select(*exprs)).iloc[0]
        out = {"rows": int(got["n"] or 0)}
        for i, key in enumerate(tests):
            out[key] = int(got[f"t{i}"] or 0)
        return out

    def page(self, where: Sequence[Term], offset: int = 0, limit: int = 100) -> pd.DataFrame:
        """At most ``limit`` rows ``where`` selects, from the ``offset``-th: the filter and the
        limit go to the engine together, so it stops reading once the page is full."""
        start = bounded(offset, self.rows, "offset")
        size = bounded(limit, MAX_PAGE, "limit")
        query = self._where(where).head(start + size)
        out = collect(self.reading, terms_columns(where), "page", query)
        return out.iloc[start:].reset_index(drop=True)

    def selected(self, where: Sequence[Term]) -> Any:
        """The rows ``where`` selects as a frame of the same engine, under the columns' own
        names (lazy where the engine is: nothing is read until it is asked), for a View of
        those rows alone: a brushed range charted again."""
        return named(self.reading, self._where(where))

    def keeps(self, where: Sequence[Term], *, anchor: str | None = None) -> Any:
        """The rows ``where`` selects, as one narwhals filter expression over the frame's
        columns named by position (``chartkit.backends._native.positional``); None for no
        term. ``anchor``: a column the filtered frame holds (a term of no condition is a test
        of it); the frame's first column by default."""
        check_names(terms_columns(where), self.columns)
        return _Terms(self, anchor).loose(list(where)) if where else None

    def _where(self, where: Sequence[Term]) -> Any:
        frame = positional(self.reading)
        keep = self.keeps(where)
        return frame if keep is None else frame.filter(keep)


class _Terms:
    """``Condition`` / ``AnyOf`` terms as narwhals expressions over the positional frame.

    ``loose``: an expression a filter reads (a null drops its row, as false would), with the
    column's own tests left as they are where no negation reaches them, so the engine may
    prune by its statistics; ``exact``: a boolean that is never null, for counting. A negation
    is pushed down to each condition (De Morgan), which is then made exact before it is
    negated: the complement of a test includes the rows whose value is missing.
    """

    def __init__(self, backend: QueryBackend, anchor: str | None = None) -> None:
        import narwhals as nw

        self.alias = aliases(backend.reading)
        self.schema = backend._schema
        self.engine = backend.engine
        # a constant as a column's own expression (a filter takes no bare literal): of
        # ``anchor``, a column the filtered frame holds, else the first
        at = self.alias[anchor] if anchor is not None else next(iter(self.alias.values()))
        first = nw.col(at)
        self.true = first.is_null() | ~first.is_null()
        self.false = first.is_null() & ~first.is_null()

    def loose(self, where: list[Term]) -> Any:
        return self._join([self._term(t, False, exact=False) for t in where], both=True)

    def exact(self, where: list[Term]) -> Any:
        return self._join([self._term(t, False, exact=True) for t in where], both=True)

    def _join(self, exprs: list[Any], *, both: bool) -> Any:
        """``and`` (``both``) or ``or`` of ``exprs``; of none, true or false."""
        if not exprs:
            return self.true if both else self.false
        out = exprs[0]
        for e in exprs[1:]:
            out = out & e if both else out | e
        return out

    def _term(self, t: Term, flip: bool, *, exact: bool) -> Any:
        """``t`` (``flip``: its negation), the negation pushed down to each condition."""
        negate = t.negate != flip
        if isinstance(t, AnyOf):  # any(ts); negated, all(not t) for t in ts
            parts = [self._term(u, negate, exact=exact) for u in t.terms]
            return self._join(parts, both=negate)
        if not negate:
            return self._condition(t).fill_null(False) if exact else self._condition(t)
        return ~self._condition(t).fill_null(False)

    def _condition(self, c: Condition) -> Any:
        import narwhals as nw

        name = self.alias[c.column]
        dtype = self.schema[c.column]
        col = nw.col(name)
        never = col.is_null() & ~col.is_null()  # (of the column's own: a frame may hold no other)
        numeric = dtype.is_numeric() and not _is_bool(dtype)
        if c.op == "null":
            return _missing_expr(name, dtype)
        if c.op == "valid":
            return ~_offends(c.column, dtype, c.value, col, name)
        if c.op in ("finite", "infinite"):
            if not numeric:
                return never
            if not dtype.is_float():
                return ~col.is_null() if c.op == "finite" else never
            finite = col.is_finite()
            if c.op == "finite":
                return finite
            return ~finite & ~col.is_nan()
        values = list(c.value) if c.op == "in" else [c.value]
        x = self._comparable(col, dtype, values)
        if x is None:  # values of another kind than the column's: no row meets them
            return never
        x, values = x
        if c.op == "in":
            hit = x.is_in(values) if values else never
        else:
            v = values[0]
            hit = {"eq": lambda: x == v, "ge": lambda: x >= v, "gt": lambda: x > v,
                   "lt": lambda: x < v, "le": lambda: x <= v}[c.op]()  # fmt: skip
        if dtype.is_float():  # DuckDB and Spark order NaN above every number: it is no value
            hit = hit & ~col.is_nan()
        return hit

    def _comparable(self, col: Any, dtype: Any, values: list[Any]) -> tuple[Any, list[Any]] | None:
        """The column and the values as the engine compares them, or None when no value is
        of the column's kind (text with text, booleans with booleans, numbers as floats,
        dates in the chart's zone)."""
        import narwhals as nw

        wanted: list[Any]
        if dtype.is_temporal() and not isinstance(dtype, nw.Duration):
            wanted = [v for v in values if isinstance(v, dt.datetime | dt.date)]
            if not wanted:
                return None
            zone = getattr(dtype, "time_zone", None)
            x = col.cast(nw.Datetime("us")) if dtype == nw.Date else col
            return x, [_moment(v, zone) for v in wanted]
        if _is_bool(dtype):
            wanted = [v for v in values if isinstance(v, bool | np.bool_)]
            return (col, [bool(v) for v in wanted]) if wanted else None
        if dtype.is_numeric():
            wanted = [
                float(v) for v in values
                if isinstance(v, int | float | np.number) and not isinstance(v, bool | np.bool_)
            ]  # fmt: skip
            if not wanted:
                return None
            return (col if dtype.is_float() else col.cast(nw.Float64)), wanted
        if dtype == nw.String:
            wanted = [v for v in values if isinstance(v, str)]
            return (col, wanted) if wanted else None
        return col, values


def _moment(value: dt.date, zone: str | None) -> Any:
    """A condition's naive date as a column compares it: the instant, in a zoned column's
    zone (the value is UTC); as written for a naive column."""
    import narwhals as nw

    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    if zone:
        from zoneinfo import ZoneInfo

        return nw.lit(value.replace(tzinfo=dt.UTC).astimezone(ZoneInfo(zone)),
                      nw.Datetime("us", zone))  # fmt: skip
    return nw.lit(value, nw.Datetime("us"))


def _offends(column: str, dtype: Any, decl: Any, col: Any, name: str) -> Any:
    """The check's verdict on each cell, from the column's dtype (``chartkit.check.verdicts``)."""
    import narwhals as nw

    from chartkit.check.verdicts import OK, string_verdict, verdict
    from chartkit.check.verdicts import dtype_value_type as value_type

    missing = _missing_expr(name, dtype)
    type_name = value_type(dtype)
    settled = (
        string_verdict(decl.type) if type_name == "string"
        else verdict(decl.type, type_name) if type_name is not None
        else None
    )  # fmt: skip
    if settled is None:
        raise ChartkitError(
            f"{column!r} is declared {decl.type} and its {dtype} cells are judged value by "
            "value; the rows behind a mark of it are not read in the engine yet"
        )
    # a column's own expression even where the verdict is constant: an engine sums it
    if settled == OK:
        return missing & nw.lit(False) if decl.nullable else missing
    return ~missing if decl.nullable else missing | nw.lit(True)


def _missing_expr(name: str, dtype: Any) -> Any:
    """A row holds no value: null, or NaN in a float column."""
    import narwhals as nw

    col = nw.col(name)
    if dtype.is_float():
        return col.is_null() | col.is_nan().fill_null(False)
    return col.is_null()


def aggregated(col: Any, how: str) -> Any:
    """``how`` (sum, mean, median, min or max) of the narwhals expression ``col``."""
    return {"sum": col.sum, "mean": col.mean, "median": col.median, "min": col.min,
            "max": col.max}[how]()  # fmt: skip


def _sort_key(values: pd.Series) -> Any:
    """A key's sort order as integers: values ascending, missing last (groupby's order)."""
    codes, _ = pd.factorize(values, sort=True, use_na_sentinel=True)
    return np.where(codes < 0, np.iinfo(np.int64).max, codes)


def _ordered(dtype: Any) -> bool:
    return bool(dtype.is_temporal() or (dtype.is_numeric() and not _is_bool(dtype)))


def _is_bool(dtype: Any) -> bool:
    import narwhals as nw

    return bool(dtype == nw.Boolean)


def _missing(value: Any) -> bool:
    return value is None or value is pd.NaT or (isinstance(value, float) and np.isnan(value))


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _positions(reading: EngineReading, floats: bool, x: str, by: str) -> tuple[list[int], int]:
    """Among the rows holding both an x (not NaN, for ``floats``) and a group, each group's
    distinct x values, smallest first, and x's: one ``GROUP BY`` of the distinct pairs and
    one ``COUNT(DISTINCT x)``, as ``chartkit.plan.facts.positions`` counts them in memory."""
    import narwhals as nw

    alias = aliases(reading)
    a, b = alias[x], alias[by]
    held = positional(reading).select(a, b).filter(~nw.col(a).is_null() & ~nw.col(b).is_null())
    if floats:
        held = held.filter(~nw.col(a).is_nan())
    per_group = collect(
        reading, [x, by], "positions",
        held.unique().group_by(b).agg(nw.len().alias("n")).select("n"), named=False,
    )  # fmt: skip
    distinct = collect(reading, [x], "positions", held.select(nw.col(a).n_unique()), named=False)
    counts = sorted(int(n) for n in per_group.to_numpy().ravel())
    n = int(distinct.to_numpy().ravel()[0] or 0) if counts else 0
    return counts, n


def _all_quoted(reading: EngineReading, name: str) -> bool:
    """Whether every row of the text column ``name`` holds a number in quotes (``"1240"``),
    matched in the engine by ``ASCII_NUMBER_TEXT`` (ASCII digits and spaces; memory's pattern
    also takes other scripts' digits)."""
    import narwhals as nw

    col = nw.col(aliases(reading)[name])
    quoted = (~col.is_null()) & col.str.contains(ASCII_NUMBER_TEXT)
    got = collect(
        reading, [name], "numbers in quotes",
        positional(reading).select((~quoted).cast(nw.Int64).sum().alias("n")),
    ).iloc[0]  # fmt: skip
    return int(got["n"] or 0) == 0


def _unique_key(reading: EngineReading, names: Sequence[str]) -> bool:
    """Whether no two rows hold the same values of ``names``: the largest group of one
    ``GROUP BY`` of them (a missing value a key of its own), as
    ``chartkit.plan.facts.unique_key`` tells it in memory."""
    import narwhals as nw

    if not names:
        return True
    alias = aliases(reading)
    schema = dict(reading.schema)
    keys = list(dict.fromkeys(alias[n] for n in names))
    real = {alias[n]: n for n in names}
    # a NaN is a missing value, one with null (as a pandas key holds both)
    held = [
        nw.when(~nw.col(k).is_nan()).then(nw.col(k)).alias(k)
        if schema[real[k]].is_float() else nw.col(k)
        for k in keys
    ]  # fmt: skip
    largest = collect(
        reading, list(names), "unique key",
        positional(reading).select(*held).group_by(*keys, drop_null_keys=False)
        .agg(nw.len().alias("n")).select(nw.col("n").max()),
        named=False,
    )  # fmt: skip
    top = largest.to_numpy().ravel()
    return not len(top) or bool(pd.isna(top[0])) or int(top[0]) <= 1


def _numbers(
    reading: EngineReading,
    names: Sequence[str],
    schema: Mapping[str, Any],
    *,
    distinct: bool = True,
    rows: int | None = None,
) -> dict[str, NumberFacts]:
    """``NumberFacts`` of number columns in one query (``_number_exprs``), of the first
    ``rows`` rows only when given."""
    alias = aliases(reading)
    exprs = _number_exprs(alias, names, schema, distinct=distinct)
    frame = positional(reading)
    if rows is not None:
        frame = frame.head(rows)
    got = collect(reading, list(names), "number facts", frame.select(*exprs), named=False).iloc[0]
    return _number_facts(got, names)


def _profile(
    backend: QueryBackend,
    wanted: list[str],
    counted: set[str],
    numbers: Sequence[str],
    *,
    exact: bool,
) -> tuple[dict[str, ColumnFacts], dict[str, NumberFacts]]:
    """``QueryBackend.facts`` over every row (``_facts``), past a table of few rows (not
    ``exact``) with the probe of the first rows asked first (``_probe``): a number holding a
    value that is not whole there is not whole anywhere, so the pass need not test the rest,
    and the first rows' distinct values settle most numbers' (``_settled``)."""
    reading, schema = backend.reading, backend._schema
    seen = {} if exact else _probe(reading, numbers, schema)
    unwhole = {n for n, f in seen.items() if f.values and not f.whole}
    got, told = _facts(backend, wanted, counted, (), numbers, distinct=exact, unwhole=unwhole)
    if not exact and told:
        told = _settled(reading, told, schema, seen)
    return got, told


def _settled(
    reading: EngineReading,
    told: Mapping[str, NumberFacts],
    schema: Mapping[str, Any],
    seen: Mapping[str, NumberFacts] | None = None,
) -> dict[str, NumberFacts]:
    """``told`` (counted with no distinct values) with each column's distinct values: the
    count among its first ``SETTLING.probe_rows`` rows (``seen``, else counted here) where that
    lower bound decides as the exact count would (``chartkit.plan.choose.SETTLING``), else the
    exact count, asked in one more query for every such column (a few levels, a whole number
    whose first rows repeat no value and could be a sequence or an id: rare)."""
    names = [n for n, f in told.items() if f.values]
    if seen is None:
        seen = _numbers(reading, names, schema, rows=SETTLING.probe_rows) if names else {}
    exact = [n for n in names if not SETTLING.decides(told[n], seen[n])]
    counted = _numbers(reading, exact, schema) if exact else {}
    out = {}
    for n, f in told.items():
        d = counted[n].distinct if n in counted else seen[n].distinct if n in seen else 0
        out[n] = replace(f, distinct=d)
    return out


def _probe(
    reading: EngineReading,
    numbers: Sequence[str],
    schema: Mapping[str, Any],
) -> dict[str, NumberFacts]:
    """One query over the first ``SETTLING.probe_rows`` rows: the ``NumberFacts`` of
    ``numbers`` there (``_settled`` reads their distinct values)."""
    import narwhals as nw

    if not numbers:
        return {}
    alias = aliases(reading)
    # (each finite value computed once per row, as the pass computes it)
    at = {n: f"__f{i}" for i, n in enumerate(numbers) if not schema[n].is_integer()}
    exprs = _number_exprs(alias, numbers, schema, held=at)
    frame = positional(reading).head(SETTLING.probe_rows)
    if at:
        frame = frame.with_columns(*(_finite(nw.col(alias[n])).alias(h) for n, h in at.items()))
    got = collect(reading, list(numbers), "probe", frame.select(*exprs), named=False).iloc[0]
    return _number_facts(got, numbers)


def _number_exprs(
    alias: Mapping[str, str],
    names: Sequence[str],
    schema: Mapping[str, Any],
    *,
    distinct: bool = True,
    held: Mapping[str, str] | None = None,
    plain: bool = False,
    unwhole: Collection[str] = (),
) -> list[Any]:
    """The aggregates of ``NumberFacts`` of number columns: their finite values counted, their
    distinct values (unless not ``distinct``: ``_settled`` counts them), span, whether all are
    whole and none negative (as ``chartkit.plan.facts.number_facts`` tells them in memory: an
    integer column's values exactly, a float or decimal column's as floats), keyed
    ``N<what><i>``. ``held``: the helper column holding a column's ``_finite`` value, computed
    once per row instead of once per aggregate. ``plain``: every value taken as finite (the
    caller checks the span: ``_facts``), so no value is tested for it, and a decimal's span
    is its own, cast once. ``unwhole``: columns known to hold a value that is not whole (none
    is tested again)."""
    import narwhals as nw

    exprs: list[Any] = []
    for i, name in enumerate(names):
        col = nw.col(alias[name])
        finite: Any = col
        whole: Any = nw.lit(True)
        lo, hi = col.min(), col.max()
        if plain and not schema[name].is_integer():
            # (a cast to a float keeps the order: the bounds cast are the cast values' bounds)
            finite = col if schema[name].is_float() else col.cast(nw.Float64)
            whole = (finite.floor() == finite).min()
            if not schema[name].is_float():
                lo, hi = lo.cast(nw.Float64), hi.cast(nw.Float64)
        elif not schema[name].is_integer():  # a float, or a decimal counted as floats
            finite = nw.col(held[name]) if held and name in held else _finite(col)
            whole = (finite.floor() == finite).fill_null(True).min()
            lo, hi = finite.min(), finite.max()
        exprs.append((col if plain else finite).count().alias(f"Nv{i}"))
        if distinct:
            unique = finite + 0.0 if plain and schema[name].is_float() else finite
            exprs += [
                unique.n_unique().alias(f"Nd{i}"),
                finite.is_null().any().cast(nw.Int64).alias(f"Nm{i}"),
            ]
        exprs += [lo.alias(f"Nlo{i}"), hi.alias(f"Nhi{i}")]
        if name not in unwhole:
            exprs.append(whole.alias(f"Nw{i}"))
    return exprs


def _finite(col: Any) -> Any:
    """A float or decimal column's finite values as floats (-0.0 as 0.0), else null."""
    import narwhals as nw

    as_float = col.cast(nw.Float64)
    return nw.when(as_float.is_finite().fill_null(False)).then(as_float + 0.0)


def _number_facts(got: Any, names: Sequence[str]) -> dict[str, NumberFacts]:
    """``NumberFacts`` of ``names`` from one answer row of ``_number_exprs``."""
    out: dict[str, NumberFacts] = {}
    for i, name in enumerate(names):
        values = _tally(got[f"Nv{i}"])
        if not values:
            out[name] = NO_NUMBERS
            continue
        lo, hi = float(got[f"Nlo{i}"]) + 0.0, float(got[f"Nhi{i}"]) + 0.0  # (-0.0 is 0.0)
        out[name] = NumberFacts(
            values=values,
            distinct=_tally(got[f"Nd{i}"]) - _tally(got[f"Nm{i}"]) if f"Nd{i}" in got else 0,
            low=lo,
            high=hi,
            whole=f"Nw{i}" in got and bool(got[f"Nw{i}"]),  # (asked unless known not)
            nonnegative=lo >= 0,
        )
    return out


def _unique_pairs(reading: EngineReading, a: str, b: str) -> bool:
    """Whether no two rows hold the same pair of values of ``a`` and ``b``: the largest group
    of one ``GROUP BY a, b`` (a missing value a key of its own), as
    ``chartkit.plan.facts.unique_pairs`` tells it in memory."""
    import narwhals as nw

    alias = aliases(reading)
    keys = list(dict.fromkeys([alias[a], alias[b]]))
    largest = collect(
        reading, [a, b], "unique pairs",
        positional(reading).select(*keys).group_by(*keys, drop_null_keys=False)
        .agg(nw.len().alias("n")).select(nw.col("n").max()),
        named=False,
    )  # fmt: skip
    top = largest.to_numpy().ravel()
    return not len(top) or bool(pd.isna(top[0])) or int(top[0]) <= 1


def _coverage(reading: EngineReading, time: str, by: str) -> tuple[int, int]:
    """``(fewest, times)``: the distinct ``time`` values among the rows holding one, and how
    many of them the value of ``by`` (a missing one too) found at the fewest holds — a
    ``GROUP BY`` of the distinct (time, value) pairs, as ``chartkit.plan.facts.coverage``
    counts them in memory."""
    import narwhals as nw

    alias = aliases(reading)
    t, b = alias[time], alias[by]
    held = positional(reading).select(t, b).filter(~nw.col(t).is_null())
    per_value = held.unique().group_by(b, drop_null_keys=False).agg(nw.len().alias("n"))
    fewest = collect(
        reading, [time, by], "coverage", per_value.select(nw.col("n").min()), named=False
    )
    times = collect(reading, [time], "coverage", held.select(nw.col(t).n_unique()), named=False)
    n = int(times.to_numpy().ravel()[0] or 0)
    return (int(fewest.to_numpy().ravel()[0]) if n else 0), n


def _covers(f: ColumnFacts | None, edges: tuple[float, ...]) -> bool:
    """Whether the facts of every row put each value of the column inside ``edges``."""
    if f is None:
        return False
    if f.values == 0:
        return True
    try:
        return bool(edges[0] <= float(f.lo) and float(f.hi) <= edges[-1])
    except (TypeError, ValueError):  # (no span, or not numbers)
        return False


def _tally(value: Any) -> int:
    """A count an engine answered: 0 for its missing one (DuckDB's and Ibis' ``any`` over no
    row is null, and a NaN in the difference it makes)."""
    return 0 if _missing(value) else int(value)


def _placed_by(where: Sequence[Term], name: str, *, floats: bool) -> bool:
    """Whether every row ``where`` keeps holds a value of ``name`` to place: one of its own
    terms (not under an ``AnyOf``) is ``finite``, or (not for floats: an infinite one has no
    place) a negated ``null``."""
    return any(
        isinstance(t, Condition) and t.column == name
        and ((t.op == "finite" and not t.negate) or (t.op == "null" and t.negate and not floats))
        for t in where
    )  # fmt: skip


def _facts(
    backend: QueryBackend,
    wanted: list[str],
    counted: set[str],
    where: Sequence[Term],
    numbers: Sequence[str] = (),
    *,
    distinct: bool = True,
    unwhole: Collection[str] = (),
) -> tuple[dict[str, ColumnFacts], dict[str, NumberFacts]]:
    """``QueryBackend.facts`` of ``wanted`` (the distinct values of those in ``counted``), over
    the rows ``where`` selects, and the ``NumberFacts`` of ``numbers`` (over every row: with
    no ``where``), in one query. ``unwhole``: numbers known to hold a value that is not whole
    (the probe's first rows showed one).

    Where the engine orders NaN above every number (``Dialect.nan_last``), the query over
    every row reads each float's plain bounds and counts: a NaN shows as the greatest value,
    an infinity as a bound, so when every float's bounds are finite they are the facts with no
    value tested; only when one is not is the query asked again, testing each value (rare)."""
    if not where and backend.reading.dialect.nan_last:
        got = _facts_query(backend, wanted, counted, where, numbers, distinct=distinct,
                           unwhole=unwhole, plain=True)  # fmt: skip
        if got is not None:
            return got
    answer = _facts_query(backend, wanted, counted, where, numbers, distinct=distinct,
                          unwhole=unwhole)  # fmt: skip
    assert answer is not None
    return answer


def _facts_query(
    backend: QueryBackend,
    wanted: list[str],
    counted: set[str],
    where: Sequence[Term],
    numbers: Sequence[str],
    *,
    distinct: bool,
    unwhole: Collection[str] = (),
    plain: bool = False,
) -> tuple[dict[str, ColumnFacts], dict[str, NumberFacts]] | None:
    """``_facts``' one query; ``plain``: no value tested for NaN or finiteness, and None when
    a float's bounds show one that is not finite where the answer would read it."""
    import narwhals as nw

    schema = dict(backend.reading.schema)
    alias = aliases(backend.reading)
    exprs: list[Any] = [nw.len().alias("n")]
    for i, name in enumerate(wanted):
        dtype = schema[name]
        col = nw.col(alias[name])
        nan = dtype.is_float() and not plain
        value = nw.when(~col.is_nan()).then(col) if nan else col
        missing = col.is_null().any().cast(nw.Int64)
        # (-0.0 + 0.0 is 0.0: the two zeros are one value, as memory counts them)
        n_distinct = (col + 0.0 if dtype.is_float() else col).n_unique() - missing
        held = col.count()
        if nan:
            flagged = col.is_nan().fill_null(False)
            n_distinct = n_distinct - flagged.any().cast(nw.Int64)
            held = held - flagged.cast(nw.Int64).sum()
        exprs.append(held.alias(f"v{i}"))
        if name in counted:
            exprs.append(n_distinct.alias(f"d{i}"))
        if _ordered(dtype):
            exprs += [value.min().alias(f"lo{i}"), value.max().alias(f"hi{i}")]
    # (over every row, the values aggregated several times are computed once per row first)
    helpers: list[Any] = []
    at = {n: f"__f{i}" for i, n in enumerate(numbers) if not schema[n].is_integer()}
    if where:  # (numbers are asked of every row only)
        numbers, at = (), {}
    if plain:
        at = {}
    if numbers:
        helpers += [_finite(nw.col(alias[n])).alias(h) for n, h in at.items()]
        exprs += _number_exprs(alias, numbers, schema, distinct=distinct, held=at, plain=plain,
                               unwhole=unwhole)  # fmt: skip
    # plain: the bounds of each float read (to tell whether it holds a NaN or an infinity)
    guarded = [n for n in dict.fromkeys(numbers)
               if plain and schema[n].is_float() and n not in wanted]  # fmt: skip
    for i, name in enumerate(guarded):
        col = nw.col(alias[name])
        exprs += [col.count().alias(f"gv{i}"), col.min().alias(f"glo{i}"),
                  col.max().alias(f"ghi{i}")]  # fmt: skip
    names = list(dict.fromkeys([*wanted, *numbers, *terms_columns(where)]))
    frame = positional(backend.reading)
    if where:  # the columns read first, then the rows the terms keep
        keep = backend.keeps(where, anchor=names[0])
        frame = frame.select(*(alias[c] for c in names)).filter(keep)
    elif helpers:
        frame = frame.with_columns(*helpers)
    got = collect(backend.reading, names, "facts", frame.select(*exprs), named=False).iloc[0]
    if plain and not _all_finite(got, wanted, numbers, guarded, schema):
        return None
    rows = _tally(got["n"]) if where else backend.rows
    out = {}
    for i, name in enumerate(wanted):
        lo, hi = got.get(f"lo{i}"), got.get(f"hi{i}")
        out[name] = ColumnFacts(
            name, rows, _tally(got[f"v{i}"]), _tally(got[f"d{i}"]) if name in counted else None,
            None if _missing(lo) else _plain(lo), None if _missing(hi) else _plain(hi),
        )  # fmt: skip
    return out, _number_facts(got, numbers) if numbers else {}


def _all_finite(
    got: Any,
    wanted: Sequence[str],
    numbers: Sequence[str],
    guarded: Sequence[str],
    schema: Mapping[str, Any],
) -> bool:
    """Whether a plain ``_facts`` answer holds: no float ``wanted`` holds a NaN (its greatest
    value is none), and no float among ``numbers`` a NaN or an infinity."""
    strict = set(numbers)
    bounds = [  # (a float's bounds read only where it holds a value: else they are null)
        *((n, f"v{i}", f"lo{i}", f"hi{i}") for i, n in enumerate(wanted)),
        *((n, f"Nv{i}", f"Nlo{i}", f"Nhi{i}") for i, n in enumerate(numbers)),
        *((n, f"gv{i}", f"glo{i}", f"ghi{i}") for i, n in enumerate(guarded)),
    ]
    for name, values, low, high in bounds:
        if not schema[name].is_float() or not _tally(got[values]):
            continue
        lo, hi = float(got[low]), float(got[high])
        if np.isnan(hi) or (name in strict and not (np.isfinite(lo) and np.isfinite(hi))):
            return False
    return True


def _reduce(
    backend: QueryBackend,
    grouping: Grouping,
    declaration: Mapping[str, ColumnDeclaration] | None,
    *,
    spans: bool = False,
) -> tuple[Groups, Any, Any]:
    """``QueryBackend.reduce``: each row is flagged with why it is left out (the first column
    it offends, else no value to place, else a binned value outside its edges — none where the
    ``where`` terms already keep only rows placing a value), the groups aggregate only the
    rows kept, and only the groups holding one leave the engine; the flags' totals are a
    second, scalar query, run only when a row can be flagged. With one key and no flag, the
    top groups are cut in the engine. ``spans``: the least and greatest first key (a date, as
    it is before any bucket floors it) over the groups' rows, else two Nones."""
    import narwhals as nw

    from chartkit.check.verdicts import dtype_value_type as value_type

    g, reading = grouping, backend.reading
    schema = dict(reading.schema)
    used = list(dict.fromkeys([*g.keys, *g.measures]))
    check_names(used, reading.columns)
    if g.aggregate == "median" and not reading.dialect.exact_median and not g.counted:
        raise ChartkitError(
            "pyarrow computes no exact median (narwhals' is approximate); collect the frame "
            "first, or pick another aggregate"
        )
    declared = normalize_result_columns(declaration) if declaration else {}
    alias = aliases(reading)
    # the columns read first, then the rows the terms keep (an engine prunes the rest)
    read = list(dict.fromkeys([*used, *terms_columns(g.where)]))
    check_names(read, reading.columns)
    frame = positional(reading).select(*(alias[c] for c in read))
    keep = backend.keeps(g.where, anchor=read[0])
    if keep is not None:
        frame = frame.filter(keep)
    frame = frame.select(*(alias[c] for c in used))
    edges = g.edges
    for name in edges:
        if not schema[name].is_numeric() or _is_bool(schema[name]):
            raise ChartkitError(visible(cap_names(
                f"{name} is binned but {reading.engine} holds it as {schema[name]}, not numbers",
                [name],
            )))  # fmt: skip
    # why a row is left out, as exact booleans (never null), each counted once, in order: the
    # first column it offends (as in memory), then no value to place, then outside the bins
    flags: dict[str, Any] = {}
    offended: list[str] = []
    drop: Any = None
    for name in used:
        decl = declared.get(name)
        if decl is None:
            continue
        dtype = schema[name]
        if value_type(dtype) != decl.type:
            raise ChartkitError(
                f"{name} is declared {decl.type} but {reading.engine} holds it as {dtype}; "
                f"cast it in {reading.engine} to reduce it there"
            )
        if decl.nullable:
            continue
        bad = _missing_expr(alias[name], dtype)
        flags[f"__o{len(offended)}"] = bad if drop is None else bad & ~drop
        offended.append(name)
        drop = bad if drop is None else drop | bad
    empty: Any = None
    for name in [*g.dates, *edges, *(g.measures if len(g.measures) == 1 else ())]:
        if _placed_by(g.where, name, floats=schema[name].is_float()):
            continue  # (the where terms keep only rows holding a value there: none to flag)
        gap = _missing_expr(alias[name], schema[name])
        if schema[name].is_numeric() and schema[name].is_float():
            gap = gap | ~nw.col(alias[name]).is_finite().fill_null(False)
        empty = gap if empty is None else empty | gap
    if empty is not None:
        flags["__e"] = empty if drop is None else empty & ~drop
        drop = empty if drop is None else drop | empty
    off: Any = None  # a binned value outside its edges (none to look for where the facts
    known = backend.remembered()  # of every row already hold the column's span inside them)
    for name, at in edges.items():
        if _covers(known.get(name), at):
            continue
        col = nw.col(alias[name]).cast(nw.Float64)
        out_of = ((col < at[0]) | (col > at[-1])).fill_null(False)
        off = out_of if off is None else off | out_of
    if off is not None:
        flags["__x"] = off if drop is None else off & ~drop
        drop = off if drop is None else drop | off
    kept = ~drop if drop is not None else None
    # the flags, and the values grouped masked where the row is left out (a masked measure is
    # not aggregated; a masked bin or bucket key is a group of no kept row, dropped below)
    masked = {}
    for i, name in enumerate(used):
        col = nw.col(alias[name])
        if name in g.measures and len(g.measures) > 1 and schema[name].is_float():
            # one of several: a NaN or infinite value is not drawn, not counted
            ok = col.is_finite().fill_null(False)
            masked[name] = nw.when(ok if kept is None else kept & ok).then(col)
        elif kept is not None and (name in g.measures or name in edges):
            masked[name] = nw.when(kept).then(col)
        else:
            continue
        masked[name] = masked[name].alias(f"__v{i}")
    helpers = [*(f.cast(nw.Int64).alias(n) for n, f in flags.items()),
               *masked.values()]  # fmt: skip
    if kept is not None:
        helpers.append(kept.cast(nw.Int64).alias("__kept"))
    if helpers:  # (set apart before grouping: narwhals' pyarrow groups only plain columns)
        frame = frame.with_columns(*helpers)
    value = {n: (f"__v{used.index(n)}" if n in masked else alias[n]) for n in used}
    keys = [value[k] if k in edges else alias[k] for k in g.keys]
    for i, k in enumerate(g.keys):
        if k in edges:  # (helpers beside columns named by position: never a data name)
            frame = frame.with_columns(bin_of(value[k], edges[k]).alias(f"__bin{i}"))
            keys[i] = f"__bin{i}"
    floats = [alias[k] for k in g.keys if k not in edges and schema[k].is_float()]
    if floats:  # a NaN key and a missing one are one group, and so are the two zeros (-0.0 +
        # 0.0 is 0.0), as memory groups them
        frame = frame.with_columns(
            *(nw.when(~nw.col(f).is_nan().fill_null(False)).then(nw.col(f) + 0.0).alias(f)
              for f in floats)
        )  # fmt: skip
    days = [alias[k] for k in g.dates if schema[k] == nw.Date]
    if days:  # a date is a time at midnight, as memory reads it (and a unit floors it)
        frame = frame.with_columns(*(nw.col(d).cast(nw.Datetime("us")) for d in days))
    step = g.bucket_seconds or _UNIT_SECONDS.get(g.time_unit or "")
    if step or g.time_unit:
        fx = alias[g.keys[0]]
        aware = getattr(schema[g.keys[0]], "time_zone", None) is not None
        if step:
            frame = reading.dialect.with_bucket(frame, fx, aware, step, "__bucket")
        else:  # a calendar unit
            assert g.time_unit is not None
            frame = floored(frame, fx, g.time_unit, reading.dialect, aware, "__bucket")
        keys[0] = "__bucket"
    aggs: list[Any] = [nw.col(n).sum().alias(n) for n in flags]
    if spans:  # (a row left out keeps no time: masked)
        time = nw.col(alias[g.keys[0]])
        time = time if kept is None else nw.when(kept).then(time)
        aggs += [time.min().alias("__lo"), time.max().alias("__hi")]
    aggs.append((nw.col("__kept").sum() if kept is not None else nw.len()).alias("__kept"))
    # the rows counted, or one measure every row the terms keep holds: each group's tally is
    # its rows kept (no count of its own)
    each = g.counted or (
        len(g.measures) == 1
        and _placed_by(g.where, g.measures[0], floats=schema[g.measures[0]].is_float())
    )
    for i, m in enumerate(g.measures if not g.counted else ()):
        col = nw.col(value[m])
        aggs.append(aggregated(col, g.aggregate).alias(alias[m]))
        if not each:
            aggs.append(col.count().alias(f"__n{i}"))
    grouped = frame.group_by(*keys, drop_null_keys=False).agg(*aggs)
    categories: int | None = None
    if g.top is not None and len(keys) == 1 and not flags and not edges:
        # one key and nothing to count left out: the top groups are cut in the engine (by
        # the first measure, or the rows; a missing value ranks as 0, ties in key order, as
        # cut_to_top ranks them), and only they leave it
        r = nw.col("__kept" if g.counted else alias[g.measures[0]]).cast(nw.Float64)
        rank = nw.when(r.is_nan().fill_null(True)).then(nw.lit(0.0)).otherwise(r)
        ranked = grouped.with_columns(rank.alias("__rank")).sort(
            "__rank", keys[0], descending=[True, False], nulls_last=True
        )
        raw = collect(reading, used, "reduce", ranked.head(g.top), named=False)
        categories, grouped_rows = len(raw), int(raw["__kept"].sum())
        if len(raw) == g.top:  # (perhaps cut: the groups and their rows, counted apart)
            every = grouped.select(nw.len().alias("n"), nw.col("__kept").sum().alias("rows"))
            whole = collect(reading, used, "reduce's groups", every, named=False).iloc[0]
            categories, grouped_rows = int(whole["n"]), int(whole["rows"] or 0)
    elif kept is None:
        raw = collect(reading, used, "reduce", grouped, named=False)
        grouped_rows = int(raw["__kept"].sum())
    else:
        # the groups of a kept row leave the engine (one of dropped rows alone may hold a
        # missing key, which would turn an integer or date key to floats), and the flags'
        # totals, over every group, leave apart
        live = grouped.filter(nw.col("__kept") > 0)
        raw = collect(reading, used, "reduce", live, named=False)
        grouped_rows = int(raw["__kept"].sum())
    if flags:
        sums = frame.select(*(nw.col(n).sum().alias(n) for n in flags))
        got = collect(reading, used, "reduce's left-out rows", sums, named=False).iloc[0]
        total = {n: _tally(got[n]) for n in flags}
    else:
        total = {}
    left_out = tuple(
        (name, total[f"__o{i}"]) for i, name in enumerate(offended) if total[f"__o{i}"]
    )
    no_value, outside = total.get("__e", 0), total.get("__x", 0)
    # the answer named here, column by column: its helpers never meet a data name
    out = pd.DataFrame(
        {i: raw[c] for i, c in enumerate(keys)}
        | {len(keys) + i: raw[alias[m]] for i, m in enumerate(g.values)},
    )
    if step:
        out[0] = bucket_starts(out[0], step)
    elif g.time_unit and pd.api.types.is_integer_dtype(out[0].dtype):
        out[0] = pd.to_datetime(out[0], unit="ms")  # epoch ms: a UTC wall clock
    for i, k in enumerate(g.keys):
        if k in g.dates and getattr(out[i].dtype, "tz", None) is not None:
            out[i] = out[i].dt.tz_convert("UTC").dt.tz_localize(None)  # UTC wall clock
        elif k in edges:
            out[i] = out[i].astype("int64")
    tallies = [raw["__kept"]] if each else [raw[f"__n{i}"] for i in range(len(g.measures))]
    order = np.lexsort(
        [_sort_key(out[i]) for i in reversed(range(len(keys)))]
    ) if len(out) else np.arange(0)  # fmt: skip
    rows = [tuple(int(n) for n in t.to_numpy()[order]) for t in tallies]
    out = out.iloc[order].reset_index(drop=True)
    out.columns = [*g.keys, *g.values]
    if g.top is not None:
        out, rows, cut = cut_to_top(out, rows, g)
        categories = cut if categories is None else categories
    frame_out = out[[*g.keys, *g.values]].reset_index(drop=True)
    groups = Groups(frame_out, tuple(rows), left_out, no_value, categories, outside, grouped_rows)
    if not spans or not len(raw):
        return groups, None, None
    return groups, raw["__lo"].min(), raw["__hi"].max()


_TINY: Final = float(np.finfo(float).tiny)
"""The least normal float: a bin narrower is subnormal, and dividing by it loses the value."""


def bin_of(name: str, edges: Sequence[float]) -> Any:
    """The bin of each value of column ``name``, as ``numpy.histogram`` places it over
    ``edges``: the count of inner edges at or below it (a value on an edge opens the next bin;
    the highest closes the last), as a narwhals expression."""
    import narwhals as nw

    col = nw.col(name).cast(nw.Float64)
    bins = len(edges) - 1
    lo, hi = float(edges[0]), float(edges[-1])
    step = (hi - lo) / bins
    spaced = np.arange(bins + 1) * step + lo  # numpy's linspace, its last edge the highest
    spaced[-1] = hi
    if not (np.isfinite(step) and step >= _TINY and np.array_equal(spaced, edges)):
        # edges not k * step + lo (a range that overflows a float, bins so narrow they are
        # subnormal, or edges of any spacing): compare with each one
        inner = [(col >= float(e)).cast(nw.Int64) for e in edges[1:-1]]
        return nw.sum_horizontal(*inner) if inner else nw.lit(0, nw.Int64)
    # a guess by arithmetic, then one step down or up where it falls outside its edges, so a
    # value lands where the comparisons (numpy's searchsorted) would put it
    guess = ((col - lo) / step).floor().clip(0, bins - 1).cast(nw.Int64)
    start = guess.cast(nw.Float64) * step + lo
    end = nw.when(guess == bins - 1).then(hi).otherwise((guess + 1).cast(nw.Float64) * step + lo)
    below = (col < start).cast(nw.Int64)
    above = ((col >= end) & (guess < bins - 1)).cast(nw.Int64)
    return guess - below + above


def floored(frame: Any, x: str, unit: str, dialect: Dialect, aware: bool, bucket: str) -> Any:
    """``frame`` with ``bucket``: ``x`` (an engine name) floored to the start of its ``unit``
    in UTC, as decide.py floors it (weeks start on Monday)."""
    import narwhals as nw

    ms = {"minute": 60_000, "hour": 3_600_000, "day": 86_400_000}
    if unit in ms or unit == "week":
        out = dialect.with_epoch_ms(frame, x, aware)
        if unit == "week":  # 1970-01-01 was a Thursday: day + 3 is 0 on a Monday, mod 7
            day = nw.col("__ms") // 86_400_000
            start = (day - (day + 3) % 7) * 86_400_000
        else:
            start = nw.col("__ms") // ms[unit] * ms[unit]
        out = out.with_columns(start.alias("__ms"))
        return dialect.from_epoch_ms(out, bucket)
    if aware:
        native = dialect.utc_truncated(frame, x, unit, bucket)
        if native is not None:  # where narwhals cannot convert the zone itself
            return native
    col = nw.col(x)
    if aware:
        col = col.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
    every = {"month": "1mo", "quarter": "1q", "year": "1y"}[unit]
    return frame.with_columns(col.dt.truncate(every).alias(bucket))
