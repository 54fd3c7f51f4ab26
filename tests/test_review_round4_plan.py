"""Review of the chart-choice changes of 4bdea98..a036449 (layouts, paired designs, a number
named date, mean lines over a dose's levels, lines broken at a number's missing points): each
defect found was a strict xfail here, on generated tables, until its fix landed; each is now
the test that keeps it fixed."""

from __future__ import annotations

import random
from typing import Any

import duckdb
import pandas as pd
import polars as pl
import pytest
from test_roles_by_design import doses

from chartkit import view
from chartkit.columns import normalize_result_columns
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts
from chartkit.plan.roles import Roles, assign

Rows = list[dict[str, Any]]


def _roles(rows: Rows, decl: dict[str, str]) -> Roles:
    frame = pd.DataFrame(rows)
    return assign(profile_columns(frame, normalize_result_columns(decl), ()), FrameFacts(frame))


# --- a number's gaps: the levels of a design are no missing points --------------------------


def _plants(levels: tuple[int, ...]) -> tuple[Rows, dict[str, str]]:
    """Five plants, each measured once at every concentration of ``levels``."""
    rnd = random.Random(3)
    rows = [
        {"conc": d, "plant": f"plant {p}", "uptake": round(10 + d * p * 0.01 + rnd.gauss(0, 1), 2)}
        for p in range(1, 6) for d in levels
    ]  # fmt: skip
    return rows, {"conc": "number", "plant": "string", "uptake": "number"}


def test_a_dose_s_mean_line_has_no_phantom_level() -> None:
    rows, decl = doses(1, (0.0, 10.0, 20.0, 40.0))
    v = view(rows, decl, x="dose", y="len", color="supp", aggregate="mean")
    assert v.mark == "line" and v.marks is not None
    assert sorted(set(v.marks["dose"])) == [0.0, 10.0, 20.0, 40.0]
    assert not v.marks["len"].isna().any()


def test_series_over_designed_levels_break_at_no_level_the_design_lacks() -> None:
    rows, decl = _plants((0, 10, 20, 30, 50))
    v = view(rows, decl)
    assert (v.mark, v.encodings["x"].column, v.encodings["color"].column) == (
        "line", "conc", "plant",
    )  # fmt: skip
    assert v.marks is not None
    assert sorted(set(v.marks["conc"])) == [0, 10, 20, 30, 50]
    assert len(v.marks) == len(rows)


def test_rounded_fractional_months_still_break_at_a_missing_month() -> None:
    rnd = random.Random(3)
    rows = [
        {"city": f"city {c}", "date": round(y + (m - 1) / 12, 4), "sales": rnd.randint(50, 500)}
        for c in range(3) for y in range(2000, 2006) for m in range(1, 13)
        if not (c == 1 and (y, m) in ((2002, 5), (2002, 6)))
    ]  # fmt: skip
    v = view(rows, {"city": "string", "date": "number", "sales": "number"})
    assert (v.mark, v.encodings["x"].column) == ("line", "date")
    assert v.marks is not None
    missing = v.marks[v.marks["sales"].isna()]
    assert missing["city"].tolist() == ["city 1"]
    assert missing["date"].tolist() == pytest.approx([2002 + 4 / 12], abs=1e-3)


# --- a layout: its category must cross both grids --------------------------------------------


def _factorial() -> tuple[Rows, dict[str, str]]:
    """A 4 × 4 factorial experiment (each temperature and pressure once) and the operator who
    ran each, drawn at random: no treatment crossing a field."""
    rnd = random.Random(1)
    rows = [
        {"temperature": t, "pressure": p, "operator": rnd.choice(["ann", "bob"]),
         "yield": round(50 + t / 10 + p * 3 + rnd.gauss(0, 2), 1)}
        for t in (150, 175, 200, 250) for p in (1.5, 2.5, 3.5, 5.0)
    ]  # fmt: skip
    decl = {"temperature": "number", "pressure": "number", "yield": "number",
            "operator": "string"}  # fmt: skip
    return rows, decl


def _nested_panel() -> tuple[Rows, dict[str, str]]:
    """Subjects 1 to 8 weighed each of 8 weeks, each subject in one treatment arm (nested in
    the subjects, crossing no week once each)."""
    rnd = random.Random(5)
    rows = [
        {"subject": s, "week": w, "treatment": "drug" if s <= 4 else "placebo",
         "weight": round(80 - (w * 0.5 if s <= 4 else 0) + rnd.gauss(0, 1), 1)}
        for s in range(1, 9) for w in range(1, 9)
    ]  # fmt: skip
    decl = {"subject": "number", "week": "number", "treatment": "string", "weight": "number"}
    return rows, decl


@pytest.mark.parametrize("made", [_factorial, _nested_panel], ids=["factorial", "nested"])
def test_two_grids_keying_the_rows_are_no_layout_unless_the_category_crosses_them(
    made: Any,
) -> None:
    rows, decl = made()
    assert _roles(rows, decl).layout == ()
    assert "a layout's rows and columns" not in view(rows, decl).reason


def test_a_layout_is_asked_of_each_pair_of_grids_once_at_most(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import chartkit.backends.query as query

    asked: list[tuple[str, ...]] = []
    real = query._unique_key

    def counting(reading: Any, names: Any) -> bool:
        asked.append(tuple(names))
        return bool(real(reading, names))

    monkeypatch.setattr(query, "_unique_key", counting)
    rnd = random.Random(1)
    rows = 5001  # (past max_points: the engine is asked, not the rows read into memory)
    items = [f"item_{i}" for i in range(6)]  # (six answers of a survey, 1 to 5 each)
    data: dict[str, list[Any]] = {i: [rnd.randint(1, 5) for _ in range(rows)] for i in items}
    data["region"] = [rnd.choice(["north", "south", "east"]) for _ in range(rows)]
    data["score"] = [rnd.random() * 100 for _ in range(rows)]
    decl = {**dict.fromkeys(items, "number"), "region": "string", "score": "number"}
    frame = pl.DataFrame(data)
    view(duckdb.connect().from_arrow(frame.to_arrow()), decl)
    pairs = [frozenset(k) for k in asked if len(k) == 2 and set(k) <= set(items)]
    assert len(pairs) == len(set(pairs))  # (no pair asked twice)
    assert len(pairs) <= len(items)  # (linear in the grids, not quadratic)


# --- a dose-response: its sentence and its color ---------------------------------------------


def test_a_dose_s_reason_says_no_level_is_shared_when_one_row_holds_it() -> None:
    rnd = random.Random(5)
    rows = [
        {"dose": d, "len": round(rnd.gauss(10, 2), 1), "supp": s}
        for s in ("OJ", "VC") for d, k in ((0.5, 10), (1.0, 10), (2.0, 1)) for _ in range(k)
    ]  # fmt: skip
    v = view(rows, {"dose": "number", "len": "number", "supp": "string"})
    assert v.mark == "line"
    assert "each shared by many rows" not in v.reason


def test_a_dose_response_colored_by_a_numbered_factor_refuses_no_color_of_its_own() -> None:
    rows, decl = doses(1)
    for r in rows:
        r["supp"] = 1 if r["supp"] == "OJ" else 2
    v = view(rows, {**decl, "supp": "number"})
    assert v.mark == "line"
    assert v.refusals == ()
    assert v.encodings["color"].column == "supp"
