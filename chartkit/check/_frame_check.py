"""The check as queries: an engine frame judged from its schema, its counts and one fetch.

The schema decides first. A column's dtype says what type of value every non-null row holds
(``number``, ``string``, ``boolean``, ``date``, …), so against its declaration the column is
either fine but for its nulls, wrong in every non-null row, or — a text column declared date,
a CSV cell, a JSON value — judged per row by an expression the engine runs: the ISO pattern of
``chartkit._isodate`` (exactly ``datetime.fromisoformat``'s acceptance set), the CSV rules of
``chartkit.read.csvread``, DuckDB's ``json_type``. A string is never cast to a number.

Then a few queries, none of which returns more than one row per broken column: one aggregate
of the counts per offending group (a typed column's null count, which an eager frame keeps as
metadata); for a column that offends in more than one way, the first row index of each way (to
order them, as the in-memory check does); and the first offending value of each broken column
— ``filter … LIMIT 1`` in the engine's scan order, or by that row index. The ``ColumnViolation``s
equal the in-memory check's on the same rows (``tests/test_backends.py``, every backend).

A DuckDB relation's text that the chart parses (a CSV's declared cells, a text column declared
date) is judged from the parse DuckDB holds for the chart (``chartkit.read.engines.held_text``):
each parsed value reads as its type, so the check's patterns are matched only against the
cells that did not parse, whose text is held beside them — the counts, the first offender and
the most frequent offenders are then small queries over the held rows, not scans of the text
(``tests/test_engine_text_check.py``).

narwhals is the common door; the native API is used where narwhals has no operation: a row
index on a lazy frame (narwhals asks for an ``order_by`` column, which a table need not have),
and DuckDB's ``json_type`` and CSV parse helpers (DuckDB expressions, ``chartkit.read.dialects``).
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import reduce
from typing import TYPE_CHECKING, Any, Final

from chartkit._isodate import engine_pattern
from chartkit.check.verdicts import (
    ABSENCE_TYPE_NAMES,
    OK,
    string_verdict,
    type_name,
    verdict,
)
from chartkit.check.verdicts import dtype_value_type as value_type
from chartkit.columns import ColumnDeclaration, ColumnType
from chartkit.errors import ChartkitError
from chartkit.read.dialects import (
    as_text,
    at_position,
    json_kind,
    json_text,
    reads_as_boolean,
    reads_as_date,
    reads_as_held,
    reads_as_number,
)
from chartkit.read.engines import EngineReading, HeldText, held_text, native_frame, query_errors
from chartkit.read.rowset import RowsetReading
from chartkit.violations import OFFENDERS_LISTED, ColumnViolation, OffendingValue, most_frequent

if TYPE_CHECKING:
    from duckdb import Expression

__all__ = ["check_frame"]

ROW: Final = "row"
"""The row index's name in the check's own namespace (see ``_own_names``)."""
_OK, _BAD, _LOOK = 0, 1, 2

_JSON_NAMES: Final = {
    "NULL": "null",
    "BOOLEAN": "boolean",
    "VARCHAR": "string",
    "ARRAY": "array",
    "OBJECT": "object",
}  # every other json_type (BIGINT, UBIGINT, DOUBLE, HUGEINT …) is a number


def _verdict(declared: ColumnType, type_name: str) -> int:
    """The verdict of ``chartkit.check.verdicts`` on every present value of a column whose values
    are all ``type_name``: ``_LOOK`` where a string's form decides (text in a date column)."""
    settled = string_verdict(declared) if type_name == "string" else verdict(declared, type_name)
    if settled is None:
        return _LOOK
    return _OK if settled == OK else _BAD


@dataclass
class _Column:
    """One declared column present in the frame: its offending groups as expressions."""

    name: str  # the tool's name, for messages only
    ref: str  # its name in the check's own namespace (``c0``, ``c1`` …): every query uses it
    decl: ColumnDeclaration
    groups: list[tuple[str, Any]] = field(default_factory=list)  # (type name, offends expr)
    # A typed column counts its nothing (null, NaN) with these: a null count is metadata in
    # an eager frame. Its groups are then counted as "nothing" or "present" (total - nothing).
    nothing: list[Any] = field(default_factory=list)
    # ``nothing`` as the eager frame's own calls read it: ("null" | "nan", column) each
    nothing_natively: list[tuple[str, str]] = field(default_factory=list)
    counted: dict[int, str] = field(default_factory=dict)  # group index -> nothing | present
    sample_from: str = ""  # the column whose value is the sample
    json_text: bool = False  # the sample is JSON text to load


