"""Table files as ``chartkit check``/``render`` and ``chart_file`` read them: declared by their
own schema, and read where they lie in DuckDB when they are large.

Two rules, shared by the command line and the MCP server so that both say the same:

- **A typed file is its own declaration** (``own_declaration``): a Parquet file without a
  declaration is checked by the one ``chartkit.stage`` wrote into it, else by its Arrow schema
  (``result_columns_from``), and the result says ``declared by the file's schema``
  (``FILE_SCHEMA``). A declaration the caller passes replaces it, and the result says that
  too (``over_own_declaration``); the words are ``chartkit.read.schemas``'.
- **A large table goes to the engine** (``large_table``, ``open_declared``): a ``.parquet`` of
  more than ``ENGINE_ROWS`` rows, or a ``.parquet`` or ``.csv`` of more than ``ENGINE_MB``
  megabytes, is opened with ``chartkit.read.engines.open_table`` when DuckDB is installed, so
  the check and the chart run as queries and its rows never enter Python.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import stat
from pathlib import Path
from typing import Any, Final

from chartkit.errors import ChartkitError, SchemaColumnsError
from chartkit.read.rowset import read_rowset
from chartkit.read.schemas import FILE_SCHEMA, result_columns_from
from chartkit.result import ToolResult

__all__ = [
    "ENGINE_MB",
    "ENGINE_ROWS",
    "ENGINE_ROWS_ENV",
    "engine_rows",
    "large_table",
    "open_declared",
    "over_own_declaration",
    "own_declaration",
    "parquet_rows",
    "with_own_declaration",
]

ENGINE_ROWS: Final = 1_000_000
"""A ``.parquet`` file of more rows than this is checked and charted in DuckDB (when installed):
in memory, 5,000,000 rows took 12.5 s and 2.9 GB; in DuckDB 0.5 s and 189 MB."""
ENGINE_MB: Final = 100
"""A ``.parquet`` or ``.csv`` file of more megabytes than this goes to DuckDB alike."""
ENGINE_ROWS_ENV: Final = "CHARTKIT_ENGINE_ROWS"
"""Sets the rows over which a ``.parquet`` file goes to DuckDB (default ``ENGINE_ROWS``)."""

def engine_rows() -> int:
    """The rows over which a ``.parquet`` goes to DuckDB: ``ENGINE_ROWS``, or ``ENGINE_ROWS_ENV``.

    A value that is not a whole number of rows raises ``ChartkitError`` saying so.
    """
    raw = os.environ.get(ENGINE_ROWS_ENV)
    if not raw:
        return ENGINE_ROWS
    try:
        rows = int(raw)
    except ValueError:
        rows = -1
    if rows < 0:
        raise ChartkitError(f"{ENGINE_ROWS_ENV} is {raw!r}, not a whole number of rows (>= 0)")
    return rows


def parquet_rows(path: Path) -> int | None:
    """A Parquet file's rows, from its footer; None when it cannot be read (the reader says
    why) or pyarrow is not installed."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        return int(pq.read_metadata(path).num_rows)
    except Exception:  # not Parquet, damaged, no pyarrow: the reading that follows says so
        return None


def large_table(path: Path, name: str) -> str | None:
    """Why the table file at ``path`` (called ``name`` in the sentence) is read in DuckDB — over
    ``engine_rows()`` rows or ``ENGINE_MB`` megabytes, and DuckDB installed — or None to read
    it in memory.

    A file that is not a regular ``.parquet`` or ``.csv`` is None: its reader says what is wrong.
    """
    suffix = path.suffix.lower()
    if suffix not in (".parquet", ".csv") or importlib.util.find_spec("duckdb") is None:
        return None
    try:
        info = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    if info.st_size > ENGINE_MB * 1_000_000:
        return f"{name} is {info.st_size / 1_000_000:,.0f} MB, over {ENGINE_MB} MB"
    limit = engine_rows()
    rows = parquet_rows(path) if suffix == ".parquet" else None
    if rows is not None and rows > limit:
        return f"{name} holds {rows:,} rows, over {limit:,}"
    return None


