"""Notes are values: each ``Note`` a kind, the column it is about, its counts, and the one
sentence made from them — so a UI or a payload reads fields, never English.

Over every chart of the view contract (tests/test_backend_views.py) and a few small results
that make the rarer kinds, each note is held to what the rows hold: the kind is a named kind,
the column is a column of the result, every count is said in the sentence, and the counts are
the rows' own (the offenders the check found, the values a category has, the points drawn).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from test_backend_views import CASES, in_memory

from chartkit import View, view
from chartkit.check.judge import offending_mask
from chartkit.columns import normalize_result_columns
from chartkit.plan.spec import NOTE_KINDS, Note

SMALL = pd.DataFrame({"k": ["a", "b", "a", "c"], "v": [1.0, 2.0, 3.0, 2.0]})

# results that make the note kinds the contract's charts do not
RARE: dict[str, tuple[Any, dict[str, Any], dict[str, Any]]] = {
    "unplaced": (SMALL.assign(v=[1.0, np.inf, 3.0, 2.0]), {"k": "string", "v": "number"}, {}),
    "no-value": (
        SMALL.assign(v=[1.0, None, 3.0, 2.0]),
        {"k": "string", "v": {"type": "number", "nullable": True}},
        {},
    ),
    "inferred": (SMALL, {"k": "string"}, {}),
    "sort-absent": (SMALL, {"k": "string", "v": "number"}, {"sort": ["zz", "a"]}),
    "log-refused": (
        SMALL.assign(v=[-1.0, 2.0, -3.0, 2.0]),
        {"k": "string", "v": "number"},
        {"scale": "log"},
    ),
    "pairs": (  # a scatter past max_points whose distinct pairs fit: a point per pair
        pd.DataFrame({"a": [float(i % 11) * 0.37 + 0.5 for i in range(400)],
                      "b": [float(i % 11 * 7 % 11) * 1.13 + 0.25 + i % 2 / 100
                            for i in range(400)]}),
        {"a": "number", "b": "number"},
        {"max_points": 100},
    ),
    "mixed-zones": (
        pd.DataFrame(
            {
                "t": [
                    f"2024-01-0{1 + i % 9}T0{i % 10}:00" + ("Z" if i % 2 else "") for i in range(40)
                ],
                "v": [float(i) for i in range(40)],
            }
        ),
        {"t": "date", "v": "number"},
        {},
    ),
}


@functools.cache
def rare(name: str) -> View:
    data, decl, picks = RARE[name]
    return view(data, decl, **picks)


def views() -> list[Any]:
    return [pytest.param(c, id=c) for c in CASES] + [pytest.param(f"rare:{r}", id=r) for r in RARE]


def the_view(name: str) -> View:
    return rare(name.removeprefix("rare:")) if name.startswith("rare:") else in_memory(name)


def test_the_cases_make_most_kinds_of_note() -> None:
    made = {n.kind for c in CASES for n in in_memory(c).facts} | {
        n.kind for r in RARE for n in rare(r).facts
    }
    assert {k for k in NOTE_KINDS if k not in made} <= {
        "option-ignored", "identifier", "not-split", "facets-for-colors",
    }  # fmt: skip
    assert {"left-out", "bucketed", "top", "heatmap", "no-value", "unplaced", "log-scale"} <= made


@pytest.mark.parametrize("name", views())
def test_every_note_is_a_named_kind_about_a_column_with_its_counts_said(name: str) -> None:
    v = the_view(name)
    columns = set(v.frame.columns) if v.frame is not None else set()
    for n in v.facts:
        assert isinstance(n, Note) and n.kind in NOTE_KINDS
        assert n.column is None or n.column in columns, n
        if n.kind == "bucketed":  # said of the time axis: its column is the x
            assert n.column == v.encodings["x"].column, n
        else:
            assert n.column is None or n.column in n.sentence, n
        for label, count in n.counts:
            assert isinstance(count, int) and not isinstance(count, bool) and count >= 0, n
            if n.kind == "sort-absent":  # the values are quoted, not counted, in the sentence
                assert n.sentence.count('"') == 2 * count, n
            elif n.kind == "log-scale":  # it says the span; the values counted are not said
                assert label == "values", n
            elif label != "seconds":  # a bucket is said as its unit ("per hour bucket")
                assert f"{count:,}" in n.sentence, (label, n)
    # the sentences are the view's notes, in their order
    said = [n.sentence for n in v.facts]
    assert said == [s for s in v.notes if s in said]


@pytest.mark.parametrize("name", views())
def test_a_notes_counts_are_what_the_rows_hold(name: str) -> None:
    v = the_view(name)
    assert v.frame is not None
    found = {x.column: x for x in v.check.violations}
    for n in v.facts:
        c = dict(n.counts)
        if n.kind == "left-out":
            assert n.column is not None
            assert (c["rows"], c["of"]) == (found[n.column].affected, len(v.frame)), n
        elif n.kind == "top":
            assert c["values"] == v.frame[n.column].nunique(dropna=False), n
            assert v.marks is not None and v.marks[n.column].nunique(dropna=False) == c["shown"]
            assert v.reduction.top == c["shown"]
        elif n.kind == "bucketed":  # points, or the bars a label's counted rows are stacked in
            assert v.marks is not None, n
            x, y = v.encodings["x"].field, v.encodings["y"].field
            # (a line broken at a gap holds a row of no value there: no point)
            points = int(v.marks[y].notna().sum()) if y in v.marks else len(v.marks)
            assert c["bars"] == v.marks[x].nunique() if "bars" in c else c["points"] == points, n
            assert c["seconds"] == v.reduction.bucket_seconds
        elif n.kind == "log-scale":  # the span was counted over every value of the column
            assert c["values"] == int(v.frame[n.column].notna().sum()), n
            assert n.column in (v.encodings["x"].column, v.encodings["y"].column)
        elif n.kind == "no-value":
            # among the rows no column's offenders leave out first (the left-out notes), those
            # holding no value in the note's column — in none of the measures, when several
            # are drawn (a row holding one of them keeps its place)
            declared = normalize_result_columns(v.result.result_columns)
            kept = np.ones(len(v.frame), dtype=bool)
            for left in (x.column for x in v.facts if x.kind == "left-out"):
                assert left is not None
                kept &= ~np.asarray(offending_mask(v.frame[left], declared[left]))
            # a row holding no value on an axis, or a color that is a number or a date, has
            # no place (of several measures, a row holding none of them), and an infinite
            # number leaves its row out first (an ``unplaced`` note): the columns the chart
            # drew (``View.drawn``) place its rows, whether they are encoded or not (a
            # heatmap's color, a label's counted measure)
            drawn = dict(v.drawn)
            ys = drawn.get("y")
            ys = [ys] if isinstance(ys, str) else list(ys or [])
            several = ys if len(ys) > 1 else []
            singles = [
                q for q in dict.fromkeys(
                    [drawn.get("x"), *ys, drawn.get("color"), drawn.get("facet"), n.column]
                )
                if q is not None and q not in several
                and (q == n.column or declared[q].type in ("number", "date"))
            ]  # fmt: skip
            placing = v.frame[[*singles, *several]]
            numeric = placing.apply(pd.to_numeric, errors="coerce").astype(float)
            kept &= ~np.isinf(numeric.to_numpy()).any(axis=1)
            missing = np.array(placing[singles].isna().any(axis=1))
            if several:
                missing |= np.array(placing[several].isna().all(axis=1))
            assert c["rows"] == int((kept & missing).sum()), n
        elif n.kind == "heatmap":
            assert v.marks is not None and (c["bins"],) * 2 == v.reduction.bins
            assert c["rows"] == int(v.marks["count"].sum()), n  # every row placed in a cell


def test_a_note_is_a_frozen_value_with_its_fields_in_its_dict() -> None:
    n = Note("left-out", "2 of 4 rows are left out.", "v", (("rows", 2), ("of", 4)))
    assert n.to_dict() == {
        "kind": "left-out", "column": "v", "counts": {"rows": 2, "of": 4},
        "sentence": "2 of 4 rows are left out.",
    }  # fmt: skip
    assert (n.count("rows"), n.count("of"), n.count("values")) == (2, 4, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        n.kind = "top"  # type: ignore[misc]


def test_the_payload_carries_the_notes_as_values() -> None:
    v = in_memory("count bars, top 30")
    payload = v.to_dict()
    values = [n.to_dict() for n in v.facts]
    assert values and any(values == field for field in payload.values())


def test_a_picked_color_too_wide_is_said_once_by_its_refusal_not_again_as_not_split() -> None:
    """25 values: refused as color (a refusal says why); left unpicked, the line that merges
    it says so with a ``not-split`` note. Never both for the same column."""
    days = pd.date_range("2024-01-01", periods=300, freq="D", tz="UTC")
    huge = [f"h{i % 25}" for i in range(300)]
    one = pd.DataFrame({"t": days, "v": np.arange(300.0), "huge": huge})
    frame = pd.concat([one, one])  # two rows a day: the line draws their mean
    decl = {"t": "date", "v": "number", "huge": "string"}
    picked = view(frame, decl, color="huge")
    assert [(r.column, r.channel) for r in picked.refusals] == [("huge", "color")]
    assert [(n.kind, n.column) for n in picked.facts] == [("shared", "t")]
    unpicked = view(frame, decl)
    assert [(n.kind, n.column, n.counts) for n in unpicked.facts] == [
        ("shared", "t", ()), ("not-split", "huge", (("values", 25),))
    ]


def test_the_sentence_functions_both_paths_share_run_as_their_examples_say() -> None:
    """bucketed_note, top_note, no_value_note… are the one place each sentence is made, for
    the planner and the engine path alike: their docstring examples hold the words."""
    import doctest

    import chartkit.plan.sentences as decide

    result = doctest.testmod(decide, optionflags=doctest.ELLIPSIS, report=False)
    assert result.attempted >= 5 and result.failed == 0
