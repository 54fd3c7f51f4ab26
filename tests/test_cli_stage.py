"""``chartkit stage`` and ``.csv``/``.parquet`` input to ``check`` and ``render``."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from chartkit.cli import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, main

EXAMPLES = Path(__file__).resolve().parent.parent / "chartkit" / "examples"
LUN_CSV = "logical_unit_number,host_group\n3,vdi-a\nn/a,vdi-a\n"
DECL = '{"logical_unit_number": "number", "host_group": "string"}'


def test_stage_writes_typed_parquet_and_says_how_each_column_went(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "staged"
    code = main(["stage", str(EXAMPLES / "host_group_mappings.json"), "-o", str(out)])
    assert code == EXIT_OK
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == (
        f"host_group_mappings (2,056 rows, call-1): wrote {out / 'host_group_mappings.parquet'} "
        f"and {out / 'host_group_mappings.json'}"
    )
    assert "  capacity_gb: int64 (declared number)" in printed
    assert (
        '  logical_unit_number: string, as text (declared number): 166 of 2,056 rows hold string '
        '(first: ""), not number; the column is kept as text, nothing converted'
    ) in printed
    schema = pq.read_schema(out / "host_group_mappings.parquet")
    assert str(schema.field("capacity_gb").type) == "int64"


def test_stage_under_enforce_writes_the_refusal_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["stage", str(EXAMPLES / "run_incident.jsonl"), "-o", str(tmp_path), "--mode", "enforce"]
    )
    assert code == EXIT_FINDINGS
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "host_group_mappings.json" in names and "host_group_mappings-2.json" in names
    assert "host_group_mappings.parquet" not in names  # refused: no rows staged
    assert "latency_by_region.parquet" in names
    sidecar = json.loads((tmp_path / "host_group_mappings.json").read_text(encoding="utf-8"))
    assert sidecar["refusal"].startswith("Result rejected: host_group_mappings returned rows")
    assert "refused under enforce; wrote" in capsys.readouterr().out


def test_check_reads_a_csv_by_the_declaration_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "host_group_mappings.csv"
    source.write_text(LUN_CSV, encoding="utf-8")
    assert main(["check", str(source), "--columns", DECL, "--mode", "enforce"]) == EXIT_FINDINGS
    assert (
        "'logical_unit_number' is declared number and 1 of 2 rows hold string (first: \"n/a\")"
        in capsys.readouterr().out
    )
    decl_file = tmp_path / "decl.json"
    decl_file.write_text(DECL, encoding="utf-8")
    assert main(["check", str(source), "--columns", str(decl_file)]) == EXIT_OK
    assert "1 finding under warn" in capsys.readouterr().out
    assert main(["check", str(source)]) == EXIT_OK
    assert (
        "host_group_mappings (2 rows): not checked — the result declares no resultColumns"
        in capsys.readouterr().out
    )


def test_a_staged_parquet_is_checked_with_its_own_declaration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["stage", str(EXAMPLES / "latency_by_region.json"), "-o", str(tmp_path)])
    capsys.readouterr()
    parquet = tmp_path / "latency_by_region.parquet"
    assert main(["check", str(parquet), "--mode", "enforce"]) == EXIT_OK
    assert "clean under enforce — each of the 3 declared columns holds its declared type" in (
        capsys.readouterr().out
    )
    chart = tmp_path / "latency.json"
    assert main(["render", str(parquet), "-o", str(chart)]) == EXIT_OK
    assert "wrote" in capsys.readouterr().out and chart.is_file()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--columns", "{}"], "--columns applies to .csv and .parquet input"),
        (["--columns", "{nope"], None),
    ],
)
def test_columns_misused_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str | None
) -> None:
    source = EXAMPLES / "host_group_mappings.json"
    if message is None:
        source = tmp_path / "x.csv"
        source.write_text(LUN_CSV, encoding="utf-8")
        message = "--columns is not valid JSON (Expecting property name enclosed in double quotes"
    assert main(["check", str(source), *argv]) == EXIT_UNREADABLE
    assert message in capsys.readouterr().err
