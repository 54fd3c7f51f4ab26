"""Typed staging: pandas, polars and DuckDB read back the declared types; nothing is coerced."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chartkit import ChartkitError, ToolResult, check_result
from chartkit.staging import METADATA_KEY, read_parquet, stage

DECL = {
    "logical_unit_number": "number",
    "capacity_gb": "number",
    "host_group": "string",
    "online": "boolean",
    "mapped_at": "date",
    "comment": {"type": "string", "nullable": True},
}
HEALTHY = [
    {"logical_unit_number": 0, "capacity_gb": 0.0, "host_group": "vdi-a", "online": True,
     "mapped_at": "2024-01-05T10:00:00", "comment": None},
    {"logical_unit_number": 3, "capacity_gb": 512.5, "host_group": "vdi-a", "online": False,
     "mapped_at": dt.datetime(2024, 1, 6, 9, 30), "comment": "spare"},
]  # fmt: skip
LUN_BUG = [
    {"logical_unit_number": "", "host_group": "vdi-a"},
    {"logical_unit_number": 3, "host_group": "vdi-a"},
]


def healthy() -> ToolResult:
    return ToolResult("host_group_mappings", HEALTHY, result_columns=DECL, call_id="call-1")


def lun_bug() -> ToolResult:
    return ToolResult(
        "host_group_mappings",
        LUN_BUG,
        result_columns={"logical_unit_number": "number", "host_group": "string"},
        call_id="call-1",
    )


def test_the_declared_types_are_the_parquet_schema(tmp_path: Path) -> None:
    staged = stage(healthy(), tmp_path)
    assert staged.parquet == tmp_path / "host_group_mappings.parquet"
    assert staged.sidecar == tmp_path / "host_group_mappings.json"
    schema = pq.read_schema(staged.parquet)
    assert {f.name: str(f.type) for f in schema} == {
        "logical_unit_number": "int64",
        "capacity_gb": "double",
        "host_group": "string",
        "online": "bool",
        "mapped_at": "timestamp[us]",
        "comment": "string",
    }
    assert [c.staged_as for c in staged.columns] == ["declared"] * 6


def test_pandas_polars_and_duckdb_read_back_typed_columns(tmp_path: Path) -> None:
    path = stage(healthy(), tmp_path).parquet
    assert path is not None
    frame = pd.read_parquet(path)
    assert str(frame["logical_unit_number"].dtype) == "int64"
    assert str(frame["capacity_gb"].dtype) == "float64"
    assert str(frame["online"].dtype) == "bool"
    assert frame["mapped_at"].dtype.kind == "M"
    assert frame["logical_unit_number"].tolist() == [0, 3]  # LUN 0 stays 0
    assert frame["mapped_at"].tolist() == [
        pd.Timestamp("2024-01-05T10:00:00"),
        pd.Timestamp("2024-01-06T09:30:00"),
    ]

    polars = pl.read_parquet(path)
    assert polars.schema == pl.Schema(
        {
            "logical_unit_number": pl.Int64,
            "capacity_gb": pl.Float64,
            "host_group": pl.String,
            "online": pl.Boolean,
            "mapped_at": pl.Datetime("us"),
            "comment": pl.String,
        }
    )
    assert polars["comment"].to_list() == [None, "spare"]

    relation = duckdb.sql(f"SELECT * FROM read_parquet('{path}')")
    assert [str(t) for t in relation.types] == [
        "BIGINT", "DOUBLE", "VARCHAR", "BOOLEAN", "TIMESTAMP", "VARCHAR",
    ]  # fmt: skip
    assert duckdb.sql(f"SELECT sum(capacity_gb) FROM read_parquet('{path}')").fetchall() == [
        (512.5,)
    ]


def test_the_declaration_and_findings_ride_the_metadata_and_the_sidecar(tmp_path: Path) -> None:
    staged = stage(lun_bug(), tmp_path, mode="warn")
    assert staged.parquet is not None
    meta = json.loads(pq.read_schema(staged.parquet).metadata[METADATA_KEY.encode()])
    sidecar = json.loads(staged.sidecar.read_text(encoding="utf-8"))
    assert meta == sidecar == staged.record
    outcome = check_result(lun_bug(), mode="warn")
    assert sidecar["resultColumns"] == {
        "logical_unit_number": {"type": "number", "nullable": False},
        "host_group": {"type": "string", "nullable": False},
    }
    assert [f["message"] for f in sidecar["findings"]] == [outcome.findings[0].message]
    assert (sidecar["mode"], sidecar["status"], sidecar["rows"]) == ("warn", "ok", 2)
    assert sidecar["parquet"] == "host_group_mappings.parquet"
    assert [d["check"] for d in sidecar["disposition"]] == [
        "column-type-mismatch",
        "missing-column",
    ]


def test_under_warn_a_column_with_offenders_is_text_never_zero(tmp_path: Path) -> None:
    staged = stage(lun_bug(), tmp_path, mode="warn")
    assert staged.parquet is not None
    table = pq.read_table(staged.parquet)
    assert table.schema.field("logical_unit_number").type == pa.string()
    assert table.column("logical_unit_number").to_pylist() == ["", "3"]  # '' stays ''
    column = staged.record["columns"][0]
    assert column == {
        "name": "logical_unit_number",
        "declared": "number",
        "arrow": "string",
        "stagedAs": "text",
        "reason": '1 of 2 rows hold string (first: ""), not number; the column is kept as '
        "text, nothing converted",
    }
    assert pd.read_parquet(staged.parquet)["logical_unit_number"].tolist() == ["", "3"]


def test_absences_alone_keep_the_declared_type_as_nulls(tmp_path: Path) -> None:
    result = ToolResult(
        "t", [{"n": 1}, {"n": None}, {"n": float("nan")}, {}], result_columns={"n": "number"}
    )
    staged = stage(result, tmp_path)
    assert check_result(result, mode="warn").violations[0].absent == 3
    assert staged.parquet is not None
    column = pq.read_table(staged.parquet).column("n")
    assert column.type == pa.int64()
    assert column.to_pylist() == [1, None, None, None]


def test_under_enforce_a_refused_result_stages_the_refusal_and_no_rows(tmp_path: Path) -> None:
    stage(healthy(), tmp_path, name="host_group_mappings")  # an earlier, healthy staging
    staged = stage(lun_bug(), tmp_path, mode="enforce")
    assert staged.parquet is None and staged.rows is None
    assert not (tmp_path / "host_group_mappings.parquet").exists()  # old rows are gone too
    sidecar = json.loads(staged.sidecar.read_text(encoding="utf-8"))
    assert sidecar["status"] == "invalid" and sidecar["rows"] is None
    assert sidecar["refusal"] == (
        "Result rejected: host_group_mappings returned rows that disagree with the columns it "
        "declares — 'logical_unit_number' is declared number and 1 of 2 rows hold string "
        '(first: ""). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )
    assert sidecar["columns"] == []


def test_under_enforce_clean_rows_are_staged_typed(tmp_path: Path) -> None:
    staged = stage(healthy(), tmp_path, mode="enforce")
    assert staged.parquet is not None and staged.rows == 2


def test_under_off_the_rows_as_returned_by_arrows_own_inference(tmp_path: Path) -> None:
    staged = stage(lun_bug(), tmp_path, mode="off")
    assert staged.parquet is not None
    assert staged.record["findings"] == [] and staged.record["armed"] is False
    assert [(c.name, c.staged_as, c.declared) for c in staged.columns] == [
        ("logical_unit_number", "text", None),
        ("host_group", "inferred", None),
    ]
    clean = stage(healthy(), tmp_path / "off", mode="off")
    assert clean.parquet is not None
    types = {f.name: str(f.type) for f in pq.read_schema(clean.parquet)}
    assert types["mapped_at"] == "string"  # a date as text: off applies no declaration
    assert types["comment"] == "string"


def test_aware_times_are_staged_in_utc_and_mixed_ones_as_text(tmp_path: Path) -> None:
    aware = ToolResult(
        "t",
        [{"at": "2024-01-05T10:00:00+01:00"}, {"at": dt.datetime(2024, 1, 5, 12, tzinfo=dt.UTC)}],
        result_columns={"at": "date"},
    )
    staged = stage(aware, tmp_path)
    assert staged.parquet is not None
    column = pq.read_table(staged.parquet).column("at")
    assert column.type == pa.timestamp("us", tz="UTC")
    assert [v.isoformat() for v in column.to_pylist()] == [
        "2024-01-05T09:00:00+00:00",
        "2024-01-05T12:00:00+00:00",
    ]
    assert str(pd.read_parquet(staged.parquet)["at"].dtype) == "datetime64[us, UTC]"
    assert pl.read_parquet(staged.parquet).schema["at"] == pl.Datetime("us", "UTC")
    assert [str(t) for t in duckdb.sql(f"SELECT * FROM '{staged.parquet}'").types] == [
        "TIMESTAMP WITH TIME ZONE"
    ]
    mixed = ToolResult(
        "t", [{"at": "2024-01-05T10:00:00+01:00"}, {"at": "2024-01-05"}],
        result_columns={"at": "date"},
    )  # fmt: skip
    staged = stage(mixed, tmp_path)
    assert staged.columns[0].staged_as == "text"
    assert "a UTC offset and times without one" in (staged.columns[0].reason or "")


def test_numbers_float64_cannot_hold_exactly_stay_text(tmp_path: Path) -> None:
    result = ToolResult(
        "t", [{"n": 2**53 + 1}, {"n": 0.5}, {"n": Decimal("1.25")}], result_columns={"n": "number"}
    )
    staged = stage(result, tmp_path)
    assert staged.columns[0].staged_as == "text"
    assert staged.columns[0].reason == (
        "9007199254740993 cannot be held exactly by float64, so the column is kept as text, "
        "nothing converted"
    )
    fine = ToolResult(
        "t", [{"n": 3}, {"n": 0.5}, {"n": Decimal("1.25")}], result_columns={"n": "number"}
    )
    column = stage(fine, tmp_path).columns[0]
    assert (column.arrow, column.staged_as) == ("double", "declared")


def test_a_dataframe_and_an_empty_result_stage_too(tmp_path: Path) -> None:
    frame = pd.DataFrame({"lun": [0, 3], "host": ["a", "b"]})
    staged = stage(ToolResult("t", frame, result_columns={"lun": "number"}), tmp_path)
    assert staged.parquet is not None
    assert {f.name: str(f.type) for f in pq.read_schema(staged.parquet)} == {
        "lun": "int64",
        "host": "string",
    }
    empty = stage(ToolResult("e", [], result_columns={"lun": "number"}), tmp_path)
    assert empty.rows == 0 and empty.parquet is not None
    assert str(pq.read_schema(empty.parquet).field("lun").type) == "int64"


def test_a_missing_column_is_left_out_not_filled_with_nulls(tmp_path: Path) -> None:
    result = ToolResult("t", [{"a": 1}], result_columns={"a": "number", "b": "string"})
    staged = stage(result, tmp_path)
    assert staged.parquet is not None
    assert pq.read_schema(staged.parquet).names == ["a"]
    assert [f["kind"] for f in staged.record["findings"]] == ["missing-column"]


def test_read_parquet_answers_the_staged_result_with_its_declaration(tmp_path: Path) -> None:
    staged = stage(healthy(), tmp_path)
    assert staged.parquet is not None
    back = read_parquet(staged.parquet)
    assert (back.tool, back.call_id) == ("host_group_mappings", "call-1")
    assert back.result_columns == healthy().result_columns
    assert check_result(back, mode="enforce").status == "ok"
    assert back.rows[0]["mapped_at"] == dt.datetime(2024, 1, 5, 10)
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), plain)
    other = read_parquet(plain.read_bytes(), name="plain.parquet")
    assert (other.tool, other.result_columns, other.rows) == ("plain", None, [{"x": 1}, {"x": 2}])


def test_bad_input_is_refused_naming_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ChartkitError, match=r"is not rows .* it is a dict"):
        stage(ToolResult("t", {"lun": 0}), tmp_path)
    with pytest.raises(ChartkitError, match="not a plain file name"):
        stage(healthy(), tmp_path, name="../x")
    with pytest.raises(ChartkitError, match="is not a readable Parquet file"):
        read_parquet(b"not parquet", name="x.parquet")



def test_numpy_values_dates_and_nanoseconds(tmp_path: Path) -> None:
    import numpy as np

    result = ToolResult(
        "t",
        [
            {"n": np.int64(7), "b": np.bool_(True), "d": dt.date(2024, 1, 5)},
            {"n": np.int32(-1), "b": False, "d": np.datetime64("2024-01-06T12:00")},
        ],
        result_columns={"n": "number", "b": "boolean", "d": "date"},
    )
    staged = stage(result, tmp_path)
    assert staged.parquet is not None
    table = pq.read_table(staged.parquet)
    assert table.column("n").type == pa.int64() and table.column("n").to_pylist() == [7, -1]
    assert table.column("b").to_pylist() == [True, False]
    assert table.column("d").to_pylist() == [dt.datetime(2024, 1, 5), dt.datetime(2024, 1, 6, 12)]
    nanos = ToolResult(
        "t", [{"d": pd.Timestamp("2024-01-05T10:00:00.000000001")}], result_columns={"d": "date"}
    )
    column = stage(nanos, tmp_path).columns[0]
    assert (column.staged_as, column.arrow) == ("text", "string")
    assert column.reason == (
        "2024-01-05T10:00:00.000000001 has nanoseconds, which timestamp[us] cannot hold, so the "
        "column is kept as text, nothing converted"
    )


def test_a_lone_mcp_object_is_one_row_only_when_the_check_is_armed(tmp_path: Path) -> None:
    lone = ToolResult(
        "t", {"lun": "", "host": "a"}, result_columns={"lun": "number"}, one_row_ambiguous=True
    )
    staged = stage(lone, tmp_path, mode="warn")
    assert staged.rows == 1 and staged.columns[0].staged_as == "text"
    with pytest.raises(ChartkitError, match="it is a dict"):
        stage(lone, tmp_path, mode="off")
    assert stage(lone, tmp_path, mode="enforce").parquet is None


def test_an_empty_dataframe_stages_the_declared_columns(tmp_path: Path) -> None:
    staged = stage(ToolResult("t", pd.DataFrame(), result_columns={"lun": "number"}), tmp_path)
    assert staged.rows == 0 and staged.parquet is not None
    assert pq.read_schema(staged.parquet).names == ["lun"]


def test_without_pyarrow_staging_says_how_to_install_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "from chartkit import ToolResult, stage, MissingExtraError\n"
        "try:\n"
        f"    stage(ToolResult('t', [{{'a': 1}}]), {str(tmp_path)!r})\n"
        "except MissingExtraError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.strip() == (
        "staging writes Parquet with pyarrow, which is not installed; install it with: "
        "pip install 'chartkit[stage]'"
    )
