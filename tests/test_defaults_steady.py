"""The default chart is steady: what does not change the data's meaning does not change the chart.

Metamorphic properties over every corpus dataset (``bench/datasets/``, as its tool returns it):

- up to 1% offenders (``''``, ``"n/a"``, a quoted number, a null in a non-nullable column) put
  into any one column (hypothesis picks the column, the kind and the rows; derandomized, so CI
  sees the same cases) leave the default's mark and channels (x, y, color, facet: their
  columns, types and measures) as they were; only the notes change;
- each row's keys in reverse order draw the same chart; the declaration in reverse order draws
  the same chart, or one that costs the same under the criteria (a tie, which the
  declaration's order breaks);
- columns renamed (none whose role is read from its name: latitude, longitude, ``id``) draw the
  same chart on the renamed columns.

A dataset whose default is not steady yet is listed once, in ``OPEN``, as
``xfail(strict=True)`` with the property it fails: when the chooser holds it, the test XPASSes,
fails, and the entry is removed.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.datasets import DATASETS, dataset, default_view  # noqa: E402
from bench.datasets.criteria import LATITUDE, LONGITUDE  # noqa: E402
from chartkit import View, check_columns, view  # noqa: E402
from chartkit.columns import normalize_result_columns  # noqa: E402
from chartkit.plan.criteria import cost  # noqa: E402
from chartkit.plan.encode import profile_columns  # noqa: E402
from chartkit.plan.facts import FrameFacts  # noqa: E402
from chartkit.plan.roles import assign  # noqa: E402
from chartkit.plan.rules import candidates  # noqa: E402

OFFENDERS = "offenders"
KEYS = "key order"
DECLARATION = "declaration order"
RENAMED = "renamed columns"

OPEN: dict[tuple[str, str], str] = {}
"""``(dataset, property)`` → why it is not steady today (issue 40): the one list of them."""

CHANNELS = ("x", "y", "color", "facet")
SHARE = 0.01
"""At most this share of a dataset's rows is made an offender (one row at least)."""
KINDS = ("empty", "n/a", "quoted number", "null")
NAMED_ROLES = LATITUDE | LONGITUDE | {"id"}
"""Names whose role is read from the name: renaming them may change the chart."""

_STEADY = settings(
    max_examples=4, deadline=None, database=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=(Phase.explicit, Phase.generate),  # an open entry fails fast: no shrinking
)  # fmt: skip


def _cases(prop: str) -> list[Any]:
    return [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=OPEN[(n, prop)]))
        if (n, prop) in OPEN else n
        for n in DATASETS
    ]  # fmt: skip


def _drawn(shown: View, names: dict[str, str] | None = None) -> tuple[Any, ...]:
    """The chart's mark and channels: each one's column (read back through ``names``), its
    Vega-Lite type and its measures."""
    back = names or {}
    channels = tuple(
        (ch, back.get(e.column, e.column), e.type, tuple(back.get(m, m) for m in e.measures))
        for ch in CHANNELS
        if (e := shown.encodings.get(ch)) is not None
    )
    return (shown.kind, shown.mark, channels)


def _offender(kind: str, value: Any) -> Any:
    if kind == "empty":
        return ""
    if kind == "n/a":
        return "n/a"
    if kind == "quoted number":
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return str(value)
        return "42"
    return None


@pytest.mark.parametrize("name", _cases(OFFENDERS))
def test_a_few_offenders_in_any_column_leave_the_chart_as_it_was(name: str) -> None:
    ds = dataset(name)
    before = _drawn(default_view(name))
    columns = list(ds.result_columns)
    most = max(1, int(SHARE * len(ds.rows)))

    @_STEADY
    @given(
        column=st.sampled_from(columns),
        kind=st.sampled_from(KINDS),
        at=st.lists(st.integers(0, len(ds.rows) - 1), min_size=1, max_size=most, unique=True),
    )
    def steady(column: str, kind: str, at: list[int]) -> None:
        rows = [dict(r) for r in ds.rows]
        for i in at:
            rows[i][column] = _offender(kind, rows[i][column])
        shown = view(rows, ds.result_columns, tool=ds.tool)
        assert _drawn(shown) == before, f"{len(at)} {kind!r} in {column!r}: {shown.reason}"

    steady()


@pytest.mark.parametrize("name", _cases(KEYS))
def test_the_rows_keys_in_reverse_order_draw_the_same_chart(name: str) -> None:
    assert _drawn(default_view(name, reverse_keys=True)) == _drawn(default_view(name))


@pytest.mark.parametrize("name", _cases(DECLARATION))
def test_the_declaration_in_reverse_order_draws_the_same_chart(name: str) -> None:
    ds = dataset(name)
    declared = dict(reversed(list(ds.result_columns.items())))
    shown, before = view(ds.rows, declared, tool=ds.tool), default_view(name)
    if _drawn(shown) != _drawn(before):  # ties aside: the two charts cost the same
        reversed_cost = _cost_of(ds.rows, declared, shown)
        assert reversed_cost == _cost_of(ds.rows, ds.result_columns, before), shown.reason


def _key(picks: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(
        sorted((k, str(sorted(v)) if isinstance(v, list) else str(v))
               for k, v in picks.items() if k != "aggregate")
    )  # fmt: skip


def _cost_of(rows: list[dict[str, Any]], declared: dict[str, Any], shown: View) -> float:
    """The cost under the criteria of the candidate the view drew (its declaration's own)."""
    frame = pd.DataFrame(rows)
    decl = normalize_result_columns(declared)
    profiles = profile_columns(frame, decl, check_columns(frame, decl))
    roles = assign(profiles, FrameFacts(frame))
    drawn = _key(dict(shown.drawn))
    for a in candidates(profiles, roles):
        moved = {("facet" if k == "color" else k): v for k, v in a.picks().items()}
        if drawn in (_key(a.picks()), _key(moved)):  # (past ten colors: small charts)
            return cost(a, roles)[0]
    raise AssertionError(f"no candidate draws {drawn}")


@pytest.mark.parametrize("name", _cases(RENAMED))
def test_columns_renamed_draw_the_same_chart_on_the_renamed_columns(name: str) -> None:
    """Each column whose role is not read from its name becomes ``v<k>``, numbered backwards so
    that neither the names' alphabetical order nor their words can decide."""
    ds = dataset(name)
    columns = list(ds.result_columns)
    renamed = {
        c: c if c.lower() in NAMED_ROLES else f"v{len(columns) - i:03d}"
        for i, c in enumerate(columns)
    }
    rows = [{renamed[k]: v for k, v in r.items()} for r in ds.rows]
    declared = {renamed[c]: d for c, d in ds.result_columns.items()}
    shown = view(rows, declared, tool=ds.tool)
    back = {new: old for old, new in renamed.items()}
    assert _drawn(shown, back) == _drawn(default_view(name)), shown.reason


def test_every_open_entry_names_a_dataset_and_a_property() -> None:
    for name, prop in OPEN:
        assert name in DATASETS
        assert prop in (OFFENDERS, KEYS, DECLARATION, RENAMED)
        assert OPEN[(name, prop)].startswith("issue 40: ")


def test_an_offender_of_each_kind_is_what_its_name_says() -> None:
    assert [_offender(k, 3.5) for k in KINDS] == ["", "n/a", "3.5", None]
    assert _offender("quoted number", "Beijing") == "42"
