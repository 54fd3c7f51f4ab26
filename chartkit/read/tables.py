"""Result files that are tables, not JSON: a ``.csv`` read by a declaration, or a ``.parquet``.

One door for the command line and the explorer: ``read_table(data, name, result_columns)``
answers one ``ToolResult`` for a ``.csv`` (cells parsed by the declared types,
``chartkit.read.csvread``) or a ``.parquet`` (typed by Arrow; a file ``chartkit.stage`` wrote brings
its own declaration, ``chartkit.read.parquet``). ``result_columns``, when given, is the
declaration to read by; for a Parquet file it replaces the file's own.
"""

from __future__ import annotations

from pathlib import Path

from chartkit.columns import assert_result_columns
from chartkit.errors import ToolResultError
from chartkit.result import ToolResult

__all__ = ["TABLE_SUFFIXES", "is_table", "read_table"]

TABLE_SUFFIXES = (".csv", ".parquet")
"""The file suffixes ``read_table`` reads."""


def is_table(name: str) -> bool:
    """True when ``name`` ends in a suffix ``read_table`` reads.

    >>> is_table("luns.CSV"), is_table("run.jsonl")
    (True, False)
    """
    return Path(name).suffix.lower() in TABLE_SUFFIXES


def read_table(
    data: bytes | Path, name: str | None = None, result_columns: object = None
) -> ToolResult:
    """Read a ``.csv`` or ``.parquet`` file (its bytes named ``name``, or a path) as one result.

    A malformed file raises ``ToolResultError`` naming it; a malformed declaration raises
    ``ResultColumnsError``; Parquet without pyarrow raises ``MissingExtraError`` with the
    install line.

    >>> read_table(b"lun\\n0\\n\\n", "luns.csv", {"lun": "number"}).rows
    [{'lun': 0}]
    """
    if isinstance(data, Path):
        name = name or data.name
        data = data.read_bytes()
    label = Path(name or "input").name
    suffix = Path(label).suffix.lower()
    if suffix == ".csv":
        from chartkit.read.csvread import read_csv

        return read_csv(data, result_columns, name=label)
    if suffix != ".parquet":
        raise ToolResultError(
            f"{label} is not a table file chartkit reads ({', '.join(TABLE_SUFFIXES)}); a "
            ".json or .jsonl tool result is read with chartkit.read_results"
        )
    from chartkit.read.parquet import read_parquet

    result = read_parquet(data, name=label)
    if result_columns is None:
        return result
    return ToolResult(
        result.tool,
        result.rows,
        result_columns=assert_result_columns(result.tool, result_columns),
        call_id=result.call_id,
    )
