"""The command line as a new user meets it, run as a subprocess: an engine that fails past the
door, a typed file as its own declaration, big files on the engine, and one voice per run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

SAMPLE_PAST = 20_500  # rows: past DuckDB's ~20,000-row JSON sample


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chartkit", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def damaged_parquet(path: Path) -> Path:
    """A Parquet file whose footer is whole (it opens, its rows are counted) but whose one
    data page does not decompress: the engine fails only when the check reads the values."""
    table = pa.table({"lun": pa.array([f"v{i}" for i in range(1000)])})
    pq.write_table(table, path, compression="snappy", use_dictionary=False)
    chunk = pq.ParquetFile(path).metadata.row_group(0).column(0)
    data = bytearray(path.read_bytes())
    start = chunk.data_page_offset
    data[start + 40 : start + chunk.total_compressed_size - 10] = b"\xff" * (
        chunk.total_compressed_size - 50
    )
    path.write_bytes(bytes(data))
    return path


# ------------------------------------------------------------- 2. the engine fails past the door


def test_an_engine_failing_past_the_door_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = damaged_parquet(tmp_path / "lun.parquet")
    done = run_cli("check", str(path), "--engine", "duckdb", "--columns", '{"lun": "number"}')
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"chartkit check: {path}: duckdb could not run the check's ")
    assert "'lun'" in line  # the column
    assert line.endswith(
        "duckdb could not read the whole file (damaged, or changed since it was opened); "
        "repair or rewrite it, or check it with --engine none to read it in memory"
    )


@pytest.mark.parametrize(("mode", "code"), [("warn", 0), ("enforce", 1)])
def test_an_empty_string_past_an_integer_sample_is_a_finding_not_a_crash(
    tmp_path: Path, mode: str, code: int
) -> None:
    rows: list[dict[str, Any]] = [{"lun": i} for i in range(SAMPLE_PAST)] + [{"lun": ""}]
    path = tmp_path / "lun.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = run_cli(
        "check", str(path), "--engine", "duckdb", "--columns", '{"lun": "number"}', "--mode", mode
    )
    assert (done.returncode, done.stderr) == (code, "")
    assert '    most frequent offending values: "" ×1\n' in done.stdout


# ------------------------------------------------------------ 15. a typed file declares itself


def typed_parquet(path: Path) -> Path:
    table = pa.table(
        {
            "lun": pa.array([0, 1, 2], pa.int64()),
            "host": ["a", "b", None],
            "mapped": [True, False, True],
            "tags": [[1], [2], [3]],  # a list: no column type holds it, so left undeclared
        }
    )
    pq.write_table(table, path)
    return path


@pytest.mark.parametrize("engine", [[], ["--engine", "duckdb"]], ids=["memory", "duckdb"])
def test_a_parquet_file_is_checked_by_its_own_schema_unless_columns_is_given(
    tmp_path: Path, engine: list[str]
) -> None:
    path = typed_parquet(tmp_path / "luns.parquet")
    done = run_cli("check", str(path), "--mode", "enforce", *engine)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == (
        "luns (3 rows, declared by the file's schema): clean under enforce — each of the 3 "
        "declared columns holds its declared type"
    )
    given = ["--columns", '{"host": "number"}']
    done = run_cli("check", str(path), "--mode", "enforce", *given, *engine)
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "luns (3 rows, declared by --columns, in place of the file's schema): refused under "
        "enforce, 1 finding"
    )


# ------------------------------------------------------------------ 17. big files go to DuckDB


def test_a_parquet_over_the_engine_rows_is_checked_in_duckdb_saying_so(tmp_path: Path) -> None:
    path = tmp_path / "luns.parquet"
    pq.write_table(pa.table({"lun": list(range(3000)), "host": ["a", "b", "c"] * 1000}), path)
    over = {"CHARTKIT_ENGINE_ROWS": "1000"}
    done = run_cli("check", str(path), "--mode", "enforce", env=over)
    assert done.returncode == 0
    assert done.stderr == (
        "chartkit check: luns.parquet holds 3,000 rows, over 1,000, so it is read where it lies "
        "with DuckDB (as --engine duckdb does); --engine none reads it into memory\n"
    )
    assert done.stdout.startswith("luns (3,000 rows, declared by the file's schema): clean")
    chart = tmp_path / "chart.json"
    done = run_cli("render", str(path), "-o", str(chart), "--x", "host", "--y", "lun", env=over)
    assert done.returncode == 0 and chart.is_file()
    assert done.stderr.startswith("chartkit render: luns.parquet holds 3,000 rows, over 1,000,")
    # under the rows, or with --engine none, it is read in memory and nothing is said
    for quiet in (run_cli("check", str(path)), run_cli("check", str(path), "--engine", "none",
                                                         env=over)):  # fmt: skip
        assert (quiet.returncode, quiet.stderr) == (0, "")


def test_a_damaged_parquet_over_the_engine_rows_fails_in_duckdb(tmp_path: Path) -> None:
    """Where the file was read shows in how it fails: DuckDB's words, not pyarrow's."""
    path = damaged_parquet(tmp_path / "lun.parquet")
    done = run_cli(
        "check", str(path), "--columns", '{"lun": "number"}', env={"CHARTKIT_ENGINE_ROWS": "10"}
    )
    assert done.returncode == 2
    notice, failed = done.stderr.splitlines()
    assert notice.startswith("chartkit check: lun.parquet holds 1,000 rows, over 10, so it is")
    assert failed.startswith(f"chartkit check: {path}: duckdb could not run the check's ")


# ------------------------------------------------------------------- 19. said once, one voice

EXAMPLES = Path(__file__).resolve().parent.parent / "chartkit" / "examples"
RUN = EXAMPLES / "run_incident.jsonl"


@pytest.mark.parametrize(("mode", "code"), [("warn", 0), ("enforce", 1)])
def test_quiet_check_says_one_line_per_result_and_a_full_one_the_ceiling_once(
    mode: str, code: int
) -> None:
    from chartkit.messages import COLUMN_TYPE_CEILING

    full = run_cli("check", str(RUN), "--mode", mode)
    assert full.returncode == code
    assert full.stdout.count("  - column-type-mismatch") == 4  # findings of three results
    assert full.stdout.count(COLUMN_TYPE_CEILING) == (1 if mode == "warn" else 0)
    assert full.stdout.count("(seam write: checked where") == 1  # the disposition's legend
    done = run_cli("check", str(RUN), "--mode", mode, "--quiet")
    assert (done.returncode, done.stderr) == (code, "")
    said = "refused under enforce, {n}:" if mode == "enforce" else "{n} under warn:"
    assert done.stdout.splitlines() == [
        f"1. host_group_mappings (2,056 rows, call-1): {said.format(n='1 finding')} "
        "column-type-mismatch on 'logical_unit_number'",
        f"2. capacity_view (60 rows, call-2): clean under {mode}",
        f"3. volume_io_stats (200 rows, call-3): {said.format(n='3 findings')} "
        "column-type-mismatch on 'read_iops', 'write_iops', 'latency_ms'",
        f"4. latency_by_region (1,152 rows, call-4): clean under {mode}",
        f"5. host_group_mappings (40 rows, call-5): {said.format(n='1 finding')} "
        "missing-column on 'logical_unit_number'",
    ]


def test_quiet_render_says_one_line(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    done = run_cli("render", str(EXAMPLES / "host_group_mappings.json"), "-o", str(chart), "-q")
    assert (done.returncode, done.stderr) == (0, "")
    (line,) = done.stdout.splitlines()
    assert line.startswith(
        f"wrote {chart}: a point chart of host_group_mappings (1 finding under warn). "
    )
    refused = run_cli("render", str(EXAMPLES / "host_group_mappings.json"), "-o", str(chart),
                      "-q", "--mode", "enforce")  # fmt: skip
    assert refused.returncode == 1
    (line,) = refused.stderr.splitlines()
    assert line.startswith("chartkit render: no chart for host_group_mappings, so ")
