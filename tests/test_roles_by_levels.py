"""Roles that numbers of few levels, names and degrees carry (issue 40 items 1–3), each a
pattern of generated tables, never one dataset:

- a number of few repeated levels (a class 0/1/2, cylinders 4/6/8) colors a scatter of two
  measures, told apart as categories are (nominal), not as a gradient;
- a grid of uneven levels (ages, concentrations) that keys the rows with an entity is a
  series: a line per entity; a number of fewer levels than that grid may be the entity;
- a number named a time holding calendar years (1949.0, 1949.083…: a monthly series as R's
  frames hold it) that keys the rows alone is a series' index: a line;
- a whole number named an id names rows, repeated or not: no axis;
- a longitude from 0 to 360 degrees east is a coordinate as one from -180 to 180 is.

Each holds on memory, DuckDB and polars alike, and under up to 1% stray values.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_defaults_engines import each_engine_chooses_as_memory

from chartkit import view
from chartkit.columns import normalize_result_columns
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts
from chartkit.plan.roles import assign

Rows = list[dict[str, Any]]


def classes(seed: int, *, levels: int = 3, features: int = 4) -> tuple[Rows, dict[str, str]]:
    """Measures of ``levels`` classes, the class last as a number 0..levels-1 (a target)."""
    rnd = random.Random(seed)
    rows = [
        {**{f"feature {k}": round(rnd.gauss(5 + c + k, 1), 2) for k in range(features)},
         "target": c}
        for c in range(levels) for _ in range(40)
    ]  # fmt: skip
    rnd.shuffle(rows)
    return rows, {**{f"feature {k}": "number" for k in range(features)}, "target": "number"}


def panel(seed: int, *, entity_as_number: bool) -> tuple[Rows, dict[str, str]]:
    """Five trees each measured at the same seven uneven ages (a panel over a grid of levels)."""
    rnd = random.Random(seed)
    ages = [118, 484, 664, 1004, 1231, 1372, 1582]
    rows = [
        {"tree": t if entity_as_number else f"tree {t}", "age": a,
         "circumference": round(30 + a * 0.1 * t + rnd.gauss(0, 5), 1)}
        for t in range(1, 6) for a in ages
    ]  # fmt: skip
    rnd.shuffle(rows)
    tree = "number" if entity_as_number else "string"
    return rows, {"tree": tree, "age": "number", "circumference": "number"}


def monthly(seed: int, *, name: str = "time", start: float = 1949.0) -> tuple[Rows, dict[str, str]]:
    """A monthly series as a frame of fractional years (``start`` + k/12) and a value."""
    rnd = random.Random(seed)
    rows = [
        {name: start + k / 12, "passengers": round(100 + 2 * k + rnd.gauss(0, 10))}
        for k in range(144)
    ]  # fmt: skip
    return rows, {name: "number", "passengers": "number"}


def roles_of(rows: Rows, decl: dict[str, str]) -> dict[str, str]:
    import pandas as pd

    frame = pd.DataFrame(rows)
    got = assign(profile_columns(frame, normalize_result_columns(decl), ()), FrameFacts(frame))
    return {n: r.role for n, r in got.items()}


def stray(rows: Rows, decl: dict[str, Any], column: str, offender: str, at: int | None = None
          ) -> tuple[Any, Any]:  # fmt: skip
    """The view of ``rows`` and of a copy whose row ``at`` (the middle one by default) holds
    ``offender`` in ``column``, after asserting that both draw the same mark and channels."""
    before = view(rows, decl)
    rows = [dict(r) for r in rows]
    rows[len(rows) // 2 if at is None else at][column] = offender
    after = view(rows, decl)
    assert (after.mark, {c: e.column for c, e in after.encodings.items()}) == (
        before.mark, {c: e.column for c, e in before.encodings.items()},
    ), column  # fmt: skip
    return before, after


@pytest.mark.parametrize("levels", [2, 3, 8])
def test_a_number_of_few_levels_colors_a_scatter_of_measures_as_categories(levels: int) -> None:
    rows, decl = classes(levels, levels=levels)
    shown = view(rows, decl)
    assert shown.mark == "point"
    assert {c: e.column for c, e in shown.encodings.items()} == {
        "x": "feature 0", "y": "feature 1", "color": "target",
    }  # fmt: skip
    assert shown.spec is not None
    assert shown.spec["encoding"]["color"]["type"] == "nominal"
    assert shown.reason.startswith(
        "feature 0 is declared number and feature 1 is declared number: a scatter plot; "
        "target (declared number) as color."
    )


def test_a_number_of_many_values_colors_no_scatter_by_itself() -> None:
    """A measure of many values is no factor: the scatter opens uncolored."""
    rows, decl = classes(1)
    rnd = random.Random(1)
    for r in rows:
        r["target"] = round(rnd.uniform(0, 100), 3)  # a measure of its own
    shown = view(rows, decl)
    assert shown.mark == "point" and "color" not in shown.encodings


@pytest.mark.parametrize("entity_as_number", [False, True])
def test_a_panel_over_uneven_levels_draws_a_line_per_entity(entity_as_number: bool) -> None:
    rows, decl = panel(3, entity_as_number=entity_as_number)
    assert roles_of(rows, decl) == {"tree": "entity", "age": "grid", "circumference": "measure"}
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert {c: e.column for c, e in shown.encodings.items()} == {
        "x": "age", "y": "circumference", "color": "tree",
    }  # fmt: skip
    assert shown.encodings["color"].type == "nominal"
    # the sentence is true of uneven ages: ordered values, never "evenly spaced"
    assert "age holds 7 ordered values and keys the rows with tree" in shown.reason


def test_a_number_of_as_many_levels_as_the_grid_is_no_entity() -> None:
    """Two numbers of equal levels keying the rows: which one is measured over is not known,
    so neither is made the other's entity."""
    rows = [{"a": i, "b": j, "m": float(i * 7 + j)} for i in range(5) for j in range(5)]
    decl = {"a": "number", "b": "number", "m": "number"}
    assert "entity" not in roles_of(rows, decl).values()


