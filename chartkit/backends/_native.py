"""How a query backend names columns and reads its answers back.

Every query names a frame's columns by position (``positional``: the i-th column is
``_k<i>``), renamed natively by the reading's dialect (``chartkit.read.dialects``), so no
column name of a tool's is ever parsed by an engine (a dot, a quote, a NUL, regex syntax,
``*``, an SQL keyword), and no helper column (``__bucket``, ``__ms``, …, never of that form)
can take a data column's place. The few operations narwhals lacks (epoch milliseconds, a time
bucket, a month in UTC) are the dialect's, picked once at the door (``EngineReading.dialect``).
"""

from __future__ import annotations

from typing import Any, Final

import pandas as pd

from chartkit.read.dialects import quote
from chartkit.read.engines import EngineReading, native_frame, query_errors
from chartkit.read.rowset import narwhals_to_pandas

__all__ = [
    "ALIAS",
    "aliases",
    "bucket_starts",
    "collect",
    "named",
    "positional",
    "quote",
]

ALIAS: Final = "_k"
"""The engine's name for the i-th column is ``_k<i>``."""


def aliases(reading: EngineReading) -> dict[str, str]:
    """Each column's name in the engine's queries (``positional``), by its real name."""
    return {name: f"{ALIAS}{i}" for i, name in enumerate(reading.columns)}


def positional(reading: EngineReading) -> Any:
    """The frame with its columns renamed by position to ``_k<i>`` (``aliases``), natively
    (``Dialect.by_position``: DuckDB's positional references, polars' ``nth``, pyarrow's and
    Spark's column lists, Ibis' indexing), as a narwhals frame."""
    import narwhals as nw

    new = list(aliases(reading).values())
    native = reading.dialect.by_position(
        native_frame(reading), reading.columns, list(enumerate(new))
    )
    return nw.from_native(native)


def named(reading: EngineReading, frame: Any) -> Any:
    """A query over ``positional(reading)`` (a narwhals frame of the aliases, in order) as the
    engine's own frame again, its columns renamed natively back to their real names: no name
    is parsed."""
    return reading.dialect.by_position(
        frame.to_native(), list(aliases(reading).values()), list(enumerate(reading.columns))
    )


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


def bucket_starts(values: pd.Series, seconds: int) -> pd.Series:
    """The buckets ``with_bucket`` made, as their starts (naive UTC wall clock timestamps)."""
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        return values.astype("datetime64[ns]").reset_index(drop=True)
    return pd.Series(pd.to_datetime(values.astype("int64") * int(seconds), unit="s"))
