"""How a query backend names columns, quotes identifiers and reads time, engine by engine.

Every query names a frame's columns by position (``positional``: the i-th column is
``_k<i>``), renamed natively, so no column name of a tool's is ever parsed by an engine (a
dot, a quote, a NUL, regex syntax, ``*``, an SQL keyword), and no helper column (``__bucket``,
``__ms``, …, never of that form) can take a data column's place. The few operations narwhals
lacks (epoch milliseconds on DuckDB, Spark and Ibis) are the engine's own, here and only here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import pandas as pd

from chartkit.errors import ChartkitError
from chartkit.read.engines import EngineReading, native_frame, query_errors
from chartkit.read.rowset import narwhals_to_pandas

__all__ = [
    "ALIAS",
    "aliases",
    "bucket_starts",
    "collect",
    "fresh",
    "from_epoch_ms",
    "named",
    "positional",
    "quote",
    "with_bucket",
    "with_epoch_ms",
]

ALIAS: Final = "_k"
"""The engine's name for the i-th column is ``_k<i>``."""


def aliases(reading: EngineReading) -> dict[str, str]:
    """Each column's name in the engine's queries (``positional``), by its real name."""
    return {name: f"{ALIAS}{i}" for i, name in enumerate(reading.columns)}


def fresh(base: str, taken: Sequence[str]) -> str:
    """A helper column's name in an answer beside data columns: ``base``, or ``base`` with
    underscores appended until no data column is named so."""
    names = set(taken)
    while base in names:
        base += "_"
    return base


def quote(name: str) -> str:
    """An identifier in DuckDB SQL text: the one quoting function (only helper and alias names
    reach it; tests/test_engine_names.py holds it to generated names)."""
    if "\x00" in name:
        raise ChartkitError("a DuckDB identifier cannot hold a NUL character")
    return '"' + name.replace('"', '""') + '"'


def positional(reading: EngineReading) -> Any:
    """The frame with its columns renamed by position to ``_k<i>`` (``aliases``), natively:
    DuckDB's positional references, polars' ``nth``, pyarrow's and Spark's column lists."""
    import narwhals as nw

    native = native_frame(reading)
    new = list(aliases(reading).values())
    if reading.engine == "duckdb":
        native = native.project(", ".join(f"#{i + 1} AS {n}" for i, n in enumerate(new)))
    elif reading.engine == "polars":
        import polars as pl

        native = native.select([pl.nth(i).alias(n) for i, n in enumerate(new)])
    elif reading.engine == "pyarrow":
        native = native.rename_columns(new)
    elif reading.engine == "pyspark":
        native = native.toDF(*new)
    elif reading.engine == "ibis":
        native = native.rename(dict(zip(new, reading.columns, strict=True)))
    else:  # narwhals reads it: its own rename, from real names
        return nw.from_native(native).rename(dict(zip(reading.columns, new, strict=True)))
    return nw.from_native(native)


def named(reading: EngineReading, frame: Any) -> Any:
    """A query over ``positional(reading)`` (a narwhals frame) as the engine's own frame again,
    its columns renamed natively from their aliases back to their real names: no name is
    parsed (DuckDB expressions aliased, polars' ``nth``, pyarrow's and Spark's column lists)."""
    import narwhals as nw

    names = list(reading.columns)
    new = list(aliases(reading).values())
    native = frame.to_native()
    if reading.engine == "duckdb":
        import duckdb

        return native.project(
            *(duckdb.ColumnExpression(a).alias(n) for a, n in zip(new, names, strict=True))
        )
    if reading.engine == "polars":
        import polars as pl

        return native.select([pl.nth(i).alias(n) for i, n in enumerate(names)])
    if reading.engine == "pyarrow":
        return native.rename_columns(names)
    if reading.engine == "pyspark":
        return native.toDF(*names)
    if reading.engine == "ibis":
        return native.rename(dict(zip(names, new, strict=True)))
    return nw.to_native(frame.rename(dict(zip(new, names, strict=True))))


def collect(
    reading: EngineReading, columns: Any, step: str, query: Any = None, *, named: bool = True
) -> pd.DataFrame:
    """A query's answer as a pandas frame, its alias columns named back by their real names
    (``named=False``: left as aliases, for a caller that sets the names itself beside helper
    columns); an engine's error says which step over which columns failed."""
    import narwhals as nw

    from chartkit._safe import name_list

    what = f"run the chart's {step} query over column(s) {name_list(columns)}"
    alias = aliases(reading)
    with query_errors(reading, what):
        frame = (
            query if query is not None else positional(reading).select(*(alias[c] for c in columns))
        )
        if isinstance(frame, nw.LazyFrame):
            frame = frame.collect()
        out: pd.DataFrame = narwhals_to_pandas(frame)  # any names, any dtypes (Int128, …)
    if not named:
        return out
    real = {a: name for name, a in alias.items()}
    out.columns = [real.get(c, c) for c in out.columns]  # a list: no name is parsed
    return out