@pytest.mark.parametrize("name", ["time", "year", "Time", "sales_year"])
def test_a_number_named_a_time_holding_calendar_years_is_a_series_index(name: str) -> None:
    rows, decl = monthly(5, name=name)
    assert roles_of(rows, decl)[name] == "grid"
    shown = view(rows, decl)
    assert (shown.mark, shown.encodings["x"].column) == ("line", name)
    assert f"{name} holds 144 values, named as a time, and keys the rows" in shown.reason


@pytest.mark.parametrize(("name", "start"), [("time", 3.0), ("duration", 1949.0), ("year", 7.5)])
def test_no_time_by_name_outside_the_calendar_or_the_names(name: str, start: float) -> None:
    """Not named a time, or not calendar years: a scatter of two measures, as before."""
    rows, decl = monthly(5, name=name, start=start)
    shown = view(rows, decl)
    assert shown.mark == "point"


def test_a_whole_number_named_an_id_is_no_axis_even_repeated() -> None:
    rnd = random.Random(11)
    rows = [
        {"extra": round(rnd.gauss(1, 2), 1), "group": g, "ID": i}
        for g in (1, 2) for i in range(1, 11)
    ]  # fmt: skip
    decl = {"extra": "number", "group": "number", "ID": "number"}
    # (each subject measured in both groups: a paired design, whose subjects are lines —
    # test_roles_by_design — told apart by color, never placed on an axis)
    assert roles_of(rows, decl)["ID"] == "entity"
    shown = view(rows, decl)
    assert "ID" not in {shown.encodings[c].column for c in ("x", "y") if c in shown.encodings}
    for r in rows:
        r["ID"] = r["ID"] + 10 * r["group"]  # (each value once: a row's name, no subject)
    assert roles_of(rows, decl)["ID"] == "identifier"
    shown = view(rows, decl)
    assert "ID" not in {e.column for e in shown.encodings.values()}


