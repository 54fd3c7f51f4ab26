"""Hostile tool data: each reproducer of issue 8 (core and rendering) as a regression test.

A tool nobody here controls can return anything. These say that chartkit neither crashes,
nor leaks what it refuses, nor lets a value reach a renderer or a page as anything but text.
"""

from __future__ import annotations

import decimal
import json
import subprocess
import sys
import textwrap
import xml.dom.minidom
from typing import Any

import altair as alt
import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import COLUMN_TYPE_CEILING, ChartkitError, check_columns, view
from chartkit._safe import SAMPLE_MAX_TEXT, cap_sample, visible
from chartkit.check.integrity import FINDINGS_MAX, check_result
from chartkit.draw.charts import spec_to_html
from chartkit.messages import (
    NAME_MAX_CHARS,
    NOTHING_CHANGED,
    REFUSAL_MAX_CLAUSES,
    refusal_sentence,
    render_sample,
)
from chartkit.result import ToolResult

EVERY_CONTROL = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)])) + "\u2028\u2029\ufffe\uffff"
HOSTILE_NAMES = ["a\nb", 'a\\"b', "a\u2028b", "a\bb", "a\fb", "a\\", 'x"y', "a\x05b", "\ud800"]


# --- rendering never takes the process down -------------------------------------------------------

_RENDER_SCRIPT = textwrap.dedent(
    """
    import json, sys, xml.dom.minidom
    from chartkit import view
    cases = json.loads(sys.stdin.read())
    out = []
    for name, value in cases:
        v = view([{"k": value, name: 1.0}, {"k": "plain", name: 2.0}],
                 {"k": "string", name: "number"})
        svg = v.to_svg()
        xml.dom.minidom.parseString(svg)  # valid SVG
        png = v.to_png(scale=1.0)
        page = v.to_html()
        out.append({"kind": v.kind, "svg": svg, "png": len(png), "html": len(page)})
    print(json.dumps(out))
    """
)


