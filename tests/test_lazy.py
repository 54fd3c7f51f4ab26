"""A check of rows imports no pandas, and answers as it does with pandas imported (issue 19 item 5).

``import chartkit`` plus a check of a list of dicts needs numpy (the census counts with it) but
not pandas (nor pyarrow, which pandas imports): pandas' nulls (``pd.NA``, ``NaT``) can only be in
the rows once pandas is imported, and the verdict table asks for them only then
(``chartkit._lazy``). ``bench/import.py`` prints what that saves in CPU time.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chartkit._lazy import lazy_module, loaded

CHECK = """
import json, math, sys, datetime as dt
import chartkit
rows = [{"lun": i % 7, "host": "vdi-a", "at": "2024-01-05T10:30Z", "ok": True, "gb": 0.5}
        for i in range(1000)]
rows[3]["lun"] = ""
rows[4]["gb"] = math.nan
rows[5]["host"] = None
del rows[6]["ok"]
rows[7]["at"] = dt.date(2024, 1, 5)
rows[8]["at"] = "20230808120000Z"
rows[9]["ok"] = "true"
declared = {"lun": "number", "host": "string", "at": "date", "ok": "boolean", "gb": "number",
            "gone": {"type": "number", "nullable": True}}
found = chartkit.check_columns(rows, declared)
print(json.dumps({"loaded": sorted(m for m in ("numpy", "pandas", "pyarrow") if m in sys.modules),
                  "found": [repr(v) for v in found]}))
"""


def run(prelude: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", prelude + CHECK], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_a_check_of_rows_imports_no_pandas_and_answers_as_with_it() -> None:
    bare = run("")
    with_pandas = run("import pandas\n")
    assert bare["loaded"] == ["numpy"]
    assert with_pandas["loaded"] == ["numpy", "pandas", "pyarrow"]
    assert bare["found"] == with_pandas["found"]
    assert len(bare["found"]) == 6  # type: ignore[arg-type]  # each column: one way to break


def test_pandas_nulls_in_rows_are_nulls() -> None:
    pd = pytest.importorskip("pandas")
    from chartkit import check_columns

    found = check_columns(
        [{"n": pd.NA}, {"n": pd.NaT}, {"n": None}, {"n": 1}], {"n": "number"}
    )
    assert [(v.column, v.affected, v.absent, v.offending_types) for v in found] == [
        ("n", 3, 3, ("null",))
    ]


def test_a_lazy_module_imports_on_first_use() -> None:
    assert loaded("json") and not loaded("chartkit_no_such_module")
    assert lazy_module("json").loads("[1]") == [1]
    with pytest.raises(ModuleNotFoundError):
        lazy_module("chartkit_no_such_module").anything  # noqa: B018