def test_a_longitude_east_of_180_is_drawn_on_a_map() -> None:
    rnd = random.Random(2)
    rows = [
        {"lat": round(rnd.uniform(-38, -10), 2), "long": round(rnd.uniform(165, 188), 2),
         "depth": rnd.randint(40, 680), "mag": round(rnd.gauss(4.6, 0.4), 1)}
        for _ in range(400)
    ]  # fmt: skip
    decl = dict.fromkeys(rows[0], "number")
    assert roles_of(rows, decl)["long"] == "coordinate"
    shown = view(rows, decl)
    assert (shown.encodings["x"].column, shown.encodings["y"].column) == ("long", "lat")
    rows[0]["long"] = 361.0  # past 360: no longitude
    assert roles_of(rows, decl)["long"] == "measure"


@pytest.mark.parametrize(
    "made",
    [
        lambda: classes(4),
        lambda: panel(4, entity_as_number=True),
        lambda: panel(4, entity_as_number=False),
        lambda: monthly(4),
    ],
    ids=["class-color", "numeric-entity", "string-entity", "named-time"],
)
def test_every_engine_chooses_these_as_memory(made: Any) -> None:
    rows, decl = made()
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_moves_none_of_these_charts(offender: str) -> None:
    """One stray value in the class, the grid or the time: the same mark and channels."""
    for (rows, decl), column in [
        (classes(6), "target"),
        (panel(6, entity_as_number=True), "age"),
        (monthly(6), "time"),
    ]:
        stray(rows, decl, column, offender)


def test_few_levels_spread_over_a_wide_span_color_no_scatter() -> None:
    """An air flow of 50 to 80 in 8 levels is a measure that holds few values, no code: the
    scatter opens uncolored; beside a 0/1 flag and a category, the category colors it, and
    without the category the flag does (the code of fewest levels first)."""
    rnd = random.Random(8)
    flows = [50, 56, 58, 62, 70, 72, 75, 80]
    rows = [
        {"loss": round(rnd.gauss(20, 5), 1), "conc": round(rnd.gauss(86, 5), 1),
         "flow": rnd.choice(flows), "temp": rnd.randint(1, 4), "south": rnd.randint(0, 1),
         "site": rnd.choice(["a", "b", "c"])}
        for _ in range(60)
    ]  # fmt: skip
    only_flow = {"loss": "number", "conc": "number", "flow": "number"}
    shown = view([{k: r[k] for k in only_flow} for r in rows], only_flow)
    assert shown.mark == "point" and "color" not in shown.encodings
    decl = {"loss": "number", "conc": "number", "flow": "number", "temp": "number",
            "south": "number", "site": "string"}  # fmt: skip
    assert view(rows, decl).encodings["color"].column == "site"
    del decl["site"]
    rows = [{k: r[k] for k in decl} for r in rows]
    assert view(rows, decl).encodings["color"].column == "south"


def numbered_panel(seed: int, *, entities: int) -> tuple[Rows, dict[str, str]]:
    """``entities`` subjects numbered 301, 303, … each measured at six uneven ages."""
    rnd = random.Random(seed)
    rows = [
        {"height": round(4 + a * 2.2 + rnd.gauss(0, 1), 2), "age": a, "seed": 301 + 2 * s}
        for s in range(entities) for a in (3, 5, 10, 15, 20, 25)
    ]  # fmt: skip
    rnd.shuffle(rows)
    return rows, {"height": "number", "age": "number", "seed": "number"}


def test_a_numbered_entity_of_many_values_is_a_panel_never_an_axis() -> None:
    """Subjects numbered 301 to 327 over six ages: 14 series, drawn a small chart each (more
    than ten colors), the note counting the subjects as the role does; 40 subjects: their
    mean per age. The number that names series is never a measure of its own."""
    rows, decl = numbered_panel(1, entities=14)
    assert roles_of(rows, decl) == {"height": "measure", "age": "grid", "seed": "entity"}
    shown = view(rows, decl)
    assert (shown.mark, {c: e.column for c, e in shown.encodings.items()}) == (
        "line", {"x": "age", "y": "height", "facet": "seed"},
    )  # fmt: skip
    assert shown.notes == (
        "seed has 14 values, more than the 10 colors that can be told apart: one small chart "
        "per seed instead.",
    )
    assert all("seed" not in (a.x, a.y) for a in shown.alternatives)
    wide = view(*numbered_panel(2, entities=40))
    assert (wide.mark, wide.drawn["x"], wide.drawn["y"]) == ("line", "age", "height")
    assert "a line of the mean of height per age" in wide.reason


