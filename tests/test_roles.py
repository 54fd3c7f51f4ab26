"""Roles and criteria (chartkit.plan.roles, chartkit.plan.criteria): the chart a result opens on
follows what each column is for, read from the declaration and counts, never from the order the
tool declared its columns in, and never moved by a stray value."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chartkit import view
from chartkit.columns import normalize_result_columns
from chartkit.plan.criteria import CRITERIA, KIND_COST, cost
from chartkit.plan.encode import profile_columns
from chartkit.plan.facts import FrameFacts
from chartkit.plan.roles import ROLES, assign
from chartkit.plan.rules import RULES, candidates


def roles_of(rows: list[dict[str, Any]], declared: dict[str, Any]) -> dict[str, str]:
    frame = pd.DataFrame(rows)
    profiles = profile_columns(frame, normalize_result_columns(declared), ())
    return {n: r.role for n, r in assign(profiles, FrameFacts(frame)).items()}


def channels(shown: Any) -> dict[str, tuple[str, str | None]]:
    return {c: (e.column, e.aggregate) for c, e in shown.encodings.items()}


def test_the_vocabulary_and_the_criteria_are_one_table_each() -> None:
    assert [r.role for r in ROLES] == [
        "time", "grid", "factor", "entity", "weight", "measure", "coordinate", "identifier",
    ]  # fmt: skip
    names = [c.name for c in CRITERIA]
    assert len(names) == len(set(names)) and all(c.weight > 0 for c in CRITERIA)
    assert set(KIND_COST) == {r.chart for r in RULES}  # every chart has its own cost


def test_a_count_over_crossed_categories_is_a_weight_summed_never_averaged() -> None:
    rows = [
        {"a": a, "b": b, "c": c, "count": i * 7 % 11 + 1}
        for i, (a, b, c) in enumerate(itertools.product("xyz", "pq", "uvw"))
    ]
    declared = {"a": "string", "b": "string", "c": "string", "count": "number"}
    assert roles_of(rows, declared)["count"] == "weight"
    shown = view(rows, declared)
    assert channels(shown)["y"] == ("count", "sum")
    assert shown.reason.endswith(
        "Chosen over the others because a count over categories that key the rows is summed, "
        "never averaged; the factor of most values is laid out along x."
    )
    assert channels(shown)["x"] == ("a", None)  # (3 values; b, of 2, splits the bars)


def test_a_panel_of_subjects_over_days_is_a_line_per_subject() -> None:
    rnd = random.Random(7)
    rows = [
        {"reaction": 250 + 10 * day + rnd.uniform(-20, 20), "days": day, "subject": f"s{s}"}
        for s in range(6) for day in range(10)
    ]  # fmt: skip
    declared = {"reaction": "number", "days": "number", "subject": "string"}
    assert roles_of(rows, declared) == {
        "reaction": "measure", "days": "grid", "subject": "entity",
    }  # fmt: skip
    shown = view(rows, declared)
    assert shown.mark == "line"
    assert channels(shown) == {
        "x": ("days", None), "y": ("reaction", None), "color": ("subject", None),
    }  # fmt: skip


def test_a_measure_evenly_spaced_by_chance_is_no_grid_unless_it_keys_a_panel() -> None:
    # n is 1..11 and keys the rows with g (18 rows): but g's 3 values × n's 11 values are 33
    # pairs, and 18 rows are no panel of them
    rows = [
        {"g": g, "h": h, "n": i * 7 % 11 + 1}
        for i, (g, h) in enumerate(itertools.product("xyz", "pqrstu"))
    ]
    assert roles_of(rows, {"g": "string", "h": "string", "n": "number"})["n"] != "grid"


def test_latitude_and_longitude_are_a_map_whatever_order_they_are_declared_in() -> None:
    rnd = random.Random(3)
    rows = [{"lat": rnd.uniform(25, 49), "lon": rnd.uniform(-124, -67), "kind": "ab"[i % 2]}
            for i in range(80)]  # fmt: skip
    for declared in ({"lat": "number", "lon": "number", "kind": "string"},
                     {"lon": "number", "kind": "string", "lat": "number"}):  # fmt: skip
        shown = view(rows, declared)
        assert (shown.encodings["x"].column, shown.encodings["y"].column) == ("lon", "lat")


def test_values_near_a_floats_limit_span_no_grid_and_draw() -> None:
    most = 1.7976931348623157e308
    shown = view([{"v": x} for x in [-most, 0.0, 1.0, 2.0, most]], {"v": "number"})
    assert shown.kind == "chart"


@st.composite
def two_measures_and_a_factor(draw: st.DrawFn) -> tuple[list[dict[str, Any]], dict[str, str]]:
    n = draw(st.integers(60, 200))
    rnd = random.Random(draw(st.integers(0, 10**6)))
    rows = [
        {"k": f"k{rnd.randrange(3)}", "a": rnd.gauss(50, 15), "b": rnd.gauss(5, 2)}
        for _ in range(n)
    ]
    return rows, {"k": "string", "a": "number", "b": "number"}


@settings(max_examples=25, deadline=None, database=None, derandomize=True)
@given(
    result=two_measures_and_a_factor(),
    column=st.sampled_from(["a", "b", "k"]),
    kind=st.sampled_from(["", "n/a", "7", None]),
    where=st.integers(0, 10**6),
)
def test_one_stray_value_never_moves_the_chart(
    result: tuple[list[dict[str, Any]], dict[str, str]], column: str, kind: Any, where: int
) -> None:
    """The seed's failure, inside the chooser: one offender in any column of a result leaves
    the default's mark and channels as they were; only the notes change."""
    rows, declared = result
    before = view(rows, declared)
    spoiled = [dict(r) for r in rows]
    spoiled[where % len(rows)][column] = kind if column != "k" or kind is None else 7
    after = view(spoiled, declared)
    assert (after.mark, after.drawn) == (before.mark, before.drawn)


