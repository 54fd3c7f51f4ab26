"""A typed file is its own declaration, said in the same words everywhere (issue 38, item 15).

A Parquet file without a declaration is checked by its own schema, and every surface — the
command line's ``check`` and ``render`` (run as subprocesses), ``chart_file`` over a real
stdio MCP server, the explorer opening the file (Streamlit's ``AppTest``) — says so in the
words ``chartkit.read.schemas.DECLARATION_SOURCES`` holds. A declaration passed in its place
(``--columns``, ``resultColumns``) is the one checked, and the surface says it replaced the
file's schema.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _explorer import APP, ok, texts
from streamlit.testing.v1 import AppTest

import chartkit.explorer._logic as ex
from chartkit.read.schemas import (
    ARGUMENT_OVER_FILE_SCHEMA,
    COLUMNS_OVER_FILE_SCHEMA,
    DECLARATION_SOURCES,
    FILE_SCHEMA,
    declared_by_text,
)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

BY_SCHEMA = "declared by the file's schema"
BY_COLUMNS = "declared by --columns, in place of the file's schema"
BY_ARGUMENT = "declared by the resultColumns passed, in place of the file's schema"
ENGINES = pytest.mark.parametrize("engine", [[], ["--engine", "duckdb"]], ids=["memory", "duckdb"])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chartkit", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ},
    )


@pytest.fixture
def p95(tmp_path: Path) -> Path:
    """``p95.parquet``: a string ``region`` and a float ``p95_ms``, three rows."""
    path = tmp_path / "p95.parquet"
    table = pa.table({"region": ["eu", "us", "ap"], "p95_ms": [1.5, 2.5, 3.0]})
    pq.write_table(table, path)
    return path


def test_the_words_are_the_declaration_sources_ones() -> None:
    assert declared_by_text(FILE_SCHEMA) == BY_SCHEMA
    assert declared_by_text(COLUMNS_OVER_FILE_SCHEMA) == BY_COLUMNS
    assert declared_by_text(ARGUMENT_OVER_FILE_SCHEMA) == BY_ARGUMENT
    for source in (FILE_SCHEMA, COLUMNS_OVER_FILE_SCHEMA, ARGUMENT_OVER_FILE_SCHEMA):
        assert source in DECLARATION_SOURCES


# --- the command line ----------------------------------------------------------------------


@ENGINES
def test_check_says_the_file_s_schema_and_that_columns_replaced_it(
    p95: Path, engine: list[str]
) -> None:
    done = run_cli("check", str(p95), *engine)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == (
        f"p95 (3 rows, {BY_SCHEMA}): clean under warn — each of the 2 declared columns holds "
        "its declared type"
    )
    given = run_cli("check", str(p95), "--columns", '{"p95_ms": "string"}', *engine)
    assert given.returncode == 0
    lines = given.stdout.splitlines()
    assert lines[0] == f"p95 (3 rows, {BY_COLUMNS}): 1 finding under warn"
    assert lines[1].startswith(
        "  - column-type-mismatch: 'p95' declares column 'p95_ms' as string, and 3 of 3 rows "
        "hold something else"
    )


def test_columns_on_a_csv_replaces_no_schema_and_says_nothing_of_one(tmp_path: Path) -> None:
    path = tmp_path / "p95.csv"
    path.write_text("region,p95_ms\neu,1.5\n", encoding="utf-8")
    done = run_cli("check", str(path), "--columns", '{"p95_ms": "number"}')
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == (
        "p95 (1 row): clean under warn — the 1 declared column holds its declared type"
    )


def test_render_says_where_the_declaration_came_from(p95: Path, tmp_path: Path) -> None:
    chart = tmp_path / "p95.vl.json"
    done = run_cli("render", str(p95), "-o", str(chart))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"wrote {chart}: a bar chart of p95 ({BY_SCHEMA}). ")
    assert "inferred" not in done.stdout
    quiet = run_cli("render", str(p95), "-o", str(chart), "-q")
    assert quiet.stdout.startswith(f"wrote {chart}: a bar chart of p95 ({BY_SCHEMA}). ")
    given = ["--columns", '{"region": "string", "p95_ms": "string"}']
    refused = run_cli("render", str(p95), "-o", str(chart), "-q", "--mode", "enforce", *given)
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"chartkit render: no chart for p95 ({BY_COLUMNS}), so ")
    found = run_cli("render", str(p95), "-o", str(chart), "-q", "--columns", '{"region": "number"}')
    assert found.stdout.startswith(
        f"wrote {chart}: a bar chart of p95 ({BY_COLUMNS}; 1 finding under warn). "
    )


# --- chart_file ----------------------------------------------------------------------------


def test_chart_file_says_the_passed_declaration_replaced_the_file_s_schema(p95: Path) -> None:
    from test_round3_mcp_files import chart_files, text

    by_schema, given = chart_files(
        p95.parent,
        [{"path": "p95.parquet"}, {"path": "p95.parquet", "resultColumns": {"p95_ms": "string"}}],
    )
    assert text(by_schema).splitlines()[-1] == (
        f"p95's columns are {BY_SCHEMA}, which states every column's type; pass resultColumns "
        "to check them against another declaration."
    )
    assert text(given).splitlines()[-1] == f"p95's columns are {BY_ARGUMENT}."
    assert "\nFinding: 'p95' declares column 'p95_ms' as string, and 3 of 3 rows" in text(given)


# --- the explorer --------------------------------------------------------------------------


def test_the_explorer_opens_a_parquet_declared_by_its_schema(
    p95: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ex.ENV_FILE, str(p95))
    at = ok(AppTest.from_file(str(APP), default_timeout=120).run())
    (editor,) = [e for e in at.main.expander if e.label.startswith("Declaration editor")]
    assert editor.label == "Declaration editor — resultColumns: 2 of 2 columns declared"
    assert (
        f"Starts from the result's declaration ({BY_SCHEMA}). Every edit re-runs the check and "
        "the view at once." in texts(at, "caption")
    )
    assert not any("inferred" in said for said in texts(at, "caption") + texts(at, "markdown"))
    loaded = ex.load_path(p95)
    assert ex.result_label(0, loaded.results[0]) == f"1. p95 — 3 rows, {BY_SCHEMA}"