def test_few_levels_are_no_entity_of_a_numbered_key_over_them() -> None:
    """Travellers 1 to 60, each with a row per mode 1 to 4: four levels are no series'
    points (fewer than five), so the travellers are no panel over them."""
    rnd = random.Random(3)
    rows = [
        {"traveller": t, "mode": m, "cost": round(rnd.uniform(10, 90), 2)}
        for t in range(1, 61) for m in range(1, 5)
    ]  # fmt: skip
    decl = {"traveller": "number", "mode": "number", "cost": "number"}
    assert "entity" not in roles_of(rows, decl).values()


@pytest.mark.parametrize("entities", [14, 40])
def test_every_engine_draws_a_numbered_panel_as_memory(entities: int) -> None:
    rows, decl = numbered_panel(5, entities=entities)
    each_engine_chooses_as_memory(rows, decl, None)


def test_a_number_named_a_unit_of_time_numbers_no_entity() -> None:
    """Days 1 to 30 of five months key the rows as chicks over their weighing times would;
    a day is what rows are measured over, never the entity measured, so no panel of days."""
    rnd = random.Random(4)
    rows = [
        {"ozone": float(rnd.randint(1, 150)), "month": m, "day": d}
        for m in range(5, 10) for d in range(1, 31)
    ]  # fmt: skip
    decl = {"ozone": "number", "month": "number", "day": "number"}
    assert "entity" not in roles_of(rows, decl).values()
    renamed = [{"ozone": r["ozone"], "month": r["month"], "chick": r["day"]} for r in rows]
    assert roles_of(renamed, {"ozone": "number", "month": "number", "chick": "number"}) == {
        "ozone": "measure", "month": "grid", "chick": "entity",
    }  # fmt: skip


def runs(seed: int) -> tuple[Rows, dict[str, str]]:
    """Runs 1 to 20 of each of five experiments (a measurement repeated in order)."""
    rnd = random.Random(seed)
    rows = [
        {"expt": e, "run": r, "speed": round(850 + 10 * e + rnd.gauss(0, 40))}
        for e in range(1, 6) for r in range(1, 21)
    ]  # fmt: skip
    rnd.shuffle(rows)
    return rows, {"expt": "number", "run": "number", "speed": "number"}


def cells(seed: int) -> tuple[Rows, dict[str, Any]]:
    """A contingency table of three categories (6, 2 and 4 values; a few cells absent) with
    two counts per cell: cases and controls."""
    rnd = random.Random(seed)
    rows = [
        {"age": f"{25 + 10 * a}-{34 + 10 * a}", "sex": s, "dose": f"d{d}",
         "cases": rnd.randint(0, 9), "controls": rnd.randint(0, 60)}
        for a in range(6) for s in ("f", "m") for d in range(4) if rnd.random() > 0.08
    ]  # fmt: skip
    rnd.shuffle(rows)
    decl = {"age": "string", "sex": "string", "dose": "string", "cases": "number",
            "controls": "number"}  # fmt: skip
    return rows, decl


def test_a_short_sequence_over_fewer_levels_is_the_grid_and_the_levels_its_entity() -> None:
    """Runs 1 to 20 of experiments 1 to 5: the finer sequence is what the rows are measured
    over, a line per experiment (five lines), not a small chart per run over five points."""
    rows, decl = runs(9)
    assert roles_of(rows, decl) == {"expt": "entity", "run": "grid", "speed": "measure"}
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert {c: e.column for c, e in shown.encodings.items()} == {
        "x": "run", "y": "speed", "color": "expt"
    }
    assert shown.reason.startswith(
        "run is declared number and speed is declared number: run holds 20 evenly spaced whole "
        "values and keys the rows with expt, so speed is a series over it: a line, one per expt."
    )


