"""``chart_file``'s Parquet guard judges every leaf column before any of them is decoded.

Issue 38, items 6 and 7: a long string inside a struct or a list, two columns named alike, a
prefix-encoded string column, and 50,000 columns. Each bomb is built with pyarrow here and
judged in a child process whose address space is capped 400 MiB above what it holds once
pyarrow is imported, so a file that would decode to GiBs must be refused there: decoding it
would die of ``MemoryError`` instead of answering.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chartkit.mcp._served import check_parquet

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="caps the address space (RLIMIT_AS) and reads /proc"
)

FIX = "chart a smaller extract (fewer rows or columns), or pass the rows to chart_rows"

_JUDGE = """
import resource, sys
import pyarrow, pyarrow.compute, pyarrow.parquet
from chartkit.mcp._served import NotServed, check_parquet

data = open(sys.argv[1], "rb").read()
with open("/proc/self/statm") as statm:
    held = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (held + 400 * 2**20, held + 400 * 2**20))
try:
    check_parquet(data, "'bomb.parquet'")
except NotServed as exc:
    print(exc)
else:
    print("served")
"""


def written(tmp_path: Path, table: Any, **options: Any) -> Path:
    """``table`` written as ``bomb.parquet`` with pyarrow's ``options``."""
    path = tmp_path / "bomb.parquet"
    pq.write_table(table, path, **options)
    return path