def check_frame(
    reading: RowsetReading, declared: Mapping[str, ColumnDeclaration]
) -> tuple[ColumnViolation, ...]:
    """Violations in declaration order, computed by the engine (see the module docstring)."""
    import narwhals as nw

    if not isinstance(reading, EngineReading):
        raise ChartkitError("check_frame reads an EngineReading (chartkit.read.engines)")
    schema = dict(reading.schema)
    native_types = _native_types(reading)
    plans: list[_Column] = []
    out: dict[str, ColumnViolation] = {}
    helpers: dict[str, Expression] = {}  # DuckDB helper column (json_type, CSV parse)
    held = _held(reading, declared)
    for i, (name, decl) in enumerate(declared.items()):
        if name not in schema:
            out[name] = ColumnViolation.missing(name, decl, reading.total)
            continue
        plan = _Column(name, f"c{i}", decl, sample_from=f"c{i}")
        if held is not None and name in held.kinds:
            _held_groups(plan, held.kinds[name], helpers)
        elif reading.csv_text:
            _csv_groups(plan, i, helpers)
        elif native_types.get(name) == "JSON":
            _json_groups(plan, i, helpers)
        elif native_types.get(name) in {"NULL", "Null", "null"}:  # no value in any row
            if not decl.nullable:
                plan.groups.append(("null", nw.col(plan.ref).is_null()))
        else:
            _typed_groups(plan, schema[name], reading.engine, native_types.get(name))
        if plan.groups:
            plans.append(plan)
    if plans:
        frames = _prepared(reading, {p.name: p.ref for p in plans}, helpers, held)
        for plan, found in zip(plans, _judge(reading, frames, plans), strict=True):
            if found is not None:
                out[plan.name] = found
    return tuple(out[n] for n in declared if n in out)


# --- the groups ---------------------------------------------------------------------------


_NATIVE_VALUE_TYPES: Final = {"binary": "bytes", "large_binary": "bytes", "BLOB": "bytes"}
"""Types narwhals leaves Unknown, by the engine's own name for them."""


def _typed_groups(plan: _Column, dtype: Any, engine: str, native: str | None = None) -> None:
    import narwhals as nw

    tp = value_type(dtype) or _NATIVE_VALUE_TYPES.get(native or "")
    if tp is None:
        raise ChartkitError(
            f"{engine} column {plan.name!r} has the type {dtype}, which chartkit cannot judge "
            f"in the engine (schema step); cast it to a number, string, boolean or date column"
        )
    col = nw.col(plan.ref)
    nothing = col.is_null() | col.is_nan() if dtype.is_float() else col.is_null()
    plan.nothing = [col.null_count()]
    plan.nothing_natively = [("null", plan.ref)]
    if dtype.is_float():
        plan.nothing.append(col.is_nan().cast(nw.Int64).sum())  # NaN is nothing, as in a list
        plan.nothing_natively.append(("nan", plan.ref))
    said = _verdict(plan.decl.type, tp)
    if not plan.decl.nullable:
        plan.counted[len(plan.groups)] = "nothing"
        plan.groups.append(("null", nothing))
    if said == _BAD:
        plan.counted[len(plan.groups)] = "present"
        plan.groups.append((tp, ~nothing))
    elif said == _LOOK:
        text = col if dtype == nw.String else col.cast(nw.String)  # categories: as their text
        plan.groups.append(("string", ~nothing & ~text.str.contains(engine_pattern())))