def test_a_long_sequence_over_fewer_levels_numbers_the_rows() -> None:
    """Travellers 1 to 40 with a row per mode 1 to 4: past ``RUNS_MAX`` values a sequence
    numbers who was measured (an identifier, no axis), so it is no grid of the modes' series."""
    rnd = random.Random(5)
    rows = [
        {"traveller": t, "mode": m, "cost": round(rnd.uniform(10, 90), 2)}
        for t in range(1, 41) for m in range(1, 5)
    ]  # fmt: skip
    decl = {"traveller": "number", "mode": "number", "cost": "number"}
    assert roles_of(rows, decl)["traveller"] == "identifier"


def test_counts_over_crossed_categories_are_summed_by_category_never_scattered() -> None:
    """Two counts per cell of three crossed categories: bars of the sum of the first count per
    the category of most values, split by another — never a scatter of one count against the
    other, which reads the cells without their categories."""
    rows, decl = cells(3)
    assert roles_of(rows, decl) == {
        "age": "factor", "sex": "factor", "dose": "factor", "cases": "weight",
        "controls": "weight",
    }  # fmt: skip
    shown = view(rows, decl)
    assert shown.mark == "bar"
    assert (shown.encodings["x"].column, shown.encodings["y"].column) == ("age", "cases")
    assert shown.encodings["y"].aggregate == "sum"
    assert "counts over categories that key the rows are drawn by those categories" in (
        shown.reason
    )
    assert all(a.chart != "scatter" for a in shown.alternatives[:2])


def test_bars_lay_the_factor_of_most_values_along_x() -> None:
    """Counts over admission (2 values), sex (2) and department (6), declared in that order:
    the departments are laid out along x, the others split the bars."""
    rnd = random.Random(2)
    rows = [
        {"admit": a, "sex": s, "dept": d, "freq": rnd.randint(5, 500)}
        for a in ("yes", "no") for s in ("f", "m") for d in "ABCDEF"
    ]  # fmt: skip
    decl = {"admit": "string", "sex": "string", "dept": "string", "freq": "number"}
    shown = view(rows, decl)
    assert shown.encodings["x"].column == "dept" and shown.encodings["y"].aggregate == "sum"
    assert shown.reason.endswith("the factor of most values is laid out along x.")


@pytest.mark.parametrize("name", ["target", "response", "Outcome"])
def test_a_measure_named_what_a_model_predicts_is_the_scatter_s_y(name: str) -> None:
    """Features and a continuous target (a regression frame): the target is y, against the
    first feature, whatever the declaration's order."""
    rnd = random.Random(1)
    rows = [
        {name: round(rnd.uniform(25, 350), 1),
         **{f"f{k}": round(rnd.gauss(0, 0.05), 4) for k in range(5)}}
        for _ in range(120)
    ]  # fmt: skip
    decl = {name: "number", **{f"f{k}": "number" for k in range(5)}}
    shown = view(rows, decl)
    assert shown.mark == "point"
    assert (shown.encodings["x"].column, shown.encodings["y"].column) == ("f0", name)
    assert shown.reason.endswith(
        f"Chosen over the others because {name} is named as what a model predicts: it is y."
    )


@pytest.mark.parametrize("made", [lambda: runs(4), lambda: cells(4)], ids=["runs", "cells"])
def test_every_engine_chooses_runs_and_cells_as_memory(made: Any) -> None:
    rows, decl = made()
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_moves_neither_runs_nor_cells(offender: str) -> None:
    """One stray value in the run number or a count: the same mark and channels."""
    for (rows, decl), column in [(runs(7), "run"), (cells(7), "controls")]:
        stray(rows, decl, column, offender)


def medals(seed: int, *, nations: int = 5) -> tuple[Rows, dict[str, str]]:
    """A medal table: a nation a row, and three like counts (gold, silver, bronze)."""
    rnd = random.Random(seed)
    rows = [
        {"nation": f"nation {k}", "gold": rnd.randint(2, 30), "silver": rnd.randint(2, 30),
         "bronze": rnd.randint(2, 30)}
        for k in range(nations)
    ]  # fmt: skip
    return rows, {"nation": "string", "gold": "number", "silver": "number", "bronze": "number"}