def _render_in_a_subprocess(cases: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Render each (column name, value) case in a child process: a panic would kill only it."""
    done = subprocess.run(
        [sys.executable, "-c", _RENDER_SCRIPT],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def test_every_control_character_in_a_value_and_a_name_renders_and_the_process_survives() -> None:
    cases = [
        ("v", "a\x05"),  # the reproducer
        ("v", EVERY_CONTROL),
        ("v" + EVERY_CONTROL, "k" + EVERY_CONTROL),
        ("v", "lone \ud800 surrogate"),
        *[(name, "b") for name in HOSTILE_NAMES],
    ]
    results = _render_in_a_subprocess(cases)
    assert [r["kind"] for r in results] == ["chart"] * len(cases)
    assert all(r["png"] > 1000 and r["html"] > 1000 for r in results)
    # shown visibly, never dropped: the label reads a\x05 in the SVG
    assert "a\\x05" in results[0]["svg"]
    assert "\\x1f" in results[1]["svg"] and "\\u2028" in results[1]["svg"]


def test_visible_shows_every_unsafe_character_and_keeps_safe_text() -> None:
    shown = visible(EVERY_CONTROL + "\ud800\u202e")
    assert all(ch not in shown for ch in EVERY_CONTROL + "\ud800\u202e")
    assert shown.startswith("\\x00\\x01") and "\\n" in shown and "\\u2028" in shown
    assert visible("vdi-a é 漢字 🙂") == "vdi-a é 漢字 🙂"


def test_a_column_name_reaches_the_tooltip_expression_escaped() -> None:
    """Vega-Lite writes titles into the tooltip expression; its backslashes are escaped there."""
    v = view([{"k": "a", "a\\": 1.0}, {"k": "b", "a\\": 2.0}], {"k": "string", "a\\": "number"})
    assert v.spec is not None
    titles = json.dumps(v.spec["encoding"])
    assert "a\\\\\\\\" in titles  # the expression title: a\\ (JSON-encoded once more here)
    svg = v.to_svg()
    xml.dom.minidom.parseString(svg)


def test_the_html_page_keeps_every_value_as_data() -> None:
    hostile = "</script><script>alert(1)</script>"
    v = view([{"k": hostile, "v": 1.0}, {"k": "b", "v": 2.0}], {"k": "string", "v": "number"})
    page = v.to_html()
    assert "<script>alert(1)" not in page
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in page
    assert spec_to_html(v.spec or {}) == page


def test_a_render_failure_is_a_chartkit_error() -> None:
    with pytest.raises(ChartkitError, match="could not be rendered as SVG"):
        from chartkit.draw.charts import spec_to_svg

        spec_to_svg({"mark": "no-such-mark", "data": {"values": [{}]}})


# --- bounded outputs ------------------------------------------------------------------------------


def _deep(levels: int) -> list[Any]:
    top: list[Any] = []
    cur = top
    for _ in range(levels):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return top


def test_enforce_refuses_a_5mb_string_in_a_bounded_sentence() -> None:
    v = view([{"v": "x" * 5_000_000}], {"v": "number"}, mode="enforce", tool="t")
    assert v.kind == "refused"
    assert v.reason == (
        "Result rejected: t returned rows that disagree with the columns it declares — 'v' is "
        f'declared number and 1 of 1 rows hold string (first: "{"x" * 120}… (5,000,000 '
        'characters)"). Fix the tool so the column holds what it declares, or change the '
        "declaration. No data was returned."
    )
    assert len(v.to_json()) < 6_000


def test_enforce_refuses_a_dict_of_10000_keys_without_its_values() -> None:
    offender = {f"key{i}": f"secret{i}" for i in range(10_000)}
    v = view([{"v": offender}], {"v": "number"}, mode="enforce")
    assert "secret9999" not in v.reason and "secret9999" not in v.to_json()
    assert '"…": "(10,000 keys)"' in v.reason
    assert v.reason.endswith("No data was returned.")
    assert len(v.reason) < 700


def test_a_value_nested_100000_deep_is_quoted_without_recursion() -> None:
    deep = _deep(100_000)
    for mode in ("warn", "enforce"):
        v = view([{"v": deep}, {"v": 1}], {"v": "number"}, mode=mode)  # type: ignore[arg-type]
        assert "[… 1 item]" in v.to_json()
        json.loads(v.to_json())
    (violation,) = check_columns([{"v": deep}], {"v": "number"})
    assert violation.to_dict()["sample"] == [[["[… 1 item]"]]]


def test_the_warn_finding_keeps_its_fixed_sentences_around_a_capped_sample() -> None:
    v = view([{"v": "y" * 1_000}, {"v": 1}], {"v": "number"}, tool="t")
    (finding,) = v.check.findings
    assert finding.message == (
        "'t' declares column 'v' as number, and 1 of 2 rows hold something else — the first "
        f'is "{"y" * 120}… (1,000 characters)" (string). {COLUMN_TYPE_CEILING} {NOTHING_CHANGED}'
    )


@pytest.mark.parametrize(
    "value",
    [
        "x" * 5_000_000,
        {str(i): i for i in range(10_000)},
        list(range(100_000)),
        _deep(5_000),
        {"a": {"b": {"c": {"d": {"e": 1}}}}},
        [{"k" * 500: "v" * 500}] * 50,
        10**5000,
        -(10**200),
        decimal.Decimal("1e-999999"),
        decimal.Decimal("sNaN"),
        np.arange(100_000),
        b"\x00" * 10_000,
        object(),
    ],
    ids=lambda v: type(v).__name__,
)
def test_every_quoted_sample_is_bounded_and_strict_json(value: Any) -> None:
    text = render_sample(value)
    assert len(text) <= SAMPLE_MAX_TEXT + 200
    capped = cap_sample(value)
    assert len(json.dumps(capped, allow_nan=False)) <= SAMPLE_MAX_TEXT + 400


def test_a_huge_integer_is_quoted_as_a_number_with_its_digit_count() -> None:
    assert render_sample(-(10**100)) == f"-1{'0' * 39}… (101 digits)"
    assert render_sample(10**5000).endswith("digits)")  # beyond Python's str() limit
    assert cap_sample(10**100) == f"1{'0' * 39}… (101 digits)"  # JSON: text, never a float


# --- view() raises nothing but ChartkitError ------------------------------------------------------


def test_pd_na_and_nat_in_nullable_columns_are_absences() -> None:
    rows = [
        {"k": "a", "v": pd.NA, "d": pd.NaT},
        {"k": "b", "v": 2.0, "d": "2024-01-02"},
        {"k": "c", "v": 3.0, "d": "2024-01-03"},
    ]
    decl = {
        "k": "string",
        "v": {"type": "number", "nullable": True},
        "d": {"type": "date", "nullable": True},
    }
    assert check_columns(rows, decl) == ()
    v = view(rows, decl, x="k", y="v")
    assert v.kind == "chart"
    assert not v.check.findings


def test_finite_values_near_the_float_limit_are_charted() -> None:
    rows = [{"k": "a", "v": 1.7e308}, {"k": "b", "v": -1.7e308}, {"k": "c", "v": 5e-324}]
    v = view(rows, {"k": "string", "v": "number"})
    assert v.kind == "chart"


def test_a_histogram_and_a_heatmap_span_the_whole_float_range() -> None:
    spread = [{"v": 1.7e308}, {"v": -1.7e308}] + [{"v": float(i)} for i in range(40)]
    v = view(spread, {"v": "number"})
    assert (v.kind, v.mark) == ("chart", "bar")
    (edges,) = v.spec["datasets"].values() if v.spec else [[]]
    assert edges[0]["v"] == -1.7e308 and edges[-1]["v_end"] == 1.7e308
    pairs = [{"x": 1.7e308 * (i / 400) * (-1) ** i, "y": float(i)} for i in range(400)] * 20
    heat = view(pairs, {"x": "number", "y": "number"}, max_points=100)  # 400 pairs: no point each
    assert (heat.kind, heat.mark) == ("chart", "rect")
    (cells,) = heat.spec["datasets"].values() if heat.spec else [[]]
    assert min(c["x"] for c in cells) < -1e307 and max(c["x_end"] for c in cells) > 1e307


def test_an_overflowing_mean_is_noted_never_silently_null() -> None:
    rows = [{"k": "a", "v": 1.7e308}, {"k": "a", "v": 1.7e308}, {"k": "b", "v": 1.0}]
    v = view(rows, {"k": "string", "v": "number"})
    assert v.kind == "chart"
    assert v.notes == (
        "The mean of v is beyond the largest number a chart can hold (about ±1.8e308) for 1 of 2 "
        "marks; that mark is not drawn.",
    )


def test_a_timedelta_is_not_a_number_and_its_nat_is_an_absence() -> None:
    rows = [{"v": np.timedelta64(5, "s")}, {"v": np.timedelta64("NaT")}, {"v": 1}]
    (v,) = check_columns(rows, {"v": "number"})
    assert (v.sample_type, v.affected, v.absent, v.offending_types) == (
        "timedelta", 2, 1, ("timedelta", "null")
    )  # fmt: skip
    frame = pd.DataFrame({"v": pd.to_timedelta([5, None, 7], unit="s")})
    (fv,) = check_columns(frame, {"v": "number"})
    assert (fv.sample_type, fv.affected, fv.absent) == ("timedelta", 3, 1)
    shown = view([*rows, {"v": 2}], {"v": "number"})
    assert shown.kind in ("chart", "table")


def test_a_signalling_decimal_nan_is_an_absence_and_raises_nothing() -> None:
    rows = [{"k": "a", "v": decimal.Decimal("sNaN")}, {"k": "b", "v": decimal.Decimal("1.5")}]
    (v,) = check_columns(rows, {"k": "string", "v": "number"})
    assert (v.sample_type, v.affected) == ("null", 1)
    nullable = {"k": "string", "v": {"type": "number", "nullable": True}}
    assert view(rows, nullable).kind in ("chart", "table")
    assert view(rows, {"k": "string", "v": "string"}, mode="enforce").kind == "refused"


def test_a_polars_int128_column_is_read() -> None:
    frame = pl.DataFrame({"k": ["a", "b"], "v": pl.Series([1, 2**100], dtype=pl.Int128)})
    assert check_columns(frame, {"k": "string", "v": "number"}) == ()
    assert view(frame, {"k": "string", "v": "number"}).kind == "chart"


def test_an_unforeseen_failure_is_wrapped_in_a_chartkit_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view_module = sys.modules["chartkit.views"]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(view_module, "plan_view", broken)
    with pytest.raises(ChartkitError, match=r"RuntimeError: boom") as caught:
        view([{"k": "a", "v": 1}], {"k": "string", "v": "number"})
    assert isinstance(caught.value.__cause__, RuntimeError)


# --- notebook HTML is text ------------------------------------------------------------------------


def test_the_notebook_html_shows_markup_from_data_as_text() -> None:
    evil = '<img src="https://example.com/beacon.png" onerror="alert(1)">'
    rows = [{evil: "x" + evil, "n": 1}, {evil: "y", "n": 2}]
    from chartkit.notebook._display import words

    for data, decl in ((rows, {evil: "string", "n": "number"}), (rows, {evil: "number"})):
        shown = view(data, decl, tool=evil)
        page = shown._repr_mimebundle_().get("text/html", "") + words(shown)  # words: own output
        assert "<img" not in page.replace("&lt;img", "")
    table = view([{evil: {"a": 1}}], {evil: "string"}, tool=evil, mode="warn")
    assert "<img" not in table._repr_mimebundle_()["text/html"].replace("&lt;img", "")


# --- the caller's global Altair state -------------------------------------------------------------


ROWS = [{"k": "a", "v": 1.0}, {"k": "b", "v": 2.0}, {"k": "c", "v": 3.0}]
DECL = {"k": "string", "v": "number"}


def test_view_works_with_vegafusion_enabled_and_leaves_it_enabled() -> None:
    plain = view(ROWS, DECL).spec
    before = alt.data_transformers.active, alt.renderers.active
    alt.data_transformers.enable("vegafusion")
    alt.renderers.enable("svg")
    try:
        v = view(ROWS, DECL)
        assert v.kind == "chart" and v.spec == plain
        assert len(v.to_png(scale=1.0)) > 1000 and v.to_html()
        v._repr_mimebundle_()
        assert (alt.data_transformers.active, alt.renderers.active) == ("vegafusion", "svg")
    finally:
        alt.data_transformers.enable(before[0])
        alt.renderers.enable(before[1])


def test_a_custom_theme_neither_changes_the_spec_nor_is_changed() -> None:
    plain = view(ROWS, DECL).spec

    @alt.theme.register("chartkit_test_loud", enable=False)
    def loud() -> alt.theme.ThemeConfig:
        return {"config": {"mark": {"color": "#ff00ff"}, "background": "#000000"}}

    before = alt.theme.active
    alt.theme.enable("chartkit_test_loud")
    try:
        v = view(ROWS, DECL)
        assert v.spec == plain
        assert "#ff00ff" not in json.dumps(v.spec)
        assert alt.theme.active == "chartkit_test_loud"
    finally:
        alt.theme.enable(before)
    assert alt.theme.active == before


def test_dataset_consolidation_turned_off_gives_the_same_spec() -> None:
    plain = view(ROWS, DECL).spec
    alt.data_transformers.consolidate_datasets = False
    try:
        assert view(ROWS, DECL).spec == plain
    finally:
        alt.data_transformers.consolidate_datasets = True


def test_a_nul_in_a_polars_column_name_is_charted() -> None:
    frame = pl.DataFrame({"\x00": [1, 2, 3], "k": ["a", "b", "c"]})
    v = view(frame, {"\x00": "number", "k": "string"})
    assert v.kind == "chart"
    assert v.encodings["y"].column == "\x00"


def test_a_complex_value_is_left_out_never_cast_and_its_neighbours_stay_numbers() -> None:
    v = view([{"h": 1 + 2j}, {"h": 3}, {"h": 4.5}, {"h": 7}], None, mode="off")
    assert v.kind == "chart"
    assert v.notes[-1] == (
        '1 row holds something other than a number in h (first: "(1+2j)") and is left out of '
        "the x axis. Nothing was converted."
    )
    assert view([{"h": 1 + 2j}], None).kind == "table"
    assert view(pd.DataFrame({"h": [1 + 2j, 3, 4]}), None).kind == "table"


def test_a_nullable_boolean_frame_column_is_a_category_axis() -> None:
    frame = pd.DataFrame(
        {
            "up": pd.Series([True, False, True, False, None], dtype="boolean"),
            "n": pd.Series([1, 2, 3, 4, 5], dtype="Int64"),
        }
    )
    v = view(frame, {"up": {"type": "boolean", "nullable": True}, "n": "number"}, mode="off")
    assert v.kind == "chart" and v.spec is not None
    # the missing category ranks by its mean too (5, the highest): a scale's domain holds it
    order = v.spec["encoding"]["x"]["scale"]["domain"]
    assert order == [None, False, True]
    assert all(type(b) is bool for b in order[1:])  # Python booleans, never numpy's


# --- bounded sentences: huge names, thousands of broken columns ----------------------------------

HUGE_NAME = "n" * 5_000_000
SENTENCE_MAX = 5_000  # a sentence quotes a few names, each cut at NAME_MAX_CHARS


def _sentences(v: Any) -> list[str]:
    """Every human sentence a view's payload carries."""
    d = v.to_dict()
    return [
        d["reason"],
        *d["notes"],
        *(r["reason"] for r in d["refusals"]),
        *(a["reason"] for a in d["alternatives"]),
        *(e["description"] for e in d["encodings"].values()),
        *(f["message"] for f in d["findings"]),
    ]


@pytest.mark.parametrize(
    ("declaration", "mode"),
    [
        ({HUGE_NAME: "number", "v": "number"}, "warn"),  # a scatter: reasons, alternatives
        ({"d": "date", HUGE_NAME: "number"}, "warn"),  # a line over time
        ({HUGE_NAME: "string", "v": "number"}, "warn"),  # a broken column: findings, refusals
        ({HUGE_NAME: "string", "v": "number"}, "enforce"),  # the refusal
        ({HUGE_NAME: "number", "v": "string"}, "warn"),  # an axis refused, noted
    ],
    ids=["scatter", "line", "broken-warn", "broken-enforce", "refused-axis"],
)
def test_a_5_mb_column_name_is_cut_in_every_sentence(
    declaration: dict[str, str], mode: Any
) -> None:
    rows = [{HUGE_NAME: i, "v": float(i), "d": f"2024-01-0{i + 1}"} for i in range(5)]
    v = view(rows, declaration, mode=mode)
    sentences = _sentences(v)
    assert sentences and all(len(s) < SENTENCE_MAX for s in sentences), max(map(len, sentences))
    assert any("n… (5,000,000 characters)" in s for s in sentences)


def test_a_normal_name_reads_as_written() -> None:
    name = "n" * NAME_MAX_CHARS  # at the cap: not cut
    v = view([{name: i, "v": float(i)} for i in range(5)], {name: "number", "v": "number"})
    assert name in v.reason and "characters)" not in v.reason


def _broken(n: int) -> tuple[list[dict[str, Any]], dict[str, str]]:
    row = {f"c{i}": "x" * 1_000 for i in range(n)}
    return [row, dict(row)], {f"c{i}": "number" for i in range(n)}


@pytest.mark.parametrize("mode", ["warn", "enforce"])
def test_5000_broken_columns_give_a_bounded_refusal_and_findings(mode: Any) -> None:
    rows, declaration = _broken(5_000)
    outcome = check_result(ToolResult("t", rows, result_columns=declaration), mode=mode)
    assert len(outcome.violations) == 5_000
    assert len(outcome.findings) == FINDINGS_MAX
    total = sum(len(f.message) for f in outcome.findings)
    assert total < FINDINGS_MAX * (REFUSAL_MAX_CLAUSES * 600 + 2_000)  # ≈ 280,000 characters
    if mode == "enforce":
        assert outcome.refusal is not None and outcome.delivered == outcome.refusal
        assert outcome.refusal.startswith(
            "Result rejected: t returned rows that disagree with the columns it declares — "
            "'c0' is declared number and 2 of 2 rows hold string (first: \"xxx"
        )
        assert outcome.refusal.endswith(
            "; and 4,980 more columns disagree with their declarations (not each described "
            "here). Fix the tool so each column holds what it declares, or change the "
            "declaration. No data was returned."
        )
        assert outcome.refusal.count("is declared number") == REFUSAL_MAX_CLAUSES
        assert len(outcome.refusal) < REFUSAL_MAX_CLAUSES * 600 + 500
        assert all(
            f.message == f"{outcome.refusal} {COLUMN_TYPE_CEILING}" for f in outcome.findings
        )
    else:
        assert outcome.delivered is rows
        *first, last = outcome.findings
        assert all("more columns" not in f.message for f in first)
        assert (
            " 4,980 more columns of this result disagree with their declarations too and are "
            f"not each filed as a finding of their own. {COLUMN_TYPE_CEILING}"
        ) in last.message
        assert last.message.endswith(NOTHING_CHANGED)


def test_a_refusal_at_the_clause_cap_lists_every_column() -> None:
    rows, declaration = _broken(REFUSAL_MAX_CLAUSES)
    violations = check_columns(rows, declaration)
    refusal = refusal_sentence("t", violations)
    assert refusal.count("is declared number") == REFUSAL_MAX_CLAUSES
    assert "more column" not in refusal
    rows, declaration = _broken(REFUSAL_MAX_CLAUSES + 1)
    refusal = refusal_sentence("t", check_columns(rows, declaration))
    assert refusal.endswith(
        "; and 1 more column disagrees with its declaration (not each described here). Fix the "
        "tool so each column holds what it declares, or change the declaration. No data was "
        "returned."
    )


def test_a_pick_naming_no_column_lists_the_columns_bounded() -> None:
    rows = [{HUGE_NAME: 1.0, "v": 2.0}] * 3
    with pytest.raises(ChartkitError) as caught:
        view(rows, {HUGE_NAME: "number", "v": "number"}, x="nope")
    assert len(str(caught.value)) < SENTENCE_MAX
    assert str(caught.value).endswith("… (5,000,000 characters)', 'v'")
    wide = [{f"c{i}": 1.0 for i in range(5_000)}] * 2
    with pytest.raises(ChartkitError) as caught:
        view(wide, {"c0": "number"}, y=["nope"])
    assert str(caught.value).endswith("'c18', 'c19' and 4,980 more columns")


# --- issue 18: a column named like one of the check's own helpers answers nothing -------------

# the names the check used to add and then read back, in their case-folded spellings as well
# (DuckDB and Spark match names case-insensitively), and the names it uses now
HELPER_LIKE = [
    *(f"__chartkit_{kind}{i}" for kind in ("ok", "jt", "js", "jv") for i in range(3)),
    "__chartkit_row", "__CHARTKIT_OK0", "__Chartkit_Row",
    *(f"{kind}{i}" for kind in ("c", "ok", "jt", "js", "jv", "n", "at") for i in range(3)),
    "row", "ROW", "C0", "x0", "*", "^lun$", "^.*$", "a.b", "`c0`", '"c0"',
]  # fmt: skip


def _evil_csv(path: Any, helper: str, n: int = 10) -> Any:
    quoted = '"' + helper.replace('"', '""') + '"'
    lines = [f"lun,host,{quoted}"]
    lines += [f"{'EVIL-' + str(i) if i % 2 else i},h{i},true" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_csv_column_named_like_the_checks_helper_cannot_pass_the_cli_check(tmp_path: Any) -> None:
    path = _evil_csv(tmp_path / "evil.csv", "__chartkit_ok0")
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", "check", "--engine", "duckdb", "--mode", "enforce",
         "--columns", '{"lun": "number", "host": "string"}', str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "Result rejected: evil returned rows that disagree with the columns it declares — 'lun' "
        'is declared number and 5 of 10 rows hold string (first: "EVIL-1"). Fix the tool so the '
        "column holds what it declares, or change the declaration. No data was returned."
    ) in done.stdout


@pytest.mark.parametrize("helper", HELPER_LIKE)
def test_a_column_named_like_a_helper_never_answers_the_check(tmp_path: Any, helper: str) -> None:
    from chartkit.read.engines import open_table

    table = open_table(_evil_csv(tmp_path / "evil.csv", helper))
    (violation,) = check_columns(table, {"lun": "number", "host": "string"})
    assert (violation.column, violation.affected, violation.sample) == ("lun", 5, "EVIL-1")
    if helper.isidentifier():  # (the chart's own queries are backends.pushdown's to harden)
        found = view(table, {"lun": "number", "host": "string"}, tool="evil")
        assert [v.to_dict() for v in found.check.violations] == [violation.to_dict()]
        assert found.left_out == 5  # said, never silently dropped
    # the helper-like column declared itself is judged as itself, under every engine
    rows = [{"lun": i, helper: "EVIL" if i % 2 else "true"} for i in range(6)]
    declared = {"lun": "number", helper: "boolean"}
    import duckdb

    frames = [pl.DataFrame(rows), pl.DataFrame(rows).lazy(), pl.DataFrame(rows).to_arrow(),
              duckdb.from_arrow(pl.DataFrame(rows).to_arrow())]  # fmt: skip
    for frame in frames:
        (v,) = check_columns(frame, declared)
        assert (v.column, v.affected, v.sample) == (helper, 6, "true"), type(frame)


@pytest.mark.parametrize("helper", ["__chartkit_jt0", "__chartkit_jv0", "__chartkit_js0", "jt0"])
def test_a_jsonl_column_named_like_the_json_helpers_cannot_pass(tmp_path: Any, helper: str) -> None:
    from chartkit.read.engines import open_table

    path = tmp_path / "evil.jsonl"
    lines = [{"lun": i if i % 2 == 0 else {"EVIL": i}, helper: "BIGINT"} for i in range(6)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    (violation,) = check_columns(open_table(path), {"lun": "number"})
    assert (violation.column, violation.affected, violation.sample) == ("lun", 3, {"EVIL": 1})


# --- issue 18: strings from data are bounded at the door ---------------------------------------


@pytest.mark.parametrize("size", [1, 2_000_000])
@pytest.mark.parametrize("forged", ["\nchartkit.integrity WARNING clean", "\r\x1b[2K", "\u2028"])
def test_a_call_id_is_capped_and_escaped_at_the_door(
    size: int, forged: str, caplog: pytest.LogCaptureFixture
) -> None:
    from chartkit import subscribe
    from chartkit.result import CALL_ID_MAX_CHARS

    call_id = "call-1" + forged + "x" * size
    result = ToolResult("t", [{"lun": ""}], result_columns={"lun": "number"}, call_id=call_id)
    assert result.call_id is not None and len(result.call_id) < CALL_ID_MAX_CHARS + 60
    assert visible(result.call_id) == result.call_id  # no raw control or separator left
    assert result.call_id.startswith("call-1" + visible(forged))
    seen: list[Any] = []
    with caplog.at_level("WARNING", logger="chartkit.integrity"), subscribe(seen.append):
        for mode in ("warn", "enforce"):
            outcome = check_result(result, mode=mode)
            assert all(len(json.dumps(f.to_dict())) < 4_000 for f in outcome.findings)
    assert caplog.records and all("\n" not in r.getMessage() for r in caplog.records)
    assert all(len(json.dumps(e.payload, default=str)) < 6_000 for e in seen)
    wire = ToolResult.from_wire({"tool": "t", "rows": [], "callId": call_id}).to_wire()
    assert wire["callId"] == result.call_id


@pytest.mark.parametrize("keys", [3, 11, 200_000])
def test_an_object_that_is_not_a_tool_result_lists_its_keys_bounded(keys: int) -> None:
    from chartkit.result import KEYS_LISTED_MAX, read_results

    payload = {f"key-{i}-" + "k" * 1000: i for i in range(keys)}
    with pytest.raises(ChartkitError) as caught:
        read_results(json.dumps(payload))
    message = str(caught.value)
    assert message.count("'key-") == min(keys, KEYS_LISTED_MAX)
    assert len(message) < 3_000
    if keys > KEYS_LISTED_MAX:
        assert message.endswith(f" and {keys - KEYS_LISTED_MAX:,} more")
    with pytest.raises(ChartkitError) as caught:
        read_results(json.dumps({"tool": "t", "rows": [], **payload}))
    assert len(str(caught.value)) < 3_000


@pytest.mark.parametrize("length", [121, 60_000])
def test_titles_are_capped_and_the_tooltip_keeps_the_longer_name(length: int) -> None:
    from chartkit.draw.charts import TITLE_MAX_CHARS, TOOLTIP_TITLE_MAX_CHARS

    name = "é" * (length - 1) + "Z"
    rows = [{name: i, "g": f"g{i % 3}"} for i in range(6)]
    shown = view(rows, {name: "number", "g": "string"}, tool="t")
    assert shown.spec is not None
    titles: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("title"), str):
                titles.append(node["title"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk({k: v for k, v in shown.spec.items() if k != "encoding"})
    walk({k: v for k, v in shown.spec["encoding"].items() if k != "tooltip"})
    assert titles and all(len(t) <= TITLE_MAX_CHARS for t in titles)
    assert any(t.endswith("…") for t in titles)
    tips = shown.spec["encoding"]["tooltip"]
    assert all(len(t["title"]) <= TOOLTIP_TITLE_MAX_CHARS for t in tips)
    assert any(
        t["title"].startswith("mean of " + name[: TOOLTIP_TITLE_MAX_CHARS - 20]) for t in tips
    )
    if length + 8 <= TOOLTIP_TITLE_MAX_CHARS:  # a name that fits is read whole in the tooltip
        assert "mean of " + name in {t["title"] for t in tips}
    assert len(shown.spec.get("description", "")) <= 1_000


def test_one_list_of_unsafe_characters_is_escaped_everywhere() -> None:
    """``chartkit._literal.UNSAFE_CHARACTERS`` is the list ``_safe`` and ``_literal`` both use:
    the noncharacters U+FFFE/U+FFFF are escaped in a sample and in a terminal or JSON literal."""
    import re

    from chartkit._literal import UNSAFE_CHARACTERS, json_literal, visible_controls
    from chartkit._safe import visible

    unsafe = re.compile(f"[{UNSAFE_CHARACTERS}]")
    every = [chr(c) for c in range(0x10000) if unsafe.fullmatch(chr(c))]
    assert {"\x00", "\n", "\x7f", "\x9b", "\u2028", "\u202e", "\u2066", "\ud800", "\ufffe",
            "\uffff"} <= set(every)  # fmt: skip
    for ch in every:
        assert unsafe.search(visible(ch)) is None, hex(ord(ch))
        assert unsafe.search(visible_controls(ch, newlines=True)) is None, hex(ord(ch))
        assert visible(ch) == visible_controls(ch, newlines=True)  # one escape, one spelling
        if ch != "\n":  # JSON text holds no raw newline (json.dumps writes \n)
            assert unsafe.search(json_literal(ch)) is None, hex(ord(ch))
    assert visible("a\ufffeb") == visible_controls("a\ufffeb") == "a\\ufffeb"
    assert visible_controls("a\nb") == "a\nb" and visible_controls("a\nb", newlines=True) == "a\\nb"


_HELPERISH = st.sampled_from(
    ["__chartkit_ok", "__chartkit_jt", "__chartkit_row", "c", "ok", "jt", "js", "jv", "row", "x",
     "^", "$", "*", ".", "`", '"', "", "n", "at"]
)  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.lists(
        st.one_of(
            st.sampled_from(["^.*$", "^a.*$", "*", "a", "ab", "^ab$", "a.b", "c0", "row"]),
            st.builds(
                lambda a, b, c: a + b + c,
                _HELPERISH,
                st.sampled_from(["", "0", "1", "$"]),
                st.text(alphabet="^$*.ab0_", max_size=3),
            ),
        ),
        min_size=2,
        max_size=5,
        unique_by=str.lower,
    ).filter(lambda ns: all(ns)),
    data=st.data(),
)
def test_generated_helper_like_names_judge_as_the_rows_judge(names: list[str], data: Any) -> None:
    """Any mix of helper-like and pattern-like names: each engine finds what the rows find."""
    import duckdb

    n = 4
    values = {
        name: data.draw(st.lists(st.sampled_from([1, "EVIL", None, True]), min_size=n, max_size=n))
        for name in names
    }
    declared: dict[str, Any] = {
        name: data.draw(st.sampled_from(["number", "string", "boolean"])) for name in names
    }
    # one type per column in a frame: the values of each column as text where they mix
    columns = {k: [None if v is None else str(v) for v in vs] for k, vs in values.items()}
    rows = [{k: columns[k][i] for k in names} for i in range(n)]
    def judged(found: Any) -> list[Any]:  # sample and type order: compared engine to engine
        return [(v.column, v.affected, v.absent, v.total, set(v.offending_types)) for v in found]

    expected = judged(check_columns(rows, declared))
    frame = pl.DataFrame(columns, schema={k: pl.String for k in names})
    natives = (frame, frame.lazy(), frame.to_arrow(), duckdb.from_arrow(frame.to_arrow()))
    samples = []
    for native in natives:
        found = check_columns(native, declared)
        assert judged(found) == expected, type(native)
        samples.append([(v.sample, v.offending_types) for v in found])
    assert all(s == samples[0] for s in samples), samples
