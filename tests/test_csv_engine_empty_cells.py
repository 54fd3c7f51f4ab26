"""A CSV opened in DuckDB whose declared cell is empty charts as the same CSV read in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

import chartkit
from chartkit.read.engines import open_table

pytest.importorskip("duckdb")

DECLARED = {"ts": "date", "lun": {"type": "number", "nullable": True}, "host": "string"}


@pytest.mark.parametrize("empty", ["lun", "host", "ts"])
def test_an_empty_declared_cell_is_missing_in_duckdb_as_in_memory(
    tmp_path: Path, empty: str
) -> None:
    rows = [
        {"ts": "2024-01-01", "lun": "1", "host": "a"},
        {"ts": "2024-01-02", "lun": "2", "host": "b"},
        {"ts": "2024-01-03", "lun": "3", "host": "a"},
    ]
    rows[1][empty] = ""
    path = tmp_path / "mappings.csv"
    path.write_text(
        "ts,lun,host\n" + "".join(f"{r['ts']},{r['lun']},{r['host']}\n" for r in rows),
        encoding="utf-8",
    )
    in_engine = chartkit.view(open_table(path), DECLARED, tool="mappings")
    in_memory = chartkit.view(chartkit.read_csv(path, DECLARED), DECLARED, tool="mappings")
    assert in_engine.kind == in_memory.kind
    assert (in_engine.mark, in_engine.reason) == (in_memory.mark, in_memory.reason)
    assert in_engine.notes == in_memory.notes
    assert [f.message for f in in_engine.check.findings] == [
        f.message for f in in_memory.check.findings
    ]