def judged_in_400_mib(path: Path) -> str:
    """What ``check_parquet`` says of the file at ``path``, with 400 MiB to spare."""
    run = subprocess.run(
        [sys.executable, "-c", _JUDGE, str(path)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.strip()


def long_strings(rows: int) -> Any:
    """``rows`` copies of one 1 MiB string as a dictionary: 1 MiB stored, ``rows`` MiB decoded."""
    return pa.array(["x" * 2**20]).dictionary_encode().take(pa.array([0] * rows))


# -- item 6: every leaf column, by position ---------------------------------------------------


def test_a_long_string_inside_a_struct_is_refused_before_it_is_repeated(tmp_path: Path) -> None:
    meta = pa.StructArray.from_arrays([pa.array(range(2000)), long_strings(2000)], ["n", "note"])
    said = judged_in_400_mib(written(tmp_path, pa.table({"meta": meta}), compression="zstd"))
    assert (tmp_path / "bomb.parquet").stat().st_size < 100_000
    assert said == (
        "'bomb.parquet' would decode to about 2.0 GiB in memory, over the 512.0 MiB chart_file "
        "decodes (2.0 GiB of it in column 'meta.note', column 2 of 2 in its Parquet schema); "
        f"{FIX}"
    )


def test_a_long_string_in_a_list_is_refused_before_it_is_repeated(tmp_path: Path) -> None:
    tags = pa.ListArray.from_arrays(pa.array([0, 1000, 2000]), long_strings(2000))
    said = judged_in_400_mib(written(tmp_path, pa.table({"tags": tags}), compression="zstd"))
    assert said == (
        "'bomb.parquet' would decode to about 2.0 GiB in memory, over the 512.0 MiB chart_file "
        "decodes (2.0 GiB of it in column 'tags.list.element', column 1 of 1 in its Parquet "
        f"schema); {FIX}"
    )


def test_two_columns_named_alike_are_refused_before_either_is_read(tmp_path: Path) -> None:
    table = pa.Table.from_arrays([pa.array(["a"] * 3000), long_strings(3000)], ["name", "name"])
    said = judged_in_400_mib(written(tmp_path, table, compression="zstd"))
    assert (tmp_path / "bomb.parquet").stat().st_size < 100_000
    assert said == (
        "'bomb.parquet' holds 2 columns named 'name'; a column is read by its name, so give each "
        "column a name of its own"
    )


def test_two_fields_of_a_struct_named_alike_are_refused(tmp_path: Path) -> None:
    inner = pa.StructArray.from_arrays([pa.array([1, 2]), pa.array(["a", "b"])], ["x", "x"])
    listed = pa.ListArray.from_arrays(pa.array([0, 1, 2]), inner)
    said = judged_in_400_mib(written(tmp_path, pa.table({"outer": listed})))
    assert said == (
        "'bomb.parquet' holds 2 columns named 'outer.x'; a column is read by its name, so give "
        "each column a name of its own"
    )


def test_a_prefix_encoded_string_column_is_read_in_batches_that_cannot_pass_the_cap(
    tmp_path: Path,
) -> None:
    # DELTA_BYTE_ARRAY: each value is the one before it but for its last six characters, so
    # 640 values of 1 MiB each (640 MiB decoded) take a few KiB; Arrow cannot read it as a
    # dictionary, so the guard reads it a few rows at a time. Written 64 values at a time.
    path = tmp_path / "bomb.parquet"
    schema = pa.schema({"d": pa.string()})
    with pq.ParquetWriter(
        path,
        schema,
        use_dictionary=False,
        column_encoding={"d": "DELTA_BYTE_ARRAY"},
        compression="zstd",
    ) as writer:
        for piece in range(10):
            values = ["x" * 2**20 + f"{piece:03d}{i:03d}" for i in range(64)]
            writer.write_table(pa.table({"d": values}, schema=schema))
    assert path.stat().st_size < 100_000
    said = judged_in_400_mib(path)
    assert said.startswith("'bomb.parquet' would decode to about ")
    assert "over the 512.0 MiB chart_file decodes (" in said
    assert said.endswith(f"of it in column 'd', column 1 of 1 in its Parquet schema); {FIX}")


def test_nested_text_within_the_cap_is_served(tmp_path: Path) -> None:
    """Long text that decodes to tens of MiB, in a struct, a list and a map, passes."""
    rows = 4000
    note = pa.array(["y" * 10_000, "z"]).dictionary_encode().take(pa.array([0, 1] * (rows // 2)))
    meta = pa.StructArray.from_arrays([note, pa.array(range(rows))], ["note", "n"])
    tags = pa.ListArray.from_arrays(
        pa.array(range(0, 2 * rows + 1, 2)), pa.array(["a", "b"] * rows)
    )
    attrs = pa.array([[("k", "v" * 1000)]] * rows, type=pa.map_(pa.string(), pa.string()))
    table = pa.table({"meta": meta, "tags": tags, "attrs": attrs, "lun": pa.array([0.0] * rows)})
    path = tmp_path / "fine.parquet"
    pq.write_table(table, path)
    assert check_parquet(path.read_bytes(), "'fine.parquet'") is None


# -- item 7: linear in the columns -------------------------------------------------------------


def test_a_bomb_in_the_last_of_50000_columns_is_found_by_its_position(tmp_path: Path) -> None:
    rows = 100
    ints = pa.array(range(rows))
    note = pa.array(["x" * 2**23]).dictionary_encode().take(pa.array([0] * rows))
    wide = pa.StructArray.from_arrays([note], ["note"])
    names = [f"c{i}" for i in range(49_999)] + ["wide"]
    table = pa.Table.from_arrays([ints] * 49_999 + [wide], names)
    said = judged_in_400_mib(written(tmp_path, table, write_statistics=False, compression="zstd"))
    assert said == (
        "'bomb.parquet' would decode to about 1.1 GiB in memory, over the 512.0 MiB chart_file "
        "decodes (800.0 MiB of it in column 'wide.note', column 50,000 of 50,000 in its Parquet "
        f"schema); {FIX}"
    )


def test_50000_columns_named_alike_are_counted_once(tmp_path: Path) -> None:
    table = pa.Table.from_arrays([pa.array([1, 2, 3])] * 50_000, ["c"] * 50_000)
    said = judged_in_400_mib(written(tmp_path, table, write_statistics=False, use_dictionary=False))
    assert said == (
        "'bomb.parquet' holds 50,000 columns named 'c'; a column is read by its name, so give "
        "each column a name of its own"
    )


def test_50000_distinct_columns_within_the_caps_are_served(tmp_path: Path) -> None:
    names = [f"c{i}" for i in range(50_000)]
    table = pa.Table.from_arrays([pa.array([1.5, 2.5, 3.5])] * 50_000, names)
    path = tmp_path / "wide.parquet"
    pq.write_table(table, path, write_statistics=False)
    assert check_parquet(path.read_bytes(), "'wide.parquet'") is None