@pytest.mark.parametrize("seed", range(5))
def test_the_ranking_is_the_criteria_cheapest_first(seed: int) -> None:
    rnd = random.Random(seed)
    rows = [{"t": f"2024-01-{1 + i % 28:02d}", "k": "abc"[i % 3], "x": rnd.random(),
             "y": rnd.random() * 100} for i in range(84)]  # fmt: skip
    frame = pd.DataFrame(rows)
    declared = normalize_result_columns({"t": "date", "k": "string", "x": "number", "y": "number"})
    profiles = profile_columns(frame, declared, ())
    roles = assign(profiles, FrameFacts(frame))
    costs = [cost(a, roles)[0] for a in candidates(profiles, roles)]
    assert costs == sorted(costs)


def test_a_column_most_of_whose_rows_offend_is_still_drawn_when_nothing_else_can_be() -> None:
    rows = [{"host": "ab"[i % 2], "lun": v}
            for i, v in enumerate([None, "n/a", "N/A", "-", 3.0] * 10)]  # fmt: skip
    shown = view(rows, {"host": "string", "lun": {"type": "number", "nullable": True}})
    assert (shown.kind, shown.mark) == ("chart", "bar")
    assert channels(shown)["y"] == ("lun", "mean")
    assert (
        '30 of 50 rows are left out of the y axis: lun is declared number and they hold string '
        '(first: "n/a"). Nothing was converted.'
    ) in shown.notes


def test_a_column_picked_as_facet_keeps_its_channel_in_the_default() -> None:
    rnd = random.Random(5)
    rows = [{"region": "abcd"[i % 4], "ok": "yn"[i % 2], "p50": rnd.uniform(10, 90)}
            for i in range(48)]  # fmt: skip
    declared = {"region": "string", "ok": "string", "p50": "number"}
    shown = view(rows, declared, facet="region")
    assert shown.encodings["facet"].column == "region" and shown.refusals == ()
    assert shown.encodings["x"].column != "region"
