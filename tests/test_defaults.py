"""The default chart an analyst would sign, as properties of generated results (issue 20).

Each property is a rule of ``chartkit.plan.rules`` held on rowsets hypothesis generates — never
one hand-picked answer: the default does not depend on the order of the keys in the rows (only
on the declaration's); two measures and no date open on a scatter before any bar of a mean.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import view

_SETTINGS = settings(
    max_examples=60, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip

_NAMES = st.sampled_from(["a", "b", "c", "d", "e", "f", "g", "h"])


@st.composite
def results(draw: st.DrawFn, *, dates: bool | None = None) -> tuple[list[dict[str, Any]], dict]:
    """Rows and their declaration: a few categories of few values, measures, maybe a date."""
    n = draw(st.integers(3, 40))
    names = draw(st.lists(_NAMES, min_size=1, max_size=6, unique=True))
    kinds = draw(
        st.lists(st.sampled_from(["string", "number", "date"]), min_size=len(names),
                 max_size=len(names))
    )  # fmt: skip
    if dates is False:
        kinds = ["number" if k == "date" else k for k in kinds]
    columns: dict[str, list[Any]] = {}
    for name, kind in zip(names, kinds, strict=True):
        if kind == "string":
            width = draw(st.integers(1, 6))
            columns[name] = [f"{name}{draw(st.integers(0, width))}" for _ in range(n)]
        elif kind == "number":
            columns[name] = [
                draw(st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)) for _ in range(n)
            ]
        else:
            columns[name] = [f"2024-01-{draw(st.integers(1, 28)):02d}" for _ in range(n)]
    rows = [{name: columns[name][i] for name in names} for i in range(n)]
    return rows, dict(zip(names, kinds, strict=True))


def _default(v: Any) -> tuple[Any, ...]:
    return (
        v.kind, v.mark, v.reason,
        {c: (e.column, e.aggregate, e.measures) for c, e in v.encodings.items()},
        v.notes, [a.to_dict() for a in v.alternatives], v.state,
    )  # fmt: skip


@_SETTINGS
@given(results(), st.randoms(use_true_random=False))
def test_the_order_of_the_keys_in_the_rows_never_changes_the_default(
    result: tuple[list[dict[str, Any]], dict[str, str]], rnd: random.Random
) -> None:
    rows, decl = result
    keys = list(rows[0])
    rnd.shuffle(keys)
    reordered = [{k: row[k] for k in keys} for row in rows]
    each = [dict(rnd.sample(list(row.items()), len(row))) for row in rows]  # row by row, too
    first = _default(view(rows, decl))
    assert _default(view(reordered, decl)) == first
    assert _default(view(each, decl)) == first


@_SETTINGS
@given(results(dates=False))
def test_two_measures_and_no_date_open_on_a_scatter_before_any_bar_of_a_mean(
    result: tuple[list[dict[str, Any]], dict[str, str]],
) -> None:
    rows, decl = result
    measures = [n for n, t in decl.items() if t == "number"]
    v = view(rows, decl)
    if len(measures) >= 2:
        assert (v.kind, v.mark) == ("chart", "point")
        assert (v.encodings["x"].column, v.encodings["y"].column) == tuple(measures[:2])
        assert v.encodings["x"].aggregate is None and v.encodings["y"].aggregate is None
    if v.mark == "bar" and any(e.aggregate == "mean" for e in v.encodings.values()):
        assert len(measures) < 2  # a mean per category only when no scatter can be drawn


# --- notes name only the columns they are about; a stepped-around measure is said -------------


def test_the_no_value_note_names_only_the_column_that_holds_no_value() -> None:
    rows = [
        {"Year": f"19{70 + i % 10}-01-01", "mpg": None if i % 5 == 0 else float(i), "o": "a"}
        for i in range(40)
    ]
    v = view(rows, {"Year": "date", "mpg": {"type": "number", "nullable": True}, "o": "string"})
    assert "8 rows hold no value in mpg and are not drawn." in v.notes
    assert not any("Year" in n for n in v.notes if "no value" in n)


def test_a_default_that_steps_around_a_flagged_measure_refuses_it_and_is_not_ok() -> None:
    rows = [{"k": "ab"[i % 2], "lun": "" if i % 4 == 0 else i, "gb": 10.0 * i} for i in range(20)]
    v = view(rows, {"k": "string", "lun": "number", "gb": "number"})
    assert v.encodings["y"].column == "gb"
    assert [(r.column, r.channel) for r in v.refusals] == [("lun", "y")]
    assert v.refusals[0].reason == (
        'lun is declared number, but 5 of 20 rows hold string (first: ""), so the chart opens '
        "on gb, which has no finding; pick y='lun' to chart lun with those rows left out."
    )
    assert v.state == "refused axes"
    # declared after the measure drawn, a flagged measure was never stepped around
    after = view(rows, {"k": "string", "gb": "number", "lun": "number"})
    assert after.refusals == () and after.state == "ok"


def test_a_date_column_mixing_zoned_and_naive_times_says_both_counts_and_how_each_is_drawn() -> (
    None
):
    rows = [
        {"ts": "2024-05-13T02:00:00+02:00", "v": 1.0},
        {"ts": "2024-05-13T01:00:00", "v": 2.0},
        {"ts": "2024-05-14T03:00:00Z", "v": 3.0},
    ]
    v = view(rows, {"ts": "date", "v": "number"})
    assert v.notes == (
        "ts mixes 2 times with a time zone and 1 without one: those with a zone are drawn in UTC, "
        "those without as given (their zone is unknown, so they are not converted); the axis "
        "says so.",
    )
    assert v.encodings["x"].title == "ts (UTC; times without a zone as given)"
    zoned = view([rows[0], rows[2]], {"ts": "date", "v": "number"})
    assert zoned.notes == () and zoned.encodings["x"].title == "ts (UTC)"
