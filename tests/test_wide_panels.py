"""Panels of more entities than lines (issue 40 item 2: "a line over time or a grid per entity
(color up to 10, small multiples up to 20, beyond that the spread or the total, said)"): an
entity of more than 20 values (countries, chicks) whose rows a grid or a time keys opens on the
line of their mean per value of x, one per the factor each entity is in one value of (continent,
diet), or one line with none — and the notes and the picture say how many were averaged. Every
backend draws the same (memory, DuckDB, polars).
"""

from __future__ import annotations

import random
from typing import Any

import pandas as pd
import pytest
from test_backend_views import same_view
from test_defaults_engines import ENGINES, MIN_POINTS, holder, typed

from chartkit import view
from chartkit.columns import normalize_result_columns
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts
from chartkit.plan.roles import MAX_SERIES, assign, panel_over

Rows = list[dict[str, Any]]


def countries(
    seed: int, *, entities: int = 142, groups: int = 5, step: int = 5, points: int = 12
) -> tuple[Rows, dict[str, str]]:
    """``entities`` countries over ``points`` years ``step`` apart, each in one of ``groups``
    continents; three measures, one a large whole-number count."""
    rnd = random.Random(seed)
    rows: Rows = []
    for i in range(entities):
        base, rich, people = rnd.uniform(30, 70), rnd.uniform(500, 20000), rnd.randint(10**5, 10**8)
        for k in range(points):
            rows.append({
                "country": f"country {i:03d}", "continent": f"continent {i % groups}",
                "year": 1952 + step * k, "lifeExp": round(base + k * rnd.uniform(0.2, 0.8), 3),
                "pop": int(people * 1.02**k), "gdpPercap": round(rich * 1.03**k, 4),
            })  # fmt: skip
    rnd.shuffle(rows)
    decl = {"country": "string", "continent": "string", "year": "number", "lifeExp": "number",
            "pop": "number", "gdpPercap": "number"}  # fmt: skip
    return rows, decl


