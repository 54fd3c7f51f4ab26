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
- ``exact_median``: whether the engine's median is exact (pyarrow's is a t-digest).

``EngineReading.dialect`` is the reading's, chosen once by ``dialect_of(engine)``; no other
module branches on an engine's name. Only names chartkit chose itself (``_k0``, ``c0``,
``__bucket``) ever reach SQL text, through ``quote``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final

from chartkit.errors import ChartkitError

__all__ = [
    "DIALECTS",
    "Dialect",
    "DuckDB",
    "Ibis",
    "Polars",
    "PyArrow",
    "Spark",
    "dialect_of",
    "quote",
]


def quote(name: str) -> str:
    """An identifier in DuckDB SQL text: the one quoting function (only helper and alias names
    reach it; tests/test_engine_names.py holds it to generated names)."""
    if "\x00" in name:
        raise ChartkitError("a DuckDB identifier cannot hold a NUL character")
    return '"' + name.replace('"', '""') + '"'


class Dialect:
    """narwhals' own answers, for an engine narwhals reads with no help (and the base of every
    dialect: a dialect overrides only what its engine does differently)."""

    engine: ClassVar[str] = "narwhals"
    exact_median: ClassVar[bool] = True
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

    def project(self, native: Any, exprs: Sequence[tuple[str, str]]) -> Any:
        """``native`` projected to SQL expressions over positions (``sql_helpers`` dialects)."""
        raise ChartkitError(f"{self.engine} takes no SQL text (only DuckDB's dialect does)")


class DuckDB(Dialect):
    engine = "duckdb"
    sql_helpers = True

    def native_types(self, native: Any) -> dict[str, str]:
        return {c: str(t).strip('"') for c, t in zip(native.columns, native.types, strict=True)}

    def by_position(
        self, native: Any, columns: Sequence[str], picks: Sequence[tuple[int, str]]
    ) -> Any:
        return self.project(native, [(f"#{k + 1}", new) for k, new in picks])

    def project(self, native: Any, exprs: Sequence[tuple[str, str]]) -> Any:
        """``native`` projected to ``exprs``: (SQL over positional references and literals
        only, the output's name). The names are quoted by ``quote`` into one SQL text (DuckDB's
        expression API projects in time quadratic in the columns: minutes for 20,000); a name
        holding a NUL, which no SQL identifier holds, is given by the expression API instead."""
        if not any("\x00" in name for _, name in exprs):
            return native.project(", ".join(f"{sql} AS {quote(name)}" for sql, name in exprs))
        import duckdb

        return native.project(*(duckdb.SQLExpression(sql).alias(name) for sql, name in exprs))

    def with_row_index(self, native: Any, name: str) -> Any:
        import narwhals as nw

        return nw.from_native(native.project(f"*, row_number() OVER () - 1 AS {quote(name)}"))

    def with_epoch_ms(self, frame: Any, name: str, aware: bool) -> Any:
        import narwhals as nw

        q = quote(name)
        at = q if aware else f"CAST({q} AS TIMESTAMP)"
        # epoch_ms truncates toward zero: a time before 1970 with a fraction of a millisecond
        # is floored here, as every other engine floors it (exact, in integers)
        ms = f"epoch_ms({at}) - CASE WHEN epoch_us({at}) < epoch_ms({at}) * 1000 THEN 1 ELSE 0 END"
        return nw.from_native(frame.to_native().project(f"*, {ms} AS __ms"))

    def with_bucket(self, frame: Any, name: str, aware: bool, seconds: int, bucket: str) -> Any:
        # time_bucket's start, a UTC wall clock: the cheapest grouping key in DuckDB
        import narwhals as nw

        q = quote(name)
        at = f"timezone('UTC', {q})" if aware else f"CAST({q} AS TIMESTAMP)"
        return nw.from_native(
            frame.to_native().project(
                f"*, time_bucket(INTERVAL '{int(seconds)} seconds', {at}, "
                f"TIMESTAMP '1970-01-01') AS {quote(bucket)}"
            )
        )

    def utc_truncated(self, frame: Any, name: str, unit: str, bucket: str) -> Any | None:
        # the zone is the connection's, not the type's: narwhals cannot convert it
        import narwhals as nw

        if unit not in _TRUNCATED:
            raise ChartkitError(f"utc_truncated floors to a month, quarter or year, not {unit!r}")
        q = quote(name)
        return nw.from_native(
            frame.to_native().project(
                f"*, date_trunc('{unit}', timezone('UTC', {q})) AS {quote(bucket)}"
            )
        )

    def from_epoch_ms(self, frame: Any, bucket: str) -> Any:
        # the integer is kept (narwhals has no from-epoch here), converted once collected
        import narwhals as nw

        return frame.with_columns(nw.col("__ms").alias(bucket))


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