def test_like_measures_of_a_few_named_rows_are_bars_side_by_side() -> None:
    """Three like measures over five nations, a row each: the bars of all three per nation,
    side by side — not a scatter of two of them (five points) nor the bars of one."""
    rows, decl = medals(1)
    shown = view(rows, decl)
    assert shown.mark == "bar"
    assert shown.encodings["x"].column == "nation"
    assert shown.encodings["y"].measures == ("gold", "silver", "bronze")
    assert shown.reason == (
        "nation is declared string and gold, silver and bronze are declared number: the value "
        "of each measure per nation, one bar per measure. Chosen over the others because like "
        "measures of a few rows, each named by nation, are bars side by side."
    )


def test_many_named_rows_of_like_measures_stay_a_scatter() -> None:
    """Past 20 rows (fifty states, say) a scatter of two of the measures reads better than
    bars of each: the rule is for a few named rows only."""
    rows, decl = medals(2, nations=40)
    assert view(rows, decl).mark == "point"


def test_every_engine_draws_named_rows_side_by_side_as_memory() -> None:
    rows, decl = medals(3)
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_keeps_named_rows_side_by_side(offender: str) -> None:
    before, after = stray(*medals(4, nations=8), "silver", offender, at=3)
    assert (after.mark, after.encodings["x"].column, after.encodings["y"].measures) == (
        before.mark, before.encodings["x"].column, before.encodings["y"].measures,
    )  # fmt: skip


def test_a_column_named_y_beside_x_and_z_is_no_response() -> None:
    """Dimensions x, y and z beside a weight and a price: ``y`` is a dimension, so the
    scatter is not drawn against it for its name."""
    rnd = random.Random(6)
    rows = [
        {"carat": round(rnd.uniform(0.2, 3), 2), "price": rnd.randint(300, 18000),
         "x": round(rnd.uniform(3, 9), 2), "y": round(rnd.uniform(3, 9), 2),
         "z": round(rnd.uniform(2, 5), 2)}
        for _ in range(200)
    ]  # fmt: skip
    decl = {k: "number" for k in rows[0]}
    shown = view(rows, decl)
    assert (shown.encodings["x"].column, shown.encodings["y"].column) == ("carat", "price")


