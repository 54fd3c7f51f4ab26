"""``chart_file`` reads a typed file by its schema and a large one in DuckDB: issue 38, items 15
and 17 (the MCP part; the CLI's is tests/test_round3_cli.py).

Every case runs a real ``chartkit mcp`` over stdio with the SDK's own client.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import mcp
import mcp.types as mcp_types
import pytest
from mcp.client.extension import advertise
from mcp.client.stdio import stdio_client
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")

APPS = [advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})]
BY_SCHEMA = (
    "p95's columns are declared by the file's schema, which states every column's type; pass "
    "resultColumns to check them against another declaration."
)
BY_ARGUMENT = (
    "p95's columns are declared by the resultColumns passed, in place of the file's schema."
)
IN_DUCKDB = (
    "'many.parquet' holds 1,000,001 rows, over 1,000,000, so it was checked and charted where "
    "it lies with DuckDB: only counts and aggregated rows were read from it."
)
TOO_MANY = (
    "Error executing tool chart_file: {name} holds 1,000,001 rows, over the 1,000,000 "
    "chart_file charts; chart a smaller extract (filter or aggregate it first)"
)
# Run the server with DuckDB hidden: importlib finds no module whose sys.modules entry is None.
WITHOUT_DUCKDB = (
    "import sys; sys.modules['duckdb'] = None; from chartkit.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


def chart_files(
    root: Path, calls: list[dict[str, Any]], *, duckdb: bool = True, apps: bool = False
) -> list[mcp_types.CallToolResult]:
    """Start ``chartkit mcp --root ROOT`` and call ``chart_file`` with each of ``calls``."""
    command = ["-m", "chartkit"] if duckdb else ["-c", WITHOUT_DUCKDB]
    params = mcp.StdioServerParameters(
        command=sys.executable, args=[*command, "mcp", "--root", str(root)]
    )

    async def go() -> list[mcp_types.CallToolResult]:
        transport = stdio_client(params, errlog=sys.stderr)  # type: ignore[arg-type]
        async with mcp.Client(transport, extensions=APPS if apps else None) as client:
            return [await client.call_tool("chart_file", arguments) for arguments in calls]

    return anyio.run(go)


def text(answer: mcp_types.CallToolResult) -> str:
    block = answer.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``p95.parquet`` (3 rows), ``many.parquet`` (1,000,001 rows) and its twin ``many[1].parquet``,
    each a string ``region`` and a float ``p95``."""
    root = tmp_path_factory.mktemp("files")
    pq.write_table(
        pa.table({"region": ["eu", "us", "ap"], "p95": [1.5, 2.5, 3.0]}), root / "p95.parquet"
    )
    regions = pa.array(["eu", "us", "ap", "eu"] * 250_000 + ["us"]).dictionary_encode()
    many = pa.table({"region": regions, "p95": pa.array(range(1_000_001), pa.float64())})
    pq.write_table(many, root / "many.parquet")
    (root / "many[1].parquet").write_bytes((root / "many.parquet").read_bytes())
    return root


def test_a_parquet_is_declared_by_its_schema_unless_resultColumns_are_passed(files: Path) -> None:
    by_schema, warned, refused = chart_files(
        files,
        [
            {"path": "p95.parquet", "mode": "enforce"},
            {"path": "p95.parquet", "resultColumns": {"p95": "string"}},
            {"path": "p95.parquet", "resultColumns": {"p95": "string"}, "mode": "enforce"},
        ],
    )
    assert by_schema.is_error is False
    said = text(by_schema)
    assert said.startswith("chartkit drew a bar chart of p95 (3 rows)")
    assert said.splitlines()[-1] == BY_SCHEMA
    assert "inferred" not in said
    # the declaration passed replaces the schema's: p95 holds numbers, not strings
    assert (
        "\nFinding: 'p95' declares column 'p95' as string, and 3 of 3 rows hold something "
        "else — the first is 1.5 (number)." in text(warned)
    )
    assert text(warned).splitlines()[-1] == BY_ARGUMENT
    assert BY_SCHEMA not in text(warned)
    assert refused.is_error is True
    assert text(refused).startswith("Result rejected: p95 returned rows that disagree")
    assert BY_SCHEMA not in text(refused)


def test_a_parquet_over_the_engine_rows_is_charted_in_duckdb_saying_so(files: Path) -> None:
    by_schema, declared = chart_files(
        files,
        [
            {"path": "many.parquet", "x": "region", "y": "p95"},
            {"path": "many.parquet", "resultColumns": {"region": "number"}, "mode": "warn"},
        ],
        apps=True,
    )
    assert by_schema.is_error is False
    lines = text(by_schema).splitlines()
    assert lines[0].startswith("chartkit drew a bar chart of many (1,000,001 rows)")
    assert lines[-2:] == [IN_DUCKDB, BY_SCHEMA.replace("p95's", "many's")]
    assert by_schema.structured_content is not None
    # the declaration passed is the one checked, in DuckDB: region holds strings, not numbers
    assert declared.is_error is False
    lines = text(declared).splitlines()
    assert lines[-2] == IN_DUCKDB
    assert any(
        line.startswith("Finding: 'many' declares column 'region' as number") for line in lines
    )
    assert lines[-1] == BY_ARGUMENT.replace("p95's", "many's")
    assert BY_SCHEMA not in text(declared)
    # without DuckDB the bounded path refuses it, as it does a path DuckDB would read as a
    # pattern ([1]), which could name other files beside it
    (hidden,) = chart_files(files, [{"path": "many.parquet"}], duckdb=False)
    assert hidden.is_error is True
    assert text(hidden) == TOO_MANY.format(name="'many.parquet'")
    (pattern,) = chart_files(files, [{"path": "many[1].parquet"}])
    assert pattern.is_error is True
    assert text(pattern) == TOO_MANY.format(name="'many[1].parquet'")
