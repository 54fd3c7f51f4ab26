"""Backends: one result's rows where they live, behind one contract (``Backend``).

- ``MemoryBackend`` (``chartkit.backends.memory``): a pandas frame — rows a tool returned as a
  list of dicts, or a frame — counted and reduced in numpy with the chart's own fast paths.
- ``QueryBackend`` (``chartkit.backends.query``): an engine's frame — DuckDB, polars (lazy or
  eager), pyarrow, Ibis, Spark — counted and reduced by queries in the engine (narwhals'
  expressions, columns named by position), so only counts and groups leave it.

``source_for(reading, …)`` is the door of ``view()``: the rows it charts as a ``Source`` its one
pipeline asks (``MemorySource``, or ``EngineSource`` over one ``QueryBackend`` when an engine
frame's rows stay in the engine). ``backend_for(data)`` picks a backend, once, at the door:
an engine frame (or its ``EngineReading``) gets the query backend, anything ``read_rowset``
reads gets the in-memory one. A new engine is recognised in ``chartkit.read.engines`` and
answered here; its contract tests are the shared ones (tests/test_backends.py), run against
every backend.

>>> b = backend_for([{"host": "a", "lun": 1}, {"host": "a", "lun": 3}, {"host": "b", "lun": 2}])
>>> b.engine, b.rows, b.facts(["host"])["host"].distinct
('pandas', 3, 2)
>>> b.reduce(Grouping(("host",), ("lun",), "sum")).frame.to_dict("list")
{'host': ['a', 'b'], 'lun': [4.0, 2.0]}
>>> binned = Grouping(("lun",), bins=(("lun", (0.0, 2.0, 4.0)),), where=(
...     Condition("host", "eq", "a"),))
>>> got = b.reduce(binned)
>>> got.frame["lun"].tolist(), got.rows
([0, 1], ((1, 1),))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from chartkit.backends._contract import (
    AGGREGATIONS,
    MAX_PAGE,
    MAX_SAMPLE,
    AnyOf,
    Backend,
    ColumnFacts,
    Condition,
    Grouping,
    Groups,
    Planning,
    Source,
    Term,
    Told,
    negated,
)
from chartkit.errors import ChartkitError

if TYPE_CHECKING:
    from chartkit.columns import ColumnDeclaration
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
    "backend_for",
    "negated",
    "source_for",
]


def backend_for(data: object) -> Backend:
    """The backend that answers for ``data``: a query backend for an engine frame (or an
    ``EngineReading``), the in-memory one for rows or a pandas frame (or a ``RowsetReading``).

    Raises ``ChartkitError`` for anything that is not rows.
    """
    from chartkit.backends.memory import MemoryBackend
    from chartkit.backends.query import QueryBackend
    from chartkit.read.engines import EngineReading, read_engine_frame
    from chartkit.read.rowset import RowsetReading, read_rowset

    reading = data if isinstance(data, RowsetReading) else read_engine_frame(data)
    if reading is None:
        reading = read_rowset(data)
    if isinstance(reading, EngineReading):
        return QueryBackend(reading)
    if reading is None:
        raise ChartkitError(
            f"a {type(data).__name__} is not rows: a backend holds a list of objects, a "
            "dataframe or an engine frame, with at least one row"
        )
    return MemoryBackend(reading.to_frame())


def source_for(
    reading: RowsetReading | None,
    declaration: Mapping[str, ColumnDeclaration] | None,
    max_points: object,
) -> Source | None:
    """The ``Source`` ``view()`` asks of ``reading`` (None when it is not rows): an engine frame
    over ``max_points`` rows stays in the engine (``EngineSource``, whose profiling pass is
    counted here, before the check); any other rows are planned in memory (``MemorySource``;
    an engine frame of at most ``max_points`` rows leaves the engine whole, its CSV text
    parsed as ``chartkit.read.csvread`` parses it)."""
    from chartkit.backends.memory import MemorySource
    from chartkit.backends.pushdown import EngineSource, collected_rows
    from chartkit.read.engines import EngineReading

    if reading is None:
        return None
    if not isinstance(reading, EngineReading):
        return MemorySource(reading)
    over = not isinstance(max_points, int) or reading.total > max_points
    if over:  # (a max_points that is no integer is plan_view's to refuse, rows unread)
        return EngineSource(reading, declaration, max_points)  # type: ignore[arg-type]
    return MemorySource(reading, collected_rows(reading, declaration), planned_with=False)