def chicks(seed: int, *, entities: int = 50, diets: int | None = 4) -> tuple[Rows, dict[str, str]]:
    """``entities`` chicks weighed every 2 days from day 0 to 21, some dropping out early, each
    on one of ``diets`` diets (None: no diet column)."""
    rnd = random.Random(seed)
    rows: Rows = []
    for i in range(entities):
        weighed = 12 if rnd.random() > 0.2 else rnd.randint(2, 11)
        start = rnd.uniform(39, 43)
        for k in range(weighed):
            row = {"weight": round(start + k * k * rnd.uniform(0.5, 1.2), 1), "Time": 2 * k,
                   "Chick": str(i + 1)}  # fmt: skip
            if diets is not None:
                row["Diet"] = str(1 + i * diets // entities)
            rows.append(row)
    decl = {"weight": "number", "Time": "number", "Chick": "string", "Diet": "string"}
    if diets is None:
        del decl["Diet"]
    return rows, decl


def channels(shown: Any) -> dict[str, tuple[str, str | None]]:
    return {c: (e.column, e.aggregate) for c, e in shown.encodings.items()}


def test_a_grid_keying_the_rows_with_a_wide_entity_knows_the_factor_that_nests_it() -> None:
    rows, decl = countries(1)
    frame = pd.DataFrame(rows)
    roles = assign(profile_columns(frame, normalize_result_columns(decl), ()), FrameFacts(frame))
    assert (roles["country"].role, roles["country"].distinct) == ("entity", 142)
    assert roles["country"].within == ("continent",)
    assert (roles["year"].role, roles["year"].keys_with) == ("grid", ("country",))
    assert panel_over(roles, "year", [None]) == "country"
    assert panel_over(roles, "year", ["continent"]) == "country"
    assert panel_over(roles, "lifeExp", ["continent"]) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_countries_over_years_open_on_the_mean_per_year_one_line_per_continent(seed: int) -> None:
    rows, decl = countries(seed)
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert channels(shown) == {
        "x": ("year", None), "y": ("lifeExp", "mean"), "color": ("continent", None),
    }  # fmt: skip
    # each point is the mean of the countries of its continent at that year
    want = pd.DataFrame(rows).groupby(["year", "continent"])["lifeExp"].mean()
    got = shown.marks.set_index(["year", "continent"])["lifeExp"]
    assert got.sort_index().to_numpy() == pytest.approx(want.sort_index().to_numpy())
    said = [f for f in shown.facts if f.column == "country"]
    assert [(f.kind, f.count("values")) for f in said] == [("shared", 142)]
    assert said[0].sentence == (
        "country has 142 values, each a series over year: more than the 20 lines a chart can "
        "tell apart, so each line is the mean of lifeExp over the country values in one "
        "continent (each is in one), per year."
    )
    assert "142 values of country" in shown.spec["title"]  # on the picture too
    assert "year keys the rows with country, whose 142 values are each a series" in shown.reason


def test_chicks_over_days_open_on_the_mean_weight_per_day_one_line_per_diet() -> None:
    rows, decl = chicks(3)
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert channels(shown) == {
        "x": ("Time", None), "y": ("weight", "mean"), "color": ("Diet", None),
    }  # fmt: skip
    want = pd.DataFrame(rows).groupby(["Time", "Diet"])["weight"].mean()
    got = shown.marks.set_index(["Time", "Diet"])["weight"]
    assert got.sort_index().to_numpy() == pytest.approx(want.sort_index().to_numpy())
    assert any(f.kind == "shared" and f.count("values") == 50 for f in shown.facts)


def test_with_no_factor_nesting_the_entities_one_line_of_their_mean_says_how_many() -> None:
    rows, decl = chicks(4, diets=None)
    shown = view(rows, decl)
    assert shown.mark == "line"
    assert channels(shown) == {"x": ("Time", None), "y": ("weight", "mean")}
    assert (
        "Chick has 50 values, each a series over Time: more than the 20 lines a chart can tell "
        "apart, so the line is the mean of weight over all 50 of them, per Time."
    ) in shown.notes
    # up to 20 entities each keeps its own line (small charts past ten), nothing averaged
    rows, decl = chicks(8, entities=MAX_SERIES, diets=None)
    each = view(rows, decl)
    assert (each.mark, each.encodings["x"].column) == ("line", "Time")
    assert each.encodings["y"].aggregate is None
    assert not any(f.kind == "shared" for f in each.facts)


def test_a_factor_that_does_not_nest_the_entities_colors_no_mean_line() -> None:
    rows, decl = chicks(5)
    rnd = random.Random(5)
    for row in rows:  # a label that changes within each chick's own series
        row["Diet"] = rnd.choice("abc")
    shown = view(rows, decl)
    assert channels(shown) == {"x": ("Time", None), "y": ("weight", "mean")}


def test_a_grid_is_never_the_measure_of_bars_in_a_panels_default_or_first_alternatives() -> None:
    for rows, decl, grid in (
        (*countries(6), "year"), (*chicks(6), "Time"), (*chicks(7, diets=None), "Time"),
    ):  # fmt: skip
        shown = view(rows, decl)
        first = [shown.drawn, *(a.picks() for a in shown.alternatives[:5])]
        assert all(p.get("y") != grid for p in first), (grid, first)


def test_a_wide_entity_over_a_date_is_averaged_and_said_too() -> None:
    rows, decl = countries(9, entities=30, points=8)
    for row in rows:
        row["year"] = f"{row['year']}-01-01"
    shown = view(rows, {**decl, "year": "date"})
    assert channels(shown) == {
        "x": ("year", None), "y": ("lifeExp", "mean"), "color": ("continent", None),
    }  # fmt: skip
    assert any(f.kind == "shared" and f.column == "country" for f in shown.facts)


@pytest.mark.parametrize(
    "make",
    [
        lambda: countries(10),
        lambda: countries(11, entities=40, groups=3, step=1, points=6),
        lambda: chicks(12),
        lambda: chicks(13, diets=None),
    ],
)
@pytest.mark.parametrize("max_points", [5000, MIN_POINTS])
def test_every_engine_draws_the_mean_lines_memory_draws(make: Any, max_points: int) -> None:
    rows, decl = make()
    df = typed(rows, decl)
    want = view(df.to_pandas(), decl, max_points=max_points)
    assert want.mark == "line" and want.encodings["y"].aggregate == "mean"
    for engine in ENGINES:
        same_view(want, view(holder(engine, df), decl, max_points=max_points))


@pytest.mark.parametrize("make", [lambda: countries(20), lambda: chicks(21)])
@pytest.mark.parametrize("stray", ["", "n/a", None])
def test_stray_values_in_any_column_leave_the_mean_lines_as_they_were(
    make: Any, stray: Any
) -> None:
    """Up to 1% of the rows holding a stray value in any one column (a second value of the
    nesting factor for some entities, a pair of entity and grid repeated, an offending grid
    value) changes the notes, never the chart's mark and channels."""
    rows, decl = make()
    want = view(rows, decl)
    for column in decl:
        changed = [dict(r) for r in rows]
        for i in random.Random(column).sample(range(len(changed)), len(changed) // 100):
            changed[i][column] = stray
        got = view(changed, decl)
        assert (got.mark, channels(got)) == (want.mark, channels(want)), column
