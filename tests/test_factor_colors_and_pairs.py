"""Two drawing patterns, on generated tables, in memory and on every engine alike.

- Bars of a measure per factor, colored by a second factor of few values (a category, or a
  number of few repeated levels: a factor by its role), side by side, and one small chart per
  a third category when there is one: every factor is drawn.
- A scatter of more rows than ``max_points`` whose distinct (x, y) pairs fit ``max_points``:
  one point per pair, sized by the rows it stands for (nothing binned); pairs that do not fit
  are a binned heatmap still.

Each engine (DuckDB, polars) is held to the in-memory view of the same rows
(``test_backend_views.same_view``), with ``max_points`` below the rows so the engine groups
and counts them itself.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_backend_views import same_view
from test_defaults_engines import ENGINES, holder, typed

from chartkit import View, view


def _factors(seed: int, *, third: bool, number_color: bool) -> tuple[list[dict[str, Any]], dict]:
    """A measure over every combination of a 5-valued category, a 2-valued factor (a year of
    two, a whole number, or a category) and, with ``third``, a 3-valued category; two rows
    each."""
    rnd = random.Random(seed)
    colors: list[Any] = [2001, 2002] if number_color else ["lo", "hi"]
    panels = ["p0", "p1", "p2"] if third else [None]
    rows = []
    for a in ("k0", "k1", "k2", "k3", "k4"):
        for b in colors:
            for c in panels:
                for _ in range(2):
                    row: dict[str, Any] = {"m": round(rnd.uniform(10, 60), 2), "a": a, "b": b}
                    if third:
                        row["c"] = c
                    rows.append(row)
    decl = {"m": "number", "a": "string", "b": "number" if number_color else "string"}
    if third:
        decl["c"] = "string"
    return rows, decl


def _engines_agree(rows: list[dict[str, Any]], decl: dict[str, str], **kw: Any) -> View:
    """The in-memory view of the rows, after checking every engine draws the same."""
    df = typed(rows, decl)
    want = view(df.to_pandas(), decl, **kw)
    for engine in ENGINES:
        same_view(want, view(holder(engine, df), decl, **kw))
    return want


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("number_color", [True, False])
@pytest.mark.parametrize("third", [True, False])
def test_a_measure_over_two_factors_is_bars_colored_by_the_second_side_by_side(
    seed: int, number_color: bool, third: bool
) -> None:
    rows, decl = _factors(seed, third=third, number_color=number_color)
    for max_points in (5000, 100):  # (under it the rows are fetched; over it grouped)
        v = _engines_agree(rows, decl, max_points=max_points)
        assert v.mark == "bar"
        assert (v.drawn["x"], v.drawn["y"], v.drawn.get("color")) == ("a", "m", "b")
        assert v.drawn.get("facet") == ("c" if third else None)
        assert v.encodings["color"].type == "nominal"  # a year of two is two colors
        assert v.encodings["y"].aggregate == "mean"  # two rows a bar: their mean
        spec = v.spec["spec"] if third else v.spec
        offset, color = spec["encoding"]["xOffset"], spec["encoding"]["color"]
        assert (offset["field"], offset["type"]) == ("b", "nominal")
        assert offset.get("sort") == color.get("sort")  # side by side as the legend lists
        # one bar per category, color and panel, each the mean of its two rows
        assert v.marks is not None and len(v.marks) == len(rows) // 2
        assert set(v.marks["rows"]) == {2}


def test_a_picked_factor_colors_bars_and_a_number_of_many_values_is_refused() -> None:
    rows, decl = _factors(3, third=False, number_color=True)
    v = _engines_agree(rows, decl, x="a", y="m", color="b", max_points=100)
    assert (v.mark, v.drawn.get("color"), v.refusals) == ("bar", "b", ())
    v = _engines_agree(rows, decl, x="a", y="b", color="m", max_points=100)
    assert "color" not in v.encodings
    assert [(r.column, r.channel, r.reason) for r in v.refusals] == [(
        "m", "color",
        "bars of a measure are colored only by a factor of at most 10 values (a category, or "
        "a number of few repeated levels), side by side; m is not one, so the chart is drawn "
        "without color.",
    )]  # fmt: skip


def test_colored_totals_stack() -> None:
    """Sums of a measure per category and factor add up: the bars stack (no offset)."""
    rows, decl = _factors(4, third=False, number_color=False)
    v = view(rows, decl, x="a", y="m", color="b", aggregate="sum")
    assert (v.mark, v.encodings["y"].aggregate, v.drawn.get("color")) == ("bar", "sum", "b")
    assert "xOffset" not in v.spec["encoding"]


def _pairs(seed: int, n: int, xs: int, ys: int) -> list[dict[str, Any]]:
    """``n`` rows of two whole-number measures of ``xs`` and ``ys`` values (a visit count, a
    score) that move together."""
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        x = rnd.randrange(xs)
        rows.append({"x": x, "y": min(ys - 1, max(0, x * ys // xs + rnd.randrange(-3, 4)))})
    return rows


@pytest.mark.parametrize("seed", [5, 6])
def test_a_scatter_whose_pairs_fit_is_a_point_per_pair_sized_by_its_rows(seed: int) -> None:
    rows = _pairs(seed, 6_000, 30, 40)
    decl = {"x": "number", "y": "number"}
    pairs = {(r["x"], r["y"]) for r in rows}
    assert len(rows) > 5_000 >= len(pairs)
    v = _engines_agree(rows, decl)
    assert (v.mark, v.drawn["x"], v.drawn["y"]) == ("point", "x", "y")
    assert v.encodings["size"].aggregate == "count"
    assert "x" not in v.spec["encoding"] or "bin" not in v.spec["encoding"]["x"]
    assert v.marks is not None and len(v.marks) == len(pairs)
    assert int(v.marks["count"].sum()) == len(rows)
    drawn = {(float(a), float(b)) for a, b in zip(v.marks["x"], v.marks["y"], strict=True)}
    assert drawn == {(float(a), float(b)) for a, b in pairs}
    assert v.notes == (
        f"6,000 rows (over max_points=5,000) hold {len(pairs):,} distinct pairs of x and y: "
        "one point per pair, its size the rows it stands for.",
    )


def test_a_scatter_whose_pairs_do_not_fit_is_a_binned_heatmap() -> None:
    rnd = random.Random(7)
    rows = [{"x": rnd.random(), "y": rnd.random()} for _ in range(6_000)]
    v = _engines_agree(rows, {"x": "number", "y": "number"})
    assert v.mark == "rect" and "size" not in v.encodings
    rows = _pairs(8, 6_000, 30, 40)  # pairs that fit, but not max_points=100 of them
    v = _engines_agree(rows, {"x": "number", "y": "number"}, max_points=100)
    assert v.mark == "rect"