def _json_groups(plan: _Column, i: int, helpers: dict[str, Expression]) -> None:
    """A DuckDB JSON column: each row judged by its ``json_type`` (native: narwhals has none)."""
    import duckdb
    import narwhals as nw

    cell = duckdb.ColumnExpression(plan.ref)
    kind, text, raw = f"jt{i}", f"js{i}", f"jv{i}"
    helpers[kind] = json_kind(cell)
    helpers[text] = json_text(cell)
    helpers[raw] = as_text(cell)
    plan.sample_from, plan.json_text = raw, True
    jt = nw.col(kind)
    named = {"null", "boolean", "string", "array", "object"}
    if not plan.decl.nullable:
        plan.groups.append(("null", jt == "NULL"))
    for json_name, tp in _JSON_NAMES.items():
        if tp == "null":
            continue
        said = _verdict(plan.decl.type, tp)
        if said == _BAD:
            plan.groups.append((tp, jt == json_name))
        elif said == _LOOK:
            plan.groups.append(("string", (jt == json_name) & ~nw.col(text).str.contains(
                engine_pattern())))  # fmt: skip
    if _verdict(plan.decl.type, "number") == _BAD:
        plan.groups.append(("number", ~jt.is_in([k for k, v in _JSON_NAMES.items() if v in named])))


def _csv_groups(plan: _Column, i: int, helpers: dict[str, Expression]) -> None:
    """A CSV cell (text): parsed by the declared type with ``chartkit.read.csvread``'s rules."""
    import duckdb
    import narwhals as nw

    col = nw.col(plan.ref)
    if not plan.decl.nullable:
        plan.groups.append(("null", col.is_null()))
    declared = plan.decl.type
    if declared == "string":
        return
    ok = f"ok{i}"
    reads_as = {"number": reads_as_number, "boolean": reads_as_boolean}.get(declared, reads_as_date)
    helpers[ok] = reads_as(duckdb.ColumnExpression(plan.ref))
    plan.groups.append(("string", ~col.is_null() & ~nw.col(ok)))


def _held(reading: EngineReading, declared: Mapping[str, ColumnDeclaration]) -> HeldText | None:
    """The text cells of a DuckDB relation parsed by the declaration once and held
    (``chartkit.read.engines.held_text``: the chart reads the same rows), or None: then each
    cell is matched by the check's own queries."""
    try:
        return held_text(reading, {name: decl.type for name, decl in declared.items()})
    except Exception:  # duckdb's own error: the check matches the text itself, as it can
        return None


def _held_groups(plan: _Column, kind: str, helpers: dict[str, Expression]) -> None:
    """A text cell parsed and held (``_held``): judged by the rules of ``_csv_groups`` from
    its parsed value (``t…``) and its text where none parsed (``c…``: NULL for a NULL cell),
    so only the cells that did not parse are matched again (``reads_as_held``)."""
    import duckdb
    import narwhals as nw

    col = nw.col(plan.ref)
    if not plan.decl.nullable:
        plan.groups.append(("null", col.is_null()))
    ok = "ok" + plan.ref[1:]
    value, text = duckdb.ColumnExpression(_value_ref(plan.ref)), duckdb.ColumnExpression(plan.ref)
    helpers[ok] = reads_as_held(kind, value, text)
    plan.groups.append(("string", ~col.is_null() & ~nw.col(ok)))


def _value_ref(ref: str) -> str:
    """The name of a held column's parsed value beside its text ``ref`` (``c0`` → ``t0``)."""
    return "t" + ref[1:]


# --- the queries --------------------------------------------------------------------------


def _native_types(reading: EngineReading) -> dict[str, str]:
    return reading.dialect.native_types(native_frame(reading))


@dataclass
class _Frames:
    """The frame as narwhals with any helper columns (``plain``), and on demand with a row
    index too (``indexed()``): numbering the rows costs a window in a lazy engine, so it is
    only asked for when a column offends in more than one way."""

    reading: EngineReading
    plain: Any
    native: Any
    _indexed: Any = None

    def indexed(self) -> Any:

        if self._indexed is None:
            self._indexed = self.reading.dialect.with_row_index(self.native, ROW)
        return self._indexed