def with_epoch_ms(frame: Any, name: str, engine: str, aware: bool) -> Any:
    """``frame`` with ``__ms``: ``name``'s (an alias) milliseconds since the epoch.

    narwhals has no ``dt.timestamp`` for DuckDB, Spark and Ibis, so those use their own function.
    """
    import narwhals as nw

    if engine == "duckdb":
        q = quote(name)
        return nw.from_native(
            frame.to_native().project(
                f"*, epoch_ms({q if aware else f'CAST({q} AS TIMESTAMP)'}) AS __ms"
            )
        )
    if engine == "pyspark":
        from pyspark.sql import functions as F

        native = frame.to_native()
        return nw.from_native(
            native.withColumn("__ms", F.unix_millis(F.col(name).cast("timestamp")))
        )
    if engine == "ibis":  # epoch seconds are enough: a bucket is at least a second
        native = frame.to_native()
        return nw.from_native(native.mutate(__ms=native[name].epoch_seconds() * 1000))
    return frame.with_columns(nw.col(name).dt.timestamp("ms").alias("__ms"))


def utc_truncated(frame: Any, name: str, engine: str, unit: str, bucket: str) -> Any:
    """``frame`` with ``bucket``: an aware ``name`` (an alias) truncated to the start of its
    ``unit`` (month, quarter, year) in UTC, a naive UTC wall clock — where narwhals cannot
    convert the zone: DuckDB keeps it in the connection, not the type, and narwhals implements
    no ``convert_time_zone`` for Ibis (which reads the instant as epoch seconds: a month starts
    on a whole second)."""
    import narwhals as nw

    native = frame.to_native()
    if engine == "duckdb":
        q = quote(name)
        return nw.from_native(
            native.project(f"*, date_trunc('{unit}', timezone('UTC', {q})) AS {quote(bucket)}")
        )
    if engine == "ibis":
        wall = native[name].epoch_seconds().as_timestamp("s")
        return nw.from_native(native.mutate(**{bucket: wall.truncate(_IBIS_UNITS[unit])}))
    raise ChartkitError(f"utc_truncated reads a DuckDB or Ibis frame, not {engine}")


_IBIS_UNITS: Final = {"month": "M", "quarter": "Q", "year": "Y"}


def with_bucket(frame: Any, name: str, engine: str, aware: bool, seconds: int, bucket: str) -> Any:
    """``frame`` with ``bucket``: the bucket of ``seconds`` from the epoch that ``name`` (an
    alias) falls in — its start, a UTC wall clock timestamp, in DuckDB (``time_bucket``, the
    cheapest grouping key there); its index (epoch seconds // ``seconds``) elsewhere.
    ``bucket_starts`` reads either back as the buckets' starts."""
    import narwhals as nw

    if engine == "duckdb":
        q = quote(name)
        at = f"timezone('UTC', {q})" if aware else f"CAST({q} AS TIMESTAMP)"
        return nw.from_native(
            frame.to_native().project(
                f"*, time_bucket(INTERVAL '{int(seconds)} seconds', {at}, "
                f"TIMESTAMP '1970-01-01') AS {quote(bucket)}"
            )
        )
    out = with_epoch_ms(frame, name, engine, aware)
    return out.with_columns((nw.col("__ms") // (int(seconds) * 1000)).alias(bucket))


def bucket_starts(values: pd.Series, seconds: int) -> pd.Series:
    """The buckets ``with_bucket`` made, as their starts (naive UTC wall clock timestamps)."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values.astype("datetime64[ns]").reset_index(drop=True)
    return pd.Series(pd.to_datetime(values.astype("int64") * int(seconds), unit="s"))


def from_epoch_ms(frame: Any, engine: str, bucket: str) -> Any:
    """``bucket``: the timestamp (UTC wall clock) of ``__ms``; DuckDB, Spark and Ibis keep the
    integer (narwhals has no from-epoch there), converted once collected."""
    import narwhals as nw

    if engine in ("duckdb", "pyspark", "ibis"):
        return frame.with_columns(nw.col("__ms").alias(bucket))
    return frame.with_columns(nw.col("__ms").cast(nw.Datetime("ms")).alias(bucket))