def diets(seed: int, *, as_numbers: bool = True) -> tuple[Rows, dict[str, str]]:
    """Chicks 1 to 48 weighed every other day (0 to 20), each on one of diets 1 to 4."""
    rnd = random.Random(seed)
    rows = [
        {"weight": round(40 + t * t * rnd.uniform(0.3, 0.6) * (1 + d / 4), 1), "time": t,
         "chick": c if as_numbers else f"chick {c}", "diet": d if as_numbers else f"diet {d}"}
        for c in range(1, 49) for d in [1 + (c - 1) // 12] for t in range(0, 21, 2)
    ]  # fmt: skip
    rnd.shuffle(rows)
    kind = "number" if as_numbers else "string"
    return rows, {"weight": "number", "time": "number", "chick": kind, "diet": kind}


@pytest.mark.parametrize("as_numbers", [True, False])
def test_a_numbered_factor_holding_each_entity_colors_their_mean_lines(as_numbers: bool) -> None:
    """48 chicks over 11 weighing times, each on one of four diets: a line of the mean weight
    per time, one per diet, told apart as categories (nominal) whether the diets are numbers
    or text — never the mean of the diet itself, the same all along each chick's series."""
    rows, decl = diets(1, as_numbers=as_numbers)
    shown = view(rows, decl)
    assert (shown.mark, shown.drawn["x"], shown.drawn["y"], shown.drawn["color"]) == (
        "line", "time", "weight", "diet"
    )
    assert shown.encodings["color"].type == "nominal"
    assert "a line of the mean of weight per time, one per diet (declared " in shown.reason
    assert ", 4 values, each chick in one of them)" in shown.reason
    # (a mean line of the diet itself breaks not-a-series: ranked among the last, if listed)
    assert all(a.y != "diet" for a in shown.alternatives[:4])


def test_every_engine_colors_a_numbered_panel_by_its_diets_as_memory() -> None:
    rows, decl = diets(2)
    each_engine_chooses_as_memory(rows, decl, None)


@pytest.mark.parametrize("offender", ["", "n/a", "12.5"])
def test_a_stray_value_keeps_the_diets_colors(offender: str) -> None:
    before, after = stray(*diets(3), "diet", offender, at=5)
    assert (after.mark, dict(after.drawn)) == (before.mark, dict(before.drawn))


def test_a_sequence_numbering_groups_of_rows_is_no_axis() -> None:
    """Strata 1 to 83, three rows each (a matched design), beside two measures: the strata
    number groups of rows, so the scatter pairs the measures; a count from 0 that skips
    values (a measure) is drawn."""
    rnd = random.Random(11)
    rows = [
        {"stratum": s, "age": rnd.randint(21, 44), "spend": round(rnd.uniform(5, 80), 1),
         "visits": rnd.choice([0, 1, 2, 3, 5, 8, 13, 21, 34, 40])}
        for s in range(1, 84) for _ in range(3)
    ]  # fmt: skip
    decl = {"stratum": "number", "age": "number", "spend": "number", "visits": "number"}
    assert roles_of(rows, decl)["stratum"] == "identifier"
    shown = view(rows, decl)
    assert "stratum" not in {e.column for e in shown.encodings.values()}
    assert all("stratum" not in (a.x, a.y) for a in shown.alternatives)


def test_a_class_named_target_colors_before_a_code_of_fewer_levels() -> None:
    """Features, a 0/1 flag among them and ten classes named target (a digits frame): the
    classes color the scatter, though the flag has fewer levels; without the name, the flag
    would (the code of fewest levels first)."""
    rows, decl = classes(12, levels=10)
    rnd = random.Random(12)
    rows = [{**r, "flag": rnd.randint(0, 1)} for r in rows]
    decl = {**decl, "flag": "number"}
    assert view(rows, decl).encodings["color"].column == "target"
    renamed = [{**{k: v for k, v in r.items() if k != "target"}, "class": r["target"]}
               for r in rows]  # fmt: skip
    decl = {**{k: v for k, v in decl.items() if k != "target"}, "class": "number"}
    assert view(renamed, decl).encodings["color"].column == "flag"


def test_a_number_of_one_value_throughout_is_drawn_on_no_axis() -> None:
    """A column that is 0 in every row, declared first: the scatter pairs the two measures
    that vary, and says why it passed the constant over."""
    rnd = random.Random(13)
    rows = [
        {"edge": 0.0, "a": round(rnd.uniform(0, 16), 1), "b": round(rnd.uniform(0, 16), 1)}
        for _ in range(120)
    ]  # fmt: skip
    shown = view(rows, {"edge": "number", "a": "number", "b": "number"})
    assert (shown.mark, shown.encodings["x"].column, shown.encodings["y"].column) == (
        "point", "a", "b"
    )
    assert "a number that holds one value throughout is not drawn" in shown.reason


def test_a_grid_holds_two_rows_a_level_or_more() -> None:
    """Five rows whose count repeats one value (4 distinct of 5) hold no grid of levels: a
    measure; the same four levels held by two rows each are a grid."""
    few = [{"n": v, "m": float(i)} for i, v in enumerate([6, 20, 17, 17, 29])]
    decl = {"n": "number", "m": "number"}
    assert roles_of(few, decl)["n"] == "measure"
    levels = [{"n": v, "m": float(i)} for i, v in enumerate([6, 20, 17, 29] * 2)]
    assert roles_of(levels, decl)["n"] == "grid"


def test_the_axis_of_several_long_named_measures_says_value_of_each_measure() -> None:
    """Like measures whose joined names pass 40 characters: the axis title says "value of
    each measure" (the legend names each); short names are joined on the axis."""
    long_names = ["smoking_yes_cancer_yes", "smoking_yes_cancer_no", "smoking_no_cancer_yes"]
    rows, _ = medals(5)
    renamed = [{"nation": r["nation"], **dict(zip(long_names, (r["gold"], r["silver"],
                r["bronze"]), strict=True))} for r in rows]  # fmt: skip
    decl = {"nation": "string", **{n: "number" for n in long_names}}
    shown = view(renamed, decl)
    assert shown.encodings["y"].measures == tuple(long_names)
    assert shown.encodings["y"].title == "value of each measure"
    assert view(*medals(5)).encodings["y"].title == "gold, silver and bronze"