def _prepared(
    reading: EngineReading,
    refs: Mapping[str, str],
    helpers: Mapping[str, Expression],
    held: HeldText | None = None,
) -> _Frames:
    """The frame in the check's own namespace (``_own_names``, or ``held``'s rows: each parsed
    column as its text where it did not parse and its parsed value), as narwhals, with any
    DuckDB helper columns (native: see the module docstring)."""
    import narwhals as nw

    if held is not None:
        picks = [at_position(held.text_at(n) if n in held.kinds else held.at(n)).alias(ref)
                 for n, ref in refs.items()]  # fmt: skip
        picks += [at_position(held.at(n)).alias(_value_ref(ref))
                  for n, ref in refs.items() if n in held.kinds]  # fmt: skip
        with query_errors(reading, "select the declared columns"):
            native = reading.dialect.project(held.native, picks)
    else:
        native = _own_names(reading, refs)
    if helpers:  # only DuckDB's JSON columns and CSV text are given any
        if not reading.dialect.sql_helpers:
            raise ChartkitError(f"the check builds no SQL helper column over {reading.engine}")
        native = reading.dialect.with_columns(native, [e.alias(n) for n, e in helpers.items()])
    return _Frames(reading, nw.from_native(native), native)


def _own_names(reading: EngineReading, refs: Mapping[str, str]) -> Any:
    """Only the judged columns, each renamed to its ``ref`` (``c0``, ``c1`` …), natively.

    Every query of the check then names columns the check chose itself: the helper columns
    (``ok0``, ``jt0`` …, the row index ``row``) can never meet a column of the tool's, and a
    tool's name is read once, here, as a literal (``Dialect.by_position``) — a DuckDB
    positional reference, a polars
    position (``pl.nth``: ``pl.col("^lun$")`` would be a regex, ``"*"`` every column), a
    pyarrow position, a Spark position (``toDF``: ``a.b`` would be a struct field), an Ibis
    name — and never again as query text or a pattern.
    """
    position = {name: k for k, name in enumerate(reading.columns)}
    with query_errors(reading, "select the declared columns"):
        return reading.dialect.by_position(
            native_frame(reading), reading.columns, [(position[n], r) for n, r in refs.items()]
        )


def _run(reading: EngineReading, frame: Any, exprs: list[Any], step: str, names: str) -> Any:
    import narwhals as nw

    with query_errors(reading, f"run the check's {step} query for column(s) {names}"):
        result = frame.select(*exprs)
        if isinstance(result, nw.LazyFrame):
            result = result.collect()
        return result.row(0)


def _judge(
    reading: EngineReading, frames: _Frames, plans: list[_Column]
) -> list[ColumnViolation | None]:
    import narwhals as nw

    flat = [(p, tp, cond) for p in plans for tp, cond in p.groups]
    names = ", ".join(repr(p.name) for p in plans)
    sums: list[Any] = []  # what the count query asks; then each group's count from it
    where: list[tuple[str, list[int]]] = []
    nothing_at: dict[int, list[int]] = {}
    for plan in plans:
        if plan.nothing:
            nothing_at[id(plan)] = list(range(len(sums), len(sums) + len(plan.nothing)))
            sums += plan.nothing
        for g, (_, cond) in enumerate(plan.groups):
            how = plan.counted.get(g)
            if how is None:
                where.append(("sum", [len(sums)]))
                sums.append(cond.cast(nw.Int64).sum())  # cast: Spark sums no booleans
            else:
                where.append((how, nothing_at[id(plan)]))
    sums = [e.alias(f"n{i}") for i, e in enumerate(sums)]
    firsts = [
        nw.when(cond).then(nw.col(ROW)).min().alias(f"at{i}") for i, (_, _, cond) in enumerate(flat)
    ]

    def counts_of(got: Any) -> list[int]:
        out = []
        for how, at in where:
            k = sum(int(got[i] or 0) for i in at)
            out.append(reading.total - k if how == "present" else k)
        return out

    # 1. the counts (for an eager frame mostly null counts, which it keeps as metadata)
    natively = _native_counts(reading, frames.native, plans)
    if natively is None:
        natively = _counted_before(reading, plans)
    try:
        n = counts_of(natively if natively is not None else _run(reading, frames.plain, sums,
                                                                 "count", names))  # fmt: skip
    except ChartkitError:
        _name_the_column(reading, frames, plans)  # one query per column: which one fails
        raise
    # 2. where a column offends in more than one way, which way comes first: row indexes
    at: list[int | None] = [None] * len(flat)
    by_plan: dict[int, list[int]] = {}
    for i, ((plan, _, _), k) in enumerate(zip(flat, n, strict=True)):
        if k:
            by_plan.setdefault(id(plan), []).append(i)
    ordered_groups = [i for groups in by_plan.values() if len(groups) > 1 for i in groups]
    if ordered_groups:
        got = _run(reading, frames.indexed(), [firsts[i] for i in ordered_groups], "first-offender",
                   names)  # fmt: skip
        for i, v in zip(ordered_groups, got, strict=True):
            at[i] = int(v)
    per_plan: dict[int, list[tuple[str, int, int, Any]]] = {}
    for (plan, tp, cond), k, first in zip(flat, n, at, strict=True):
        if k:
            per_plan.setdefault(id(plan), []).append((tp, int(k), -1 if first is None else first,
                                                      cond))  # fmt: skip
    samples = _samples(reading, frames, plans, per_plan)
    frequent = _frequent(reading, frames, plans, per_plan)
    out: list[ColumnViolation | None] = []
    for plan in plans:
        found = per_plan.get(id(plan))
        if not found:
            out.append(None)
            continue
        merged: dict[str, list[int]] = {}
        for tp, k, first, _ in found:
            had = merged.setdefault(tp, [0, first])
            had[0] += k
            had[1] = min(had[1], first)
        ordered = sorted(merged.items(), key=lambda item: item[1][1])
        sample_type = ordered[0][0]
        out.append(
            ColumnViolation(
                "column-type-mismatch",
                plan.name,
                plan.decl.type,
                plan.decl.nullable,
                None if sample_type in ABSENCE_TYPE_NAMES else samples.get(plan.name),
                sample_type,
                sum(k for _, (k, _) in ordered),
                reading.total,
                sum(k for tp, (k, _) in ordered if tp in ABSENCE_TYPE_NAMES),
                tuple(tp for tp, _ in ordered[:4]),
                frequent[plan.name],
            )
        )
    return out


