"""``read_table``: one door for .csv (read by a declaration) and .parquet (staged or not)."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chartkit import ToolResult, ToolResultError, check_result, stage
from chartkit.read.tables import is_table, read_table


def test_a_csv_is_read_by_the_declaration_given(tmp_path: Path) -> None:
    path = tmp_path / "luns.csv"
    path.write_text("lun,host\n3,a\nn/a,b\n", encoding="utf-8")
    result = read_table(path, result_columns={"lun": "number"})
    assert result.tool == "luns"
    assert result.rows == [{"lun": 3, "host": "a"}, {"lun": "n/a", "host": "b"}]
    assert check_result(result, mode="enforce").refused
    assert read_table(path.read_bytes(), "luns.csv").result_columns is None


def test_a_parquet_brings_its_declaration_and_a_given_one_replaces_it(tmp_path: Path) -> None:
    staged = stage(ToolResult("t", [{"lun": 3}], result_columns={"lun": "number"}), tmp_path)
    assert staged.parquet is not None
    own = read_table(staged.parquet.read_bytes(), "t.parquet")
    assert own.result_columns is not None and own.result_columns["lun"].type == "number"
    replaced = read_table(staged.parquet, result_columns={"lun": "string"})
    assert replaced.result_columns is not None and replaced.result_columns["lun"].type == "string"
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1]}), plain)
    assert read_table(plain).result_columns is None


def test_the_parquet_reader_is_the_read_stages_and_staging_keeps_its_name() -> None:
    import chartkit.staging
    from chartkit.read import parquet

    assert chartkit.staging.read_parquet is parquet.read_parquet
    assert chartkit.staging.METADATA_KEY == parquet.METADATA_KEY == "chartkit"


def test_reading_a_parquet_without_pyarrow_says_how_to_install_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"x": [1]}), path)
    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "from chartkit import MissingExtraError\n"
        "from pathlib import Path\n"
        "from chartkit.read.tables import read_table\n"
        "try:\n"
        f"    read_table(Path({str(path)!r}))\n"
        "except MissingExtraError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert done.stdout.strip() == (
        "chartkit reads Parquet with pyarrow, which is not installed; install it with: "
        "pip install 'chartkit[stage]'"
    )


def test_other_files_are_refused_naming_the_readers() -> None:
    assert is_table("a.parquet") and not is_table("a.json")
    with pytest.raises(ToolResultError, match=r"run\.jsonl is not a table file chartkit reads"):
        read_table(b"{}", "run.jsonl")


@pytest.mark.parametrize(
    "name",
    ["chartkit.read.csvread", "chartkit.check.events", "chartkit.staging", "chartkit.read.tables",
     "chartkit.notebook._display"],
)  # fmt: skip
def test_the_docstring_examples_run(name: str) -> None:
    import doctest
    import importlib

    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False
    )
    assert result.attempted > 0 and result.failed == 0, f"{name}: {result}"
