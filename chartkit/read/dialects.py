"""Each engine's own ways, where narwhals has none: one class per engine, picked at the door.

chartkit asks an engine frame its questions through narwhals. The few things narwhals cannot
say for every engine are a ``Dialect``'s, and only a dialect's:

- ``native_types``: the engine's own name for each column's type (a DuckDB ``JSON``, a
  ``NULL`` column, a binary column narwhals leaves ``Unknown``);
- ``by_position``: some columns, picked by position and renamed, natively — so a tool's column
  name is never parsed by the engine (a dot, a quote, a NUL, regex syntax, ``*``, an SQL
  keyword): DuckDB's positional references, polars' ``nth``, pyarrow's and Spark's column
  lists, Ibis' indexing;
- ``with_row_index``: the rows numbered in scan order (narwhals asks a lazy frame for an
  ``order_by`` column, which a table need not have);
- ``with_epoch_ms``, ``with_bucket``, ``utc_truncated``, ``from_epoch_ms``: a time as epoch
  milliseconds, its bucket, its month in UTC — where narwhals lacks the operation;
- ``count_natively``: an eager frame's null and NaN counts, which it keeps as metadata;
- ``exact_median``: whether the engine's median is exact (pyarrow's is a t-digest);
- ``nan_last``: whether the engine's ``min`` and ``max`` order NaN above every number (so a
  float's plain bounds tell whether it holds a NaN or an infinity at all).

``EngineReading.dialect`` is the reading's, chosen once by ``dialect_of(engine)``; no other
module branches on an engine's name. DuckDB's queries are built of DuckDB's own expressions
(names and values written into the query by DuckDB), with the text-cell builders the check and
the chart share (``parsed_number`` …). SQL text is handled here only: ``at_position``'s ``#n``
(DuckDB's expressions have no column by position) and ``_select_list``, which joins the SQL
DuckDB writes for each expression (tests/test_sql_expressions.py holds the package to that).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from chartkit._isodate import PLAIN_DATE, engine_pattern
from chartkit.errors import ChartkitError
from chartkit.read.csvread import BOOLEAN, BOOLEAN_FALSE, BOOLEAN_TRUE, INTEGER, NUMBER

if TYPE_CHECKING:
    from duckdb import Expression

__all__ = [
    "DIALECTS",
    "Dialect",
    "DuckDB",
    "Ibis",
    "Polars",
    "PyArrow",
    "Spark",
    "as_text",
    "at_position",
    "count_true",
    "dialect_of",
    "json_kind",
    "json_text",
    "parsed_boolean",
    "parsed_date",
    "parsed_number",
    "quote",
    "reads_as_boolean",
    "reads_as_date",
    "reads_as_held",
    "reads_as_number",
    "uncast_date",
    "uncast_dates",
    "unparsed_text",
]


def quote(name: str) -> str:
    """An identifier in DuckDB SQL text a person writes (a test's query, say): chartkit's own
    queries are expressions, whose names DuckDB quotes itself."""
    if "\x00" in name:
        raise ChartkitError("a DuckDB identifier cannot hold a NUL character")
    return '"' + name.replace('"', '""') + '"'


class Dialect:
    """narwhals' own answers, for an engine narwhals reads with no help (and the base of every
    dialect: a dialect overrides only what its engine does differently)."""

    engine: ClassVar[str] = "narwhals"
    exact_median: ClassVar[bool] = True
    nan_last: ClassVar[bool] = False  # min and max order NaN above +inf (see QueryBackend.facts)
    sql_helpers: ClassVar[bool] = False  # helper columns as SQL text over chartkit's own names

    def native_types(self, native: Any) -> dict[str, str]:
        """The engine's own name of each column's type, where narwhals' is not enough."""
        return {}

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        """The native frame of the columns at the positions ``picks`` names, each renamed to
        its new name (chartkit's own, or a real name read back), in the order of ``picks``."""
        import narwhals as nw

        frame = nw.from_native(native)
        return frame.select(*(nw.col(columns[k]).alias(new) for k, new in picks)).to_native()

    def with_row_index(self, native: Any, name: str) -> Any:
        """A narwhals frame of ``native`` with ``name``: each row's index in scan order."""
        import narwhals as nw

        return nw.from_native(native).with_row_index(name)

    def with_epoch_ms(self, frame: Any, name: str, aware: bool) -> Any:
        """``frame`` (narwhals) with ``__ms``: ``name``'s milliseconds since the epoch."""
        import narwhals as nw

        return frame.with_columns(nw.col(name).dt.timestamp("ms").alias("__ms"))

    def with_bucket(self, frame: Any, name: str, aware: bool, seconds: int, bucket: str) -> Any:
        """``frame`` with ``bucket``: the index (epoch seconds // ``seconds``) of the bucket
        of ``seconds`` from the epoch that ``name`` falls in (``_native.bucket_starts`` reads
        it back as the buckets' starts)."""
        import narwhals as nw

        out = self.with_epoch_ms(frame, name, aware)
        return out.with_columns((nw.col("__ms") // (int(seconds) * 1000)).alias(bucket))

    def utc_truncated(self, frame: Any, name: str, unit: str, bucket: str) -> Any | None:
        """``frame`` with ``bucket``: an aware ``name`` truncated to the start of its ``unit``
        (month, quarter, year) in UTC, as a naive UTC wall clock; None where narwhals' own
        ``convert_time_zone`` does it."""
        return None

    def from_epoch_ms(self, frame: Any, bucket: str) -> Any:
        """``bucket``: the timestamp (UTC wall clock) of ``__ms``."""
        import narwhals as nw

        return frame.with_columns(nw.col("__ms").cast(nw.Datetime("ms")).alias(bucket))

    def count_natively(self, native: Any, wanted: Sequence[tuple[str, str]]) -> list[int] | None:
        """``("null" | "nan", column)`` counts read by an eager frame's own calls; None when
        the frame keeps no such metadata (a query counts them)."""
        return None

    def project(self, native: Any, exprs: Sequence[Any]) -> Any:
        """``native`` projected to DuckDB expressions (``sql_helpers`` dialects)."""
        raise ChartkitError(
            f"{self.engine} takes no SQL text nor DuckDB expression (only DuckDB's dialect does)"
        )

    def with_columns(self, native: Any, exprs: Sequence[Any]) -> Any:
        """``native``'s columns and then DuckDB expressions (``sql_helpers`` dialects)."""
        return self.project(native, exprs)

    def held(self, native: Any) -> Any:
        """``native`` computed once and held by the engine, so later queries read its values
        instead of computing them again (``sql_helpers`` dialects; others: ``native``)."""
        return native


class DuckDB(Dialect):
    engine = "duckdb"
    nan_last = True  # DuckDB sorts NaN above +inf: max is NaN when a NaN is held, min only
    # when nothing else is
    sql_helpers = True  # helper columns built of DuckDB's expressions

    def native_types(self, native: Any) -> dict[str, str]:
        return {c: str(t).strip('"') for c, t in zip(native.columns, native.types, strict=True)}

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        return self.project(native, [at_position(k).alias(new) for k, new in picks])

    def project(self, native: Any, exprs: Sequence[Expression]) -> Any:
        """``native`` projected to ``exprs``, each named by its alias."""
        return native.project(_select_list(exprs))

    def aggregate(self, native: Any, exprs: Sequence[Expression]) -> Any:
        """``native`` aggregated to ``exprs`` (one row), each named by its alias."""
        return native.aggregate(_select_list(exprs))

    def held(self, native: Any) -> Any:
        """The relation run once, its rows held by DuckDB (``materialize``): a projection of
        parsed text is then parsed once, not by each query over it."""
        return native.materialize()

    def with_columns(self, native: Any, exprs: Sequence[Any]) -> Any:
        import duckdb

        return self.project(native, [duckdb.StarExpression(), *exprs])

    def with_row_index(self, native: Any, name: str) -> Any:
        import duckdb
        import narwhals as nw

        index = duckdb.FunctionExpression("row_number").over() - 1
        return nw.from_native(self.with_columns(native, [index.alias(name)]))

    def with_epoch_ms(self, frame: Any, name: str, aware: bool) -> Any:
        import duckdb
        import narwhals as nw
        from duckdb.sqltypes import TIMESTAMP

        column = duckdb.ColumnExpression(name)
        at = column if aware else column.cast(TIMESTAMP)
        ms = duckdb.FunctionExpression("epoch_ms", at)
        # epoch_ms truncates toward zero: a time before 1970 with a fraction of a millisecond
        # is floored here, as every other engine floors it (exact, in integers)
        early = duckdb.FunctionExpression("epoch_us", at) < ms * 1000
        floored = ms - duckdb.CaseExpression(early, 1).otherwise(0)
        return nw.from_native(self.with_columns(frame.to_native(), [floored.alias("__ms")]))

    def with_bucket(self, frame: Any, name: str, aware: bool, seconds: int, bucket: str) -> Any:
        # time_bucket's start, a UTC wall clock: the cheapest grouping key in DuckDB
        import duckdb
        import narwhals as nw
        from duckdb.sqltypes import TIMESTAMP

        column = duckdb.ColumnExpression(name)
        if aware:
            # the instant's microseconds floored to the bucket (exact, in integers), as a UTC
            # wall clock: no conversion to a zone per row (ICU's, four times the cost)
            us = duckdb.FunctionExpression("epoch_us", column)
            width = duckdb.ConstantExpression(int(seconds) * 1_000_000)
            floored = us - ((us % width) + width) % width
            start = duckdb.FunctionExpression("make_timestamp", floored)
        else:
            start = duckdb.FunctionExpression(
                "time_bucket",
                duckdb.FunctionExpression("to_seconds", int(seconds)),  # an interval of seconds
                column.cast(TIMESTAMP),
                duckdb.ConstantExpression(dt.datetime(1970, 1, 1)),
            )
        return nw.from_native(self.with_columns(frame.to_native(), [start.alias(bucket)]))

    def utc_truncated(self, frame: Any, name: str, unit: str, bucket: str) -> Any | None:
        # the zone is the connection's, not the type's: narwhals cannot convert it
        import duckdb
        import narwhals as nw

        if unit not in _TRUNCATED:
            raise ChartkitError(f"utc_truncated floors to a month, quarter or year, not {unit!r}")
        start = duckdb.FunctionExpression(
            "date_trunc", duckdb.ConstantExpression(unit), _in_utc(duckdb.ColumnExpression(name))
        )
        return nw.from_native(self.with_columns(frame.to_native(), [start.alias(bucket)]))

    def from_epoch_ms(self, frame: Any, bucket: str) -> Any:
        # the integer is kept (narwhals has no from-epoch here), converted once collected
        import narwhals as nw

        return frame.with_columns(nw.col("__ms").alias(bucket))


def _in_utc(at: Expression) -> Expression:
    """An aware DuckDB time as its UTC wall clock (a naive TIMESTAMP)."""
    import duckdb

    return duckdb.FunctionExpression("timezone", duckdb.ConstantExpression("UTC"), at)


def at_position(k: int) -> Expression:
    """The column at position ``k`` (from 0) of a DuckDB relation, so a tool's column name never
    reaches a query (a quote, a NUL, ``#1``, 5 MB of it).

    The one piece of SQL text chartkit writes, and it holds no name and no value: ``#`` and a
    number. DuckDB's expression API names a column only by its name, and the binder reads a
    name case-insensitively (``a`` finds ``A`` first where a relation holds both).

    >>> at_position(0).as_select().split()
    ['(', '#1', ')']
    """
    import duckdb

    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ChartkitError(f"a column position is a whole number from 0, not {k!r}")
    return duckdb.SQLExpression("#" + str(k + 1))


def _select_list(exprs: Sequence[Expression]) -> str:
    """DuckDB expressions as one select list, each written by DuckDB (``as_select``: its SQL and
    its alias, quoted), joined by commas.

    Handed to a relation as one text because a relation's methods take a list of expressions
    at a cost linear in the relation's columns for each (minutes for 20,000 columns), and
    warn of any value that spells a column's name.
    """
    return ", ".join(e.as_select() for e in exprs)


# --- text cells, read by chartkit.read.csvread's rules, as DuckDB expressions ---------------
#
# A CSV's cells are text (``open_table`` reads every column as VARCHAR), and so is a DuckDB
# text column declared date. The check asks whether a cell reads as its declared type
# (``reads_as_*``); the chart reads it as that type (``parsed_*``), or NULL where it does not.


def _matches(cell: Expression, pattern: str, *, full: bool = True) -> Expression:
    import duckdb

    how = "regexp_full_match" if full else "regexp_matches"
    return duckdb.FunctionExpression(how, cell, duckdb.ConstantExpression(pattern))


def _false_if_null(condition: Expression) -> Expression:
    import duckdb

    return duckdb.CoalesceOperator(condition, duckdb.ConstantExpression(False))


def reads_as_number(cell: Expression) -> Expression:
    """Whether a text cell is a number as csvread reads one (false for a NULL cell).

    The ``NUMBER`` regex alone decides that the text is a decimal literal; the cast only asks
    whether a float holds a literal that is not an integer (csvread keeps ``1e999`` as text
    and reads any integer, however long), never whether it is one.
    """
    import duckdb
    from duckdb.sqltypes import DOUBLE

    finite = duckdb.FunctionExpression("isfinite", cell.try_cast(DOUBLE))
    whole = _matches(cell, INTEGER.pattern)
    return _false_if_null(_matches(cell, NUMBER.pattern) & (whole | finite))


def reads_as_boolean(cell: Expression) -> Expression:
    """Whether a text cell is one of csvread's boolean spellings (false for a NULL cell)."""
    return _false_if_null(_matches(cell, BOOLEAN.pattern))


def reads_as_date(cell: Expression) -> Expression:
    """Whether a text cell is a date string (``engine_pattern``; false for a NULL cell)."""
    return _false_if_null(_matches(cell, engine_pattern(), full=False))


def parsed_number(cell: Expression) -> Expression:
    """A text cell read as csvread reads a number: a finite DOUBLE, else NULL.

    The ``NUMBER`` regex alone says the text is a decimal literal; the cast then reads it
    exactly (csvread's ``float()``), and a literal no float holds (``1e999``) is NULL, as
    csvread leaves it text. DuckDB casts only the cells the regex let through.
    """
    import duckdb
    from duckdb.sqltypes import DOUBLE

    number = cell.cast(DOUBLE)
    finite = duckdb.CaseExpression(duckdb.FunctionExpression("isfinite", number), number)
    return duckdb.CaseExpression(_matches(cell, NUMBER.pattern), finite)


def parsed_boolean(cell: Expression) -> Expression:
    """A text cell read as csvread reads a boolean, by its spellings: true, false or NULL."""
    import duckdb

    def spelled(words: frozenset[str]) -> Expression:
        return cell.isin(*(duckdb.ConstantExpression(w) for w in sorted(words)))

    yes = duckdb.CaseExpression(spelled(BOOLEAN_TRUE), duckdb.ConstantExpression(True))
    return yes.when(spelled(BOOLEAN_FALSE), duckdb.ConstantExpression(False))


def _plain_date(cell: Expression) -> Expression:
    """A date string DuckDB casts to TIMESTAMP exactly as the check reads it (``PLAIN_DATE``).

    ``PLAIN_DATE`` is a part of the date strings' grammar (``engine_pattern``), so its one
    match says both; the larger pattern costs more than the cast."""
    return _matches(cell, PLAIN_DATE)


def parsed_date(cell: Expression) -> Expression:
    """A text cell that is a date string ``PLAIN_DATE`` accepts, as a TIMESTAMP; else NULL."""
    import duckdb
    from duckdb.sqltypes import TIMESTAMP

    return duckdb.CaseExpression(_plain_date(cell), cell.cast(TIMESTAMP))


def uncast_date(cell: Expression) -> Expression:
    """Whether a text cell is a date string ``PLAIN_DATE`` leaves out (a zone, ``Z`` or
    ``±HH:MM``, or a fraction past microseconds): DuckDB does not cast it exactly as the
    check reads it, so the chart cannot parse the column in DuckDB.

    The date strings' whole grammar is matched only against the cells ``PLAIN_DATE`` does not
    accept (a ``CASE``: DuckDB runs each branch on its own rows)."""
    import duckdb

    plain = duckdb.CaseExpression(_plain_date(cell), duckdb.ConstantExpression(False))
    return plain.otherwise(_matches(cell, engine_pattern(), full=False))


def uncast_dates(cell: Expression) -> Expression:
    """The count of a text column's date strings ``uncast_date`` finds."""
    return count_true(uncast_date(cell))


def unparsed_text(cell: Expression, parsed: Expression) -> Expression:
    """A text cell where its ``parsed`` value is NULL (a NULL cell: NULL), ``''`` where it
    parsed: held beside the parsed values, it keeps the text of every cell that may offend
    (what the check quotes and counts) and tells a NULL cell from one that did not parse."""
    import duckdb

    return duckdb.CaseExpression(parsed.isnotnull(), duckdb.ConstantExpression("")).otherwise(cell)


def reads_as_held(kind: str, parsed: Expression, text: Expression) -> Expression:
    """Whether a held cell reads as ``kind`` (the check's ``reads_as_*``), from its parsed
    value and its ``unparsed_text``: every parsed value reads as its type, so the text is
    matched only where none parsed (a ``CASE``: DuckDB runs each branch on its own rows)."""
    import duckdb

    reads_as = {"number": reads_as_number, "boolean": reads_as_boolean, "date": reads_as_date}
    if kind not in reads_as:
        raise ChartkitError(f"a held cell is read as a number, boolean or date, not {kind!r}")
    held = duckdb.CaseExpression(parsed.isnotnull(), duckdb.ConstantExpression(True))
    return held.otherwise(reads_as[kind](text))


def count_true(flag: Expression) -> Expression:
    """The rows where a boolean expression is true (``count_if``)."""
    import duckdb

    return duckdb.FunctionExpression("count_if", flag)


def json_kind(cell: Expression) -> Expression:
    """A DuckDB JSON value's ``json_type`` (``VARCHAR``, ``BIGINT`` …), ``NULL`` for a null."""
    import duckdb

    kind = duckdb.FunctionExpression("json_type", cell)
    return duckdb.CoalesceOperator(kind, duckdb.ConstantExpression("NULL"))


def json_text(cell: Expression) -> Expression:
    """A DuckDB JSON string's text (``->> '$'``)."""
    import duckdb

    return duckdb.FunctionExpression("json_extract_string", cell, duckdb.ConstantExpression("$"))


def as_text(cell: Expression) -> Expression:
    """A DuckDB value as VARCHAR (a JSON value: its JSON text)."""
    from duckdb.sqltypes import VARCHAR

    return cell.cast(VARCHAR)


class Polars(Dialect):
    engine = "polars"

    def native_types(self, native: Any) -> dict[str, str]:
        return {c: str(t) for c, t in native.collect_schema().items()}

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        import polars as pl

        # pl.nth: pl.col("^lun$") would be a regex, pl.col("*") every column
        return native.select([pl.nth(k).alias(new) for k, new in picks])

    def with_row_index(self, native: Any, name: str) -> Any:
        import narwhals as nw

        return nw.from_native(native.with_row_index(name))

    def count_natively(self, native: Any, wanted: Sequence[tuple[str, str]]) -> list[int] | None:
        if type(native).__name__ != "DataFrame":
            return None  # a LazyFrame keeps no counts
        columns = {name: native.get_column(name) for _, name in wanted}
        return [
            int(columns[name].null_count() if how == "null" else columns[name].is_nan().sum())
            for how, name in wanted
        ]


class PyArrow(Dialect):
    engine = "pyarrow"
    exact_median = False  # narwhals' pyarrow median is a t-digest's

    def native_types(self, native: Any) -> dict[str, str]:
        return {f.name: str(f.type) for f in native.schema}

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        return native.select([k for k, _ in picks]).rename_columns([new for _, new in picks])

    def count_natively(self, native: Any, wanted: Sequence[tuple[str, str]]) -> list[int] | None:
        if type(native).__name__ != "Table":
            return None
        import pyarrow.compute as pc  # type: ignore[import-untyped]

        def count(how: str, name: str) -> int:
            column = native.column(name)
            if how == "null":
                return int(column.null_count)
            return int(pc.sum(pc.is_nan(column)).as_py() or 0)

        return [count(how, name) for how, name in wanted]


class Spark(Dialect):
    engine = "pyspark"

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        # toDF names every column by position (``a.b`` in col() would be a struct's field);
        # the columns not picked get placeholders no picked name can be
        new = {k: name for k, name in picks}
        taken = set(new.values())
        names = []
        for k in range(len(columns)):
            if k in new:
                names.append(new[k])
                continue
            spare = f"_x{k}"
            while spare in taken:
                spare += "_"
            names.append(spare)
        if [k for k, _ in picks] == list(range(len(columns))):
            return native.toDF(*names)
        from pyspark.sql import functions as F

        return native.toDF(*names).select(*(F.col(f"`{_backticked(n)}`") for _, n in picks))

    def with_row_index(self, native: Any, name: str) -> Any:
        import narwhals as nw
        from pyspark.sql import functions as F

        return nw.from_native(native.withColumn(name, F.monotonically_increasing_id()))

    def with_epoch_ms(self, frame: Any, name: str, aware: bool) -> Any:
        import narwhals as nw
        from pyspark.sql import functions as F

        native = frame.to_native()
        column = F.col(f"`{_backticked(name)}`").cast("timestamp")
        return nw.from_native(native.withColumn("__ms", F.unix_millis(column)))

    def from_epoch_ms(self, frame: Any, bucket: str) -> Any:
        import narwhals as nw

        return frame.with_columns(nw.col("__ms").alias(bucket))


class Ibis(Dialect):
    engine = "ibis"

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        # an Ibis table's column by indexing: the name is a key, never parsed
        return native.select(**{new: native[columns[k]] for k, new in picks})

    def with_row_index(self, native: Any, name: str) -> Any:
        import ibis
        import narwhals as nw

        return nw.from_native(native.mutate(**{name: ibis.row_number()}))

    def with_epoch_ms(self, frame: Any, name: str, aware: bool) -> Any:
        # epoch seconds are enough: a bucket is at least a second
        import narwhals as nw

        native = frame.to_native()
        return nw.from_native(native.mutate(__ms=native[name].epoch_seconds() * 1000))

    def utc_truncated(self, frame: Any, name: str, unit: str, bucket: str) -> Any | None:
        # narwhals implements no convert_time_zone for Ibis: the instant as epoch seconds
        import narwhals as nw

        if unit not in _TRUNCATED:
            raise ChartkitError(f"utc_truncated floors to a month, quarter or year, not {unit!r}")
        native = frame.to_native()
        wall = native[name].epoch_seconds().as_timestamp("s")
        return nw.from_native(native.mutate(**{bucket: wall.truncate(_TRUNCATED[unit])}))

    def from_epoch_ms(self, frame: Any, bucket: str) -> Any:
        import narwhals as nw

        return frame.with_columns(nw.col("__ms").alias(bucket))


_TRUNCATED: Final = {"month": "M", "quarter": "Q", "year": "Y"}  # (Ibis' unit letters)

DIALECTS: Final[dict[str, Dialect]] = {
    d.engine: d for d in (DuckDB(), Polars(), PyArrow(), Spark(), Ibis())
}
"""The dialect of each engine chartkit reads natively, by the engine's name."""


def dialect_of(engine: str) -> Dialect:
    """The dialect of ``engine`` (a name ``chartkit.read.engines`` gives); narwhals' own for
    any other frame narwhals reads.

    >>> dialect_of("duckdb").engine, dialect_of("pyarrow").exact_median
    ('duckdb', False)
    >>> dialect_of("dask").engine
    'narwhals'
    """
    return DIALECTS.get(engine, _NARWHALS)


def _backticked(name: str) -> str:
    return name.replace("`", "``")


_NARWHALS: Final = Dialect()
