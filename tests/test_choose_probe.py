"""``view(..., choose=N)`` only probes the opening chart (which candidate opens, not its data);
the alternatives it learns, and the chart it draws, are those of planning in full."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from chartkit import ChartkitError, view

T0 = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
REGIONS = ["eu", "us", "ap", "sa", "af"]


def series(n: int, *, regions: int, minutes: int, nulls: bool = False) -> list[dict[str, Any]]:
    return [
        {
            "ts": (T0 + dt.timedelta(minutes=(i * 7) % max(1, minutes))).isoformat(),
            "ms": float((i * 37) % 101),
            "region": None if nulls and i % 9 == 0 else REGIONS[i % regions],
        }
        for i in range(n)
    ]


SERIES_DECL = {"ts": "date", "ms": "number", "region": "string"}


def second_series(n: int, *, late: bool, head_unplaced: bool, minutes: int) -> list[dict[str, Any]]:
    """A second region past the first 1,024 rows (what a probe reads first) when ``late``;
    with ``head_unplaced``, in the head too, but only on rows no line can place."""
    rows = series(n, regions=1, minutes=minutes)
    for i, row in enumerate(rows):
        if (late and i >= 1100) or (head_unplaced and i < 1100 and i % 2):
            row["region"] = "us"
            if i < 1100:
                row["ms"] = None if i % 4 == 1 else "n/a"
    return rows


SECOND = {"late": True, "head_unplaced": False, "minutes": 3000}
CASES: list[tuple[str, list[dict[str, Any]], Any, dict[str, Any]]] = [
    ("bucketed lines", series(300, regions=5, minutes=3000), SERIES_DECL, {}),
    ("one series", series(300, regions=1, minutes=3000), SERIES_DECL, {}),
    ("one date, five series", series(300, regions=5, minutes=0), SERIES_DECL, {}),
    ("one date, one series (one mark)", series(300, regions=1, minutes=0), SERIES_DECL, {}),
    ("a null series", series(300, regions=1, minutes=0, nulls=True), SERIES_DECL, {}),
    ("monthly sums", series(300, regions=2, minutes=90_000), SERIES_DECL,
     {"time_unit": "month", "aggregate": "sum"}),
    ("dates in one hour", series(300, regions=1, minutes=50), SERIES_DECL, {"time_unit": "hour"}),
    ("bucketed lines past the probe's head", series(1500, regions=5, minutes=3000),
     SERIES_DECL, {}),
    ("one series past the probe's head", series(1500, regions=1, minutes=3000), SERIES_DECL, {}),
    ("a second series after the head", second_series(1500, **SECOND), SERIES_DECL, {}),
    ("a second series unplaced in the head", second_series(1500, **{**SECOND, "late": False,
     "head_unplaced": True, "minutes": 0}), SERIES_DECL, {}),
    ("one date, one series past the head", series(1500, regions=1, minutes=0), SERIES_DECL, {}),
    ("one category (one bar)", [{"g": "a", "v": i} for i in range(200)],
     {"g": "string", "v": "number"}, {}),
    ("categories", [{"g": "abc"[i % 3], "v": i % 7} for i in range(200)],
     {"g": "string", "v": "number"}, {}),
    ("a constant (one bin)", [{"v": 4.0} for _ in range(200)], {"v": "number"}, {}),
    ("a spread measure", [{"v": float(i % 50)} for i in range(200)], {"v": "number"}, {}),
    ("a heatmap", [{"a": float(i % 13), "b": float(i % 17)} for i in range(300)],
     {"a": "number", "b": "number"}, {}),
    ("a heatmap of one cell", [{"a": 1.0, "b": 2.0} for _ in range(300)],
     {"a": "number", "b": "number"}, {}),
    ("undeclared labels of two types", [{"k": [True, "x", 3][i % 3], "v": i} for i in range(150)],
     {"v": "number"}, {}),
    ("booleans", [{"ok": i % 4 == 0, "v": i} for i in range(150)],
     {"ok": "boolean", "v": "number"}, {"aggregate": "count"}),
]  # fmt: skip


def shown(v: Any) -> tuple[Any, ...]:
    return (v.kind, v.mark, v.reason, v.spec, v.notes, v.refusals, v.left_out, v.alternatives)


@pytest.mark.parametrize(
    ("rows", "decl", "opts"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_choose_draws_each_alternative_the_full_plan_offers(
    rows: list[dict[str, Any]], decl: Any, opts: dict[str, Any]
) -> None:
    plain = view(rows, decl, max_points=100, **opts)
    for i, alt in enumerate(plain.alternatives):
        chosen = view(rows, decl, max_points=100, choose=i, **opts)
        picks = alt.picks()
        direct = view(rows, decl, max_points=100, **{**opts, **picks})
        assert shown(chosen) == shown(direct), (i, alt.chart)
    n = len(plain.alternatives)
    with pytest.raises(ChartkitError, match=rf"it has {n} \("):
        view(rows, decl, max_points=100, choose=n, **opts)
