"""The rule table is data the code executes: typed needs, read; the docs' table made from it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from chartkit.columns import normalize_result_columns
from chartkit.plan.encode import profile_columns
from chartkit.plan.rules import RULES, Need, candidates, documented, rule_table

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"


def profiles(frame: pd.DataFrame, decl: dict[str, str]) -> dict[str, object]:
    return dict(profile_columns(frame, normalize_result_columns(decl), ()))


def test_docs_rules_md_holds_the_table_generated_from_the_rules() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert documented(text) == text, "docs/rules.md is stale: run .venv/bin/python -m chartkit.plan"
    for rule in RULES:
        assert f"| {rule.chart} | {rule.describe_needs()} |" in rule_table()


def test_the_old_rule_table_copies_are_gone_from_the_docstrings() -> None:
    import chartkit.plan.decide
    import chartkit.plan.rules

    for module in (chartkit.plan.decide, chartkit.plan.rules):
        assert "=====" not in (module.__doc__ or ""), module.__name__


def test_every_need_is_typed_and_read_a_changed_need_changes_the_candidates() -> None:
    frame = pd.DataFrame({"k": ["a", "b", "a"], "v": [1.0, 2.0, 3.0], "w": [3.0, 1.0, 2.0]})
    decl = {"k": "string", "v": "number", "w": "number"}
    got = [(a.chart, a.x, a.y, a.color) for a in candidates(profiles(frame, decl))]  # type: ignore[arg-type]
    assert got[:5] == [
        ("scatter", "v", "w", "k"),  # (uncolored, it ranks after: drawn, it would be colored)
        ("scatter", "w", "v", "k"),
        ("bars", "k", "v", None),
        ("bars", "k", "w", None),
        ("histogram", "v", None, None),
    ]
    assert all(isinstance(n, Need) for r in RULES for n in r.needs)
    # a need admits by kind and bounds: a category of 12 values is no color of ten, a facet of 20
    wide = profiles(
        pd.DataFrame({"t": pd.date_range("2024", periods=24, freq="h", tz="UTC"),
                      "v": range(24), "k": [f"k{i % 12}" for i in range(24)]}),
        {"t": "date", "v": "number", "k": "string"},
    )  # fmt: skip
    lines = RULES[0]
    color, facet = lines.needs[2], lines.needs[3]
    assert not color.admits(wide["k"])  # type: ignore[arg-type]
    assert facet.admits(wide["k"])  # type: ignore[arg-type]
    (first, *_) = candidates(wide)  # type: ignore[arg-type]
    assert (first.chart, first.color, first.facet) == ("lines", None, "k")
    assert first.reason == (
        "t is declared date and v number: a line over time, one small chart per k (12 values: "
        "more than ten colors), shows how v moves."
    )
    # faceted lines is offered only when lines already colors a series: not here
    assert "faceted lines" not in [a.chart for a in candidates(wide)]  # type: ignore[arg-type]


def test_count_bars_need_repeated_values() -> None:
    frame = pd.DataFrame({"k": ["a", "b", "c"]})
    assert [a.chart for a in candidates(profiles(frame, {"k": "string"}))] == []  # type: ignore[arg-type]
    frame = pd.DataFrame({"k": ["a", "b", "a"]})
    assert [a.chart for a in candidates(profiles(frame, {"k": "string"}))] == ["count bars"]  # type: ignore[arg-type]
