"""An eager polars DataFrame or pyarrow Table whose counts are all null counts and NaNs is
counted by its own calls (metadata, no query). The contract holds either way: the backend's
violations are those of the rows' own check, whether the shortcut or the count query
answered, and the shortcut answers exactly when every count is a null or a NaN count."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import polars as pl
import pyarrow as pa
import pytest
from test_dataframes import assert_same

import chartkit.check._frame_check as frame_check
from chartkit import check_columns
from chartkit.backends import backend_for

DECLARED = {
    "f": "number",
    "i": {"type": "number", "nullable": True},
    "s": "string",
    "b": "boolean",
    "t": "date",
    "n": "date",  # holds text: each value's ISO test is its own condition, so the query counts
}


def frames(seed: int) -> list[Any]:
    rng = random.Random(seed)
    n = rng.randint(1, 60)

    def maybe(value: Any, p: float = 0.2) -> Any:
        return None if rng.random() < p else value

    data = {
        "f": [maybe(rng.choice([1.5, float("nan"), -0.0, float("inf")])) for _ in range(n)],
        "i": [maybe(rng.randint(-5, 5)) for _ in range(n)],
        "s": [maybe(rng.choice(["a", "", "2024-01-01"])) for _ in range(n)],
        "b": [maybe(rng.random() < 0.5) for _ in range(n)],
        "t": [maybe(dt.datetime(2024, 1, 1 + rng.randint(0, 9))) for _ in range(n)],
        "n": [maybe(rng.choice(["2024-01-01", "soon", ""])) for _ in range(n)],
    }
    table = pa.table(
        {
            **{k: pa.array(v) for k, v in data.items() if k not in {"f", "t"}},
            "f": pa.array(data["f"], pa.float64()),
            "t": pa.array(data["t"], pa.timestamp("us")),
        }
    )
    return [table, pl.from_arrow(table)]


@pytest.mark.parametrize("seed", range(25))
def test_native_counts_and_the_count_query_give_the_violations_the_rows_give(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = frame_check._native_counts
    for frame in frames(seed):
        rows = frame.to_pylist() if isinstance(frame, pa.Table) else frame.to_dicts()
        for declared in ({k: v for k, v in DECLARED.items() if k != "n"}, DECLARED):
            calls: list[Any] = []

            def spy(*args: Any, real: Any = real, calls: list[Any] = calls) -> Any:
                calls.append(real(*args))
                return calls[-1]

            monkeypatch.setattr(frame_check, "_native_counts", spy)
            native = backend_for(frame).offenders(declared)
            monkeypatch.setattr(frame_check, "_native_counts", lambda *_: None)
            queried = backend_for(frame).offenders(declared)
            assert [v.to_dict() for v in native] == [v.to_dict() for v in queried]
            assert_same(native, check_columns(rows, declared))
            # the shortcut answered exactly when every count is a null count or a NaN count:
            # not for "n" (dates as text), nor for a column with no type (all None)
            types = (
                [frame.schema.field(name).type for name in declared]
                if isinstance(frame, pa.Table)
                else [frame.schema[name] for name in declared]
            )
            untyped = any(str(tp).lower() == "null" for tp in types)
            expected = "n" not in declared and not untyped
            assert (calls[0] is not None) is expected, (type(frame), declared)


@pytest.mark.parametrize("name", ["a\x00b", 'x\n"y`*# **bold**', "é" * 5000])
def test_hostile_column_names_are_counted_natively_as_the_query_counts_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = pa.table({name: pa.array([1.0, None, float("nan")]), "s": pa.array(["a", None, "b"])})
    declared = {name: "number", "s": "string"}
    for frame in (table, pl.DataFrame({name: [1.0, None, float("nan")], "s": ["a", None, "b"]})):
        native = [v.to_dict() for v in check_columns(frame, declared)]
        monkeypatch.setattr(frame_check, "_native_counts", lambda *_: None)
        queried = [v.to_dict() for v in check_columns(frame, declared)]
        monkeypatch.undo()
        assert native == queried
        assert [(v["column"], v["affected"]) for v in native] == [(name, 2), ("s", 1)]