def own_declaration(source: str | Path | bytes) -> tuple[object | None, str | None]:
    """The declaration a Parquet file carries, read from its footer only, and where it came
    from (``declared_by``): the one ``chartkit.stage`` wrote into its metadata, else the one
    its Arrow schema states (``result_columns_from``; a column no column type holds, a struct
    or a list, is left undeclared), said ``FILE_SCHEMA``. ``(None, None)`` when it declares no
    column, or pyarrow is not installed; a footer that cannot be read raises ``ChartkitError``.

    A typed file is its own declaration: its schema says exactly what every value is.
    """
    from chartkit.read.parquet import METADATA_KEY

    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return None, None
    try:
        schema = pq.read_schema(pa.BufferReader(source) if isinstance(source, bytes) else source)
    except (pa.ArrowException, OSError) as exc:
        raise ChartkitError(f"the Parquet file's schema cannot be read: {exc}") from None
    staged = (schema.metadata or {}).get(METADATA_KEY.encode())
    if staged is not None:
        try:
            record = json.loads(staged.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            record = None
        if isinstance(record, dict) and record.get("resultColumns") is not None:
            return record["resultColumns"], None
    try:
        return result_columns_from(schema, unmappable="leave"), FILE_SCHEMA
    except SchemaColumnsError:
        return None, None


def over_own_declaration(
    source: str | Path | bytes, declared_by: str | None, passed: str
) -> str | None:
    """Where the declaration passed for the table file ``source`` came from: ``passed``
    (``COLUMNS_OVER_FILE_SCHEMA`` or ``ARGUMENT_OVER_FILE_SCHEMA``) when ``source`` is a Parquet
    file that declares its own columns, so the result says the passed one replaced it; else
    ``declared_by`` as given.

    Only the footer is read; a file whose footer cannot be read keeps ``declared_by``, and its
    reader says what is wrong.
    """
    if not _is_parquet(source):
        return declared_by
    try:
        own, _ = own_declaration(source)
    except ChartkitError:
        return declared_by
    return passed if own is not None else declared_by


def _is_parquet(source: str | Path | bytes) -> bool:
    if isinstance(source, bytes):
        return source[:4] == b"PAR1"
    return Path(source).suffix.lower() == ".parquet"


def with_own_declaration(result: ToolResult, source: str | Path | bytes) -> ToolResult:
    """``result``, read from the Parquet file ``source`` without a declaration, declared by the
    file's own (``own_declaration``); ``result`` itself when it is declared or the file
    declares nothing."""
    from chartkit.columns import assert_result_columns

    if result.result_columns is not None:
        return result
    own, by = own_declaration(source)
    if own is None:
        return result
    return dataclasses.replace(
        result, result_columns=assert_result_columns(result.tool, own), declared_by=by
    )


def open_declared(
    path: str | Path,
    declared: object = None,
    declared_by: str | None = None,
    *,
    tool: str | None = None,
    connection: Any = None,
) -> ToolResult:
    """The table file at ``path`` opened where it lies (``open_table``) as one result, declared
    by ``declared`` (from ``declared_by``), else, for a ``.parquet``, by its own declaration.

    Its schema and row count are read once here, so a file DuckDB cannot scan raises
    ``ChartkitError`` at the door rather than in the check.
    """
    from chartkit.columns import assert_result_columns
    from chartkit.read.engines import open_table

    name = tool or Path(path).stem or "table"
    table = open_table(path, connection=connection)
    if declared is None and Path(path).suffix.lower() == ".parquet":
        declared, declared_by = own_declaration(path)
    result = ToolResult(
        name,
        table,
        result_columns=assert_result_columns(name, declared) if declared else None,
        declared_by=declared_by,
    )
    read_rowset(table)  # the schema and row count: a file DuckDB cannot scan fails here
    return result
