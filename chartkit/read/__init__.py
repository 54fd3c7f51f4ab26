"""The read stage, the one door: what a tool returned → a reading, or None when it is no rowset.

- ``chartkit.read.rowset``: ``read_rowset`` — a list of dicts or a pandas frame →
  ``RowsetReading`` (each column's values pulled out once, ``chartkit.read.columnar``, in C
  where ``chartkit._speedups`` is built; ``chartkit.read.speedups`` says whether it is).
- ``chartkit.read.engines``: a frame that stays in its engine (DuckDB, polars, pyarrow, Ibis,
  Spark) → ``EngineReading``: its schema and row count, never its rows.
- ``chartkit.read.csvread``, ``chartkit.read.parquet``, ``chartkit.read.tables``: result files
  that are tables (``.csv`` read by the declaration, ``.parquet`` with a staged file's own).
- ``chartkit.read.schemas``: a declaration read from a schema (JSON Schema, pydantic, Arrow,
  DuckDB ``DESCRIBE``) — the types it states, never a value.

Each module is imported on its own: importing this package imports none of them.
"""

from __future__ import annotations

__all__: list[str] = []