def _native_counts(reading: EngineReading, native: Any, plans: list[_Column]) -> list[int] | None:
    """The count query's answer read by an eager polars DataFrame's or pyarrow Table's own
    calls, when every count is a null count (kept as metadata) or a float column's NaNs:
    the same numbers without building and running a query (a few milliseconds at any size).
    None for any other frame or count."""
    if any(g not in p.counted for p in plans for g in range(len(p.groups))):
        return None  # a group counted by its own condition: the query counts it
    if any(len(p.nothing_natively) != len(p.nothing) for p in plans):
        return None
    wanted = [item for p in plans for item in p.nothing_natively]
    try:
        return reading.dialect.count_natively(native, wanted)
    except Exception:  # a dtype its own calls refuse (a decimal's NaN, …): the query decides
        return None


def _counted_before(reading: EngineReading, plans: list[_Column]) -> list[int] | None:
    """The count query's answer from the facts the chart's counting pass already holds
    (``EngineReading.counted``, filled by ``backends.pushdown.count_facts`` before the check
    of a frame the chart reduces in place), when every count is a typed column's nothing (its
    nulls and NaNs: the rows less the values it holds). None when a count is not there."""
    counted = reading.counted
    if not counted or any(g not in p.counted for p in plans for g in range(len(p.groups))):
        return None
    out: list[int] = []
    for p in plans:
        facts = counted.get(p.name)
        if facts is None or not p.nothing:
            return None
        out += [facts.rows - facts.values, *([0] * (len(p.nothing) - 1))]  # summed as one
    return out


def _name_the_column(reading: EngineReading, frames: _Frames, plans: list[_Column]) -> None:
    """Raise the engine's error for the first column whose own count query fails."""
    import narwhals as nw

    if len(plans) < 2:
        return
    for plan in plans:
        exprs = [*plan.nothing, *(cond.cast(nw.Int64).sum() for _, cond in plan.groups)]
        _run(reading, frames.plain, [e.alias(f"n{i}") for i, e in enumerate(exprs)], "count",
             repr(plan.name))  # fmt: skip


