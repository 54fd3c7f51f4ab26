"""JSON lines on DuckDB are judged by every value's own JSON type, never by DuckDB's sample.

DuckDB types a JSON file from its first ~20,000 rows and converts later values to that type
("7" to 7, true to 1, 1.5 to 2, an object to text, or a failed cast). The files here hold
more rows than that sample, with the odd values after it; the check on the engine must say
exactly what the check of the same rows in memory says.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("duckdb")

from chartkit import ToolResult
from chartkit.check.integrity import check_result
from chartkit.read.engines import TableFile, open_table

SAMPLE_PAST = 20_500  # rows before the odd ones: past DuckDB's ~20,000-row sample
DECL = {"lun": "number", "host": "string", "gb": "number"}
LATE: dict[str, Any] = {"text": "7", "true": True, "fraction": 1.5, "object": {"a": 1}}


def rows_with(late: list[Any]) -> list[dict[str, Any]]:
    rows = [{"lun": i, "host": f"h{i % 5}", "gb": i * 0.5} for i in range(SAMPLE_PAST)]
    return rows + [{"lun": v, "host": "late", "gb": 1.0} for v in late]


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def findings(rows: Any, declared: dict[str, Any] = DECL) -> tuple[bool, list[dict[str, Any]]]:
    outcome = check_result(ToolResult("t", rows, result_columns=declared), mode="enforce")
    return outcome.refused, [f.to_dict() for f in outcome.findings]


@pytest.mark.parametrize(
    "late", [[v] for v in LATE.values()] + [list(LATE.values())], ids=[*LATE, "all"]
)
def test_enforce_on_duckdb_refuses_late_values_as_memory_does(
    tmp_path: Path, late: list[Any]
) -> None:
    rows = rows_with(late)
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    in_memory = findings(rows)
    assert findings(open_table(path)) == in_memory
    assert findings(TableFile(str(path))) == in_memory  # the explorer's reading of a table file
    refused, said = in_memory
    if late == [1.5]:  # a fraction in a number column is a number: clean, as in memory
        assert (refused, said) == (False, [])
    else:
        assert refused and [f["column"] for f in said] == ["lun"]


def test_a_fraction_past_the_sample_is_read_as_itself_not_rounded(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", rows_with([1.5]))
    values = [row[0] for row in open_table(path).fetchall()]
    assert values[-1] == 1.5
    assert sum(values) == sum(range(SAMPLE_PAST)) + 1.5


def test_a_key_first_seen_past_the_sample_is_a_column(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = [{"lun": i} for i in range(SAMPLE_PAST)]
    rows.append({"lun": 1, "late": "x"})
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    declared = {"late": {"type": "number", "nullable": True}}
    table = open_table(path)
    assert table.columns == ["lun", "late"]
    assert findings(table, declared) == findings(rows, declared)
    assert findings(rows, declared)[1][0]["kind"] == "column-type-mismatch"


def test_an_empty_string_past_an_integer_sample_is_an_offender_not_a_cast_failure(
    tmp_path: Path,
) -> None:
    rows = rows_with(["", ""])
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    assert findings(open_table(path)) == findings(rows)
    (finding,) = findings(rows)[1]
    assert finding["violation"]["offendingTypes"] == ["string"]


def test_a_column_all_of_one_json_type_keeps_its_type(tmp_path: Path) -> None:
    """Charts read typed columns: only a column whose values mix types is read as JSON."""
    big = 2**63  # past BIGINT: the integers are read as HUGEINT, exactly
    rows = [
        {"i": k, "neg": -k, "f": k + 0.5, "b": k % 2 == 0, "s": "2024-01-05", "u": big + k,
         "mixed": k if k else "0", "obj": {"k": k}, "none": None}
        for k in range(3)
    ]  # fmt: skip
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    table = open_table(path)
    assert dict(zip(table.columns, map(str, table.types), strict=True)) == {
        "i": "BIGINT", "neg": "BIGINT", "f": "DOUBLE", "b": "BOOLEAN", "s": "VARCHAR",
        "u": "HUGEINT", "mixed": "JSON", "obj": "JSON", "none": "JSON",
    }  # fmt: skip
    assert [r[5] for r in table.fetchall()] == [big, big + 1, big + 2]


def test_a_key_holding_quotes_or_a_nul_is_read_as_data(tmp_path: Path) -> None:
    rows = [{"a\x00b": 1, "q\"u'o": "x"}, {"a\x00b": "2", "q\"u'o": "y"}]
    path = write_jsonl(tmp_path / "r.jsonl", rows)
    table = open_table(path)
    assert table.columns == ["a\x00b", "q\"u'o"]
    declared = {"a\x00b": "number", "q\"u'o": "string"}
    assert findings(table, declared) == findings(rows, declared)


def test_a_json_array_file_is_read_alike(tmp_path: Path) -> None:
    rows = rows_with(list(LATE.values()))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    assert findings(open_table(path)) == findings(rows)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chartkit", *args], capture_output=True, text=True, timeout=300
    )


def test_the_cli_refuses_on_duckdb_exactly_as_in_memory(tmp_path: Path) -> None:
    rows = rows_with(list(LATE.values()))
    (tmp_path / "engine").mkdir()
    (tmp_path / "memory").mkdir()
    table = write_jsonl(tmp_path / "engine" / "r.jsonl", rows)
    array = tmp_path / "memory" / "r.json"
    array.write_text(json.dumps(rows), encoding="utf-8")
    decl = json.dumps(DECL)
    engine = run_cli("check", str(table), "--engine", "duckdb", "--columns", decl,
                     "--mode", "enforce", "--json")  # fmt: skip
    memory = run_cli("check", str(array), "--columns", decl, "--mode", "enforce", "--json")
    assert (engine.returncode, memory.returncode) == (1, 1), engine.stderr + memory.stderr
    said = [json.loads(p.stdout)["results"][0] for p in (engine, memory)]
    assert said[0]["findings"] == said[1]["findings"]
    (finding,) = said[0]["findings"]
    assert finding["violation"]["affected"] == 3  # 1.5 is a number
    assert finding["violation"]["offendingTypes"] == ["string", "boolean", "object"]
