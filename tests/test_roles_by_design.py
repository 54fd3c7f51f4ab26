"""Roles of an experiment's design (issue 40 items 1–3), each a pattern of generated tables,
never one dataset:

- a layout: two grids of levels (a field's row and column positions) key the rows together and
  a category crosses them (a Latin square's treatments). The treatments are compared — bars per
  treatment — and the positions, which only place them, are drawn on no channel;
- a paired design: subjects numbered and named id, each measured once at every level of a
  grid of few levels (two drugs, 1 and 2). Each subject is a series over the levels: a line
  each, where a histogram of the measure drew neither the levels nor the pairs;
- a dose-response: one measure over a dose of three ordered levels that are no codes (0.5, 1
  and 2), two rows a level or more, and a category: the line of the mean per level, one per
  category (an interaction plot), where bars per the category colored by the dose opened;
- a monthly panel: cities, each with a row a month, and the month as a number named ``date``
  holding fractional calendar years (beside its year and month). The date is the series'
  index — a line per city, or past 20 cities the line of their mean — and a mean line never
  averages the year, which is the same at each of its months.

Each holds on memory, DuckDB and polars alike, and under a stray value.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_defaults_engines import each_engine_chooses_as_memory
from test_roles_by_levels import roles_of, stray

from chartkit import view
from chartkit.columns import normalize_result_columns
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts
from chartkit.plan.roles import assign

Rows = list[dict[str, Any]]


def square(seed: int, *, size: int = 8, as_letters: bool = True) -> tuple[Rows, dict[str, str]]:
    """A Latin square: ``size`` treatments, each once in every row and every column of a
    ``size`` × ``size`` field, and the measured effect."""
    rnd = random.Random(seed)
    rows = []
    for r in range(1, size + 1):
        for c in range(1, size + 1):
            t = (r + c) % size
            rows.append({
                "effect": round(rnd.lognormvariate(t / 3, 0.4) * 5, 1),
                "rowpos": r, "colpos": c,
                "treatment": chr(ord("A") + t) if as_letters else f"spray {t}",
            })  # fmt: skip
    rnd.shuffle(rows)
    decl = {"effect": "number", "rowpos": "number", "colpos": "number", "treatment": "string"}
    return rows, decl


def paired(seed: int, *, subjects: int = 10) -> tuple[Rows, dict[str, str]]:
    """Subjects 1 to ``subjects`` (named ID), each measured under group 1 and group 2."""
    rnd = random.Random(seed)
    rows = [
        {"extra": round(rnd.gauss(g, 1.5), 1), "group": g, "ID": s}
        for g in (1, 2) for s in range(1, subjects + 1)
    ]  # fmt: skip
    return rows, {"extra": "number", "group": "number", "ID": "number"}


def test_a_layout_s_treatments_are_compared_and_its_positions_drawn_nowhere() -> None:
    """Eight treatments over an 8 × 8 field: bars of the mean effect per treatment. Before,
    each treatment was taken for a series over the row positions (the two key the rows, as
    any two of a Latin square's three do) and a strip over the positions opened."""
    rows, decl = square(1)
    assert roles_of(rows, decl) == {
        "effect": "measure", "rowpos": "grid", "colpos": "grid", "treatment": "factor",
    }  # fmt: skip
    shown = view(rows, decl)
    assert shown.mark == "bar"
    assert {c: e.column for c, e in shown.encodings.items()} == {
        "x": "effect", "y": "treatment",
    }  # fmt: skip
    assert shown.reason == (
        "treatment is declared string and effect is declared number: bars of the mean per "
        "treatment, horizontal and sorted. Chosen over the others because a layout's rows and "
        "columns only place its treatments: the treatments are compared."
    )
    drawn = {a.x for a in shown.alternatives} | {a.color for a in shown.alternatives}
    assert shown.alternatives[0].chart == "scatter"  # (the positions come after the bars)
    assert "rowpos" in drawn  # (still offered: a layout is read by its positions too)


def test_the_layout_is_the_grids_that_key_the_rows_together() -> None:
    import pandas as pd

    rows, decl = square(2, size=6, as_letters=False)
    frame = pd.DataFrame(rows)
    roles = assign(profile_columns(frame, normalize_result_columns(decl), ()), FrameFacts(frame))
    assert roles.layout == ("rowpos", "colpos")


def test_a_panel_over_one_grid_keeps_its_entity() -> None:
    """A category measured once at each level of one grid, with no second grid to key the
    rows with: each value is a series (no layout), as before."""
    rnd = random.Random(3)
    rows = [
        {"dose": d, "plant": f"plant {p}", "uptake": round(10 + d * p * 0.01 + rnd.gauss(0, 1), 2)}
        for p in range(1, 6) for d in (95, 175, 250, 350, 500, 675, 1000)
    ]  # fmt: skip
    decl = {"dose": "number", "plant": "string", "uptake": "number"}
    assert roles_of(rows, decl)["plant"] == "entity"
    assert view(rows, decl).mark == "line"


def test_each_subject_of_a_paired_design_is_a_line_over_the_levels() -> None:
    rows, decl = paired(1)
    assert roles_of(rows, decl) == {"extra": "measure", "group": "grid", "ID": "entity"}
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert {c: e.column for c, e in shown.encodings.items()} == {
        "x": "group", "y": "extra", "color": "ID",
    }  # fmt: skip
    assert shown.encodings["color"].type == "nominal"  # (subjects told apart, no gradient)
    assert shown.reason == (
        "group is declared number and extra is declared number: group holds 2 ordered values "
        "and keys the rows with ID, so extra is a series over it: a line, one per ID. Chosen "
        "over the others because a measure is y, what it is measured over x; a series over a "
        "grid is drawn as a line, one per entity."
    )


def test_an_id_measured_once_is_no_entity_of_the_levels() -> None:
    """A row id (each value once) keys the rows alone: no subject is measured twice, no
    pairs to draw."""
    rows, decl = paired(2)
    for k, r in enumerate(rows, 1):
        r["ID"] = k
    assert roles_of(rows, decl)["ID"] == "identifier"
    assert view(rows, decl).mark != "line"


@pytest.mark.parametrize("made", [lambda: square(4), lambda: paired(4)], ids=["square", "paired"])
def test_every_engine_chooses_designs_as_memory(made: Any) -> None:
    rows, decl = made()
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_moves_neither_design(offender: str) -> None:
    """One stray value in the measure, or in a position: the same mark and channels."""
    for (rows, decl), column in [
        (square(5), "effect"), (square(6), "colpos"), (paired(5), "extra"),
    ]:  # fmt: skip
        stray(rows, decl, column, offender)


def monthly_panel(seed: int, *, cities: int) -> tuple[Rows, dict[str, str]]:
    """``cities`` cities, a row a month over ten years: year, month, the date as a fractional
    year (2000.0, 2000.083…), and two measures."""
    rnd = random.Random(seed)
    rows = [
        {"city": f"city {c}", "year": y, "month": m, "sales": rnd.randint(50, 500),
         "volume": round(rnd.uniform(1e6, 1e8), 2), "date": y + (m - 1) / 12}
        for c in range(cities) for y in range(2000, 2010) for m in range(1, 13)
    ]  # fmt: skip
    rnd.shuffle(rows)
    decl = {"city": "string", "year": "number", "month": "number", "sales": "number",
            "volume": "number", "date": "number"}  # fmt: skip
    return rows, decl


def test_a_number_named_date_holding_calendar_years_indexes_a_panel() -> None:
    """Before, the date was a measure and the default a scatter of sales against volume."""
    rows, decl = monthly_panel(1, cities=12)
    assert roles_of(rows, decl)["city"] == "entity"
    shown = view(rows, decl)
    assert (shown.mark, shown.encodings["x"].column, shown.encodings["y"].column) == (
        "line", "date", "sales",
    )  # fmt: skip
    assert shown.encodings["facet"].column == "city"  # (12 cities: a small chart each)


def test_the_mean_line_of_many_entities_never_averages_a_grid() -> None:
    """46 cities: the mean of sales per date, not the mean of the year (the first number
    declared), which a monthly panel holds the same at each of a year's months."""
    rows, decl = monthly_panel(2, cities=46)
    shown = view(rows, decl)
    assert (shown.mark, shown.encodings["x"].column, shown.encodings["y"].column) == (
        "line", "date", "sales",
    )  # fmt: skip
    means = [a.y for a in shown.alternatives if a.chart == "mean lines"]
    assert means[0] == "volume"  # (the other measure next; a grid's mean, if at all, after)


@pytest.mark.parametrize("cities", [3, 30])
def test_every_engine_draws_a_monthly_panel_as_memory(cities: int) -> None:
    rows, decl = monthly_panel(3, cities=cities)
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_moves_no_monthly_panel(offender: str) -> None:
    rows, decl = monthly_panel(4, cities=5)
    for column in ("date", "sales"):
        stray(rows, decl, column, offender)


def doses(seed: int, levels: tuple[float, ...] = (0.5, 1.0, 2.0)) -> tuple[Rows, dict[str, str]]:
    """Ten measurements per supplement and dose (a dose-response of two supplements)."""
    rnd = random.Random(seed)
    rows = [
        {"len": round(rnd.gauss(10 + 5 * k, 3), 1), "supp": s, "dose": d}
        for s in ("OJ", "VC") for k, d in enumerate(levels) for _ in range(10)
    ]  # fmt: skip
    rnd.shuffle(rows)
    return rows, {"len": "number", "supp": "string", "dose": "number"}


def test_a_dose_of_three_levels_draws_the_mean_line_per_level_and_category() -> None:
    rows, decl = doses(1)
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert {c: (e.column, e.aggregate) for c, e in shown.encodings.items()} == {
        "x": ("dose", None), "y": ("len", "mean"), "color": ("supp", None),
    }  # fmt: skip
    assert shown.reason == (
        "dose is declared number and len is declared number; dose holds 3 ordered levels over "
        "60 rows: a line of the mean of len per level, one per supp (declared string, 2 "
        "values)."
    )
    assert shown.alternatives[0].chart == "colored bars"  # (the bars of the same means next)
    picked = view(rows, decl, x="dose", y="len", color="supp", aggregate="mean")
    assert (picked.mark, picked.reason) == (shown.mark, shown.reason)


@pytest.mark.parametrize(
    ("levels", "mark"),
    [((1, 2, 3), "bar"), ((0, 10, 50, 100, 200), "point")],
    ids=["codes", "five-levels"],
)
def test_codes_or_more_levels_draw_no_mean_line(levels: tuple[float, ...], mark: str) -> None:
    """Whole levels 1 to 3 are codes (groups, in no order a line may follow): bars; five
    levels read as an axis: the rows in a scatter."""
    rows, decl = doses(2, levels)
    assert view(rows, decl).mark == mark


def test_a_second_measure_is_paired_before_a_mean_per_level() -> None:
    rows, decl = doses(3)
    rnd = random.Random(3)
    for r in rows:
        r["weight"] = round(rnd.gauss(50, 5), 1)
    shown = view(rows, {**decl, "weight": "number"})
    assert shown.mark == "point"
    assert {shown.encodings["x"].column, shown.encodings["y"].column} == {"len", "weight"}


def test_every_engine_draws_a_dose_response_as_memory() -> None:
    rows, decl = doses(4)
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_moves_no_dose_response(offender: str) -> None:
    rows, decl = doses(5)
    for column in ("len", "dose"):
        stray(rows, decl, column, offender)