def _samples(
    reading: EngineReading,
    frames: _Frames,
    plans: list[_Column],
    per_plan: Mapping[int, list[tuple[str, int, int, Any]]],
) -> dict[str, Any]:
    """The first offending value of each broken column, at most one row each.

    A column that offends in one way only gets the first row its condition holds for, in the
    engine's scan order (``filter … LIMIT 1``, no row index); the others are fetched by the row
    indexes already found, in one query that stops at the last one.
    """
    import narwhals as nw

    by_index: dict[str, tuple[int, _Column]] = {}
    out: dict[str, Any] = {}
    for plan in plans:
        found = per_plan.get(id(plan))
        if not found:
            continue
        tp, _, first, cond = min(found, key=lambda g: g[2])
        if tp in ABSENCE_TYPE_NAMES:
            continue
        if first >= 0:
            by_index[plan.name] = (first, plan)
            continue
        query = frames.plain.filter(cond).select(plan.sample_from).head(1)
        (value,) = _fetch(reading, query, plan.name)[0].values()
        out[plan.name] = json.loads(value) if plan.json_text and value is not None else value
    if by_index:
        columns = list(dict.fromkeys(p.sample_from for _, p in by_index.values()))
        query = frames.indexed().filter(nw.col(ROW).is_in([at for at, _ in by_index.values()]))
        query = query.select(ROW, *columns).head(len(by_index))  # stops at the last one
        rows = {r[ROW]: r for r in _fetch(reading, query, ", ".join(map(repr, by_index)))}
        for name, (at, plan) in by_index.items():
            value = rows[at][plan.sample_from]
            out[name] = json.loads(value) if plan.json_text and value is not None else value
    return out


_COUNT: Final = "n"  # the count's name in the offenders' query (never a column of ``_own_names``)


def _frequent(
    reading: EngineReading,
    frames: _Frames,
    plans: list[_Column],
    per_plan: Mapping[int, list[tuple[str, int, int, Any]]],
) -> dict[str, tuple[OffendingValue, ...]]:
    """The most frequent offending values of each broken column, with their counts.

    The absences are the count query's (null, NaN and a JSON null are one ``null``); the
    values that offend by their type are counted in the engine by one bounded query a column:
    its offending rows grouped by the value, the ``OFFENDERS_LISTED`` largest groups, ties in
    the value's order (``most_frequent``'s, which then merges the absences in).
    """
    import narwhals as nw

    out: dict[str, tuple[OffendingValue, ...]] = {}
    for plan in plans:
        found = per_plan.get(id(plan))
        if not found:
            continue
        entries: dict[str, int] = {}
        for tp, k, _, _ in found:
            if tp in ABSENCE_TYPE_NAMES:
                entries[tp] = entries.get(tp, 0) + k
        listed = [OffendingValue(None, tp, k) for tp, k in entries.items()]
        conds = [cond for tp, _, _, cond in found if tp not in ABSENCE_TYPE_NAMES]
        if conds:
            key = plan.sample_from
            offending = reduce(operator.or_, conds)
            try:  # eager frames run each step at once: the whole chain is the attempt
                query = (
                    frames.plain.filter(offending)
                    .group_by(key)
                    .agg(nw.len().alias(_COUNT))
                    .sort([_COUNT, key], descending=[True, False])
                    .head(OFFENDERS_LISTED)
                )
                counted = [(row[key], int(row[_COUNT])) for row in
                           _fetch(reading, query, repr(plan.name))]  # fmt: skip
            except Exception:  # an engine that cannot group its type (pyarrow: a list, a struct)
                counted = _counted_here(reading, frames.plain.filter(offending).select(key), plan)
            for value, n in counted:
                if plan.json_text and value is not None:
                    value = json.loads(value)
                listed.append(OffendingValue(value, type_name(type(value), value), n))
        out[plan.name] = most_frequent(listed)
    return out


def _counted_here(reading: EngineReading, query: Any, plan: _Column) -> list[tuple[Any, int]]:
    """The offending values counted in Python, for a type the engine cannot group by (a list
    or struct in pyarrow): each told apart by its bounded text, as ``check`` tells them."""
    from chartkit._safe import sample_text

    counts: dict[str, list[Any]] = {}
    for row in _fetch(reading, query, repr(plan.name)):
        value = row[plan.sample_from]
        counts.setdefault(sample_text(value), [value, 0])[1] += 1
    return [(value, n) for value, n in counts.values()]


def _fetch(reading: EngineReading, query: Any, names: str) -> list[dict[str, Any]]:
    import narwhals as nw

    with query_errors(reading, f"run the check's sample query for column(s) {names}"):
        if isinstance(query, nw.LazyFrame):
            query = query.collect()
        rows: list[dict[str, Any]] = query.rows(named=True)
    return rows
