"""A notebook says the refusal and the ceiling once, and a CheckOutcome displays readably."""

from __future__ import annotations

from chartkit import COLUMN_TYPE_CEILING, ToolResult, check_result, view
from chartkit.notebook._display import mimebundle

REFUSAL = (
    "Result rejected: t&lt;b&gt; returned rows that disagree with the columns it declares — "
    "&#x27;a&#x27; is declared number and 1 of 2 rows hold string (first: &quot;&quot;). Fix the "
    "tool so the column holds what it declares, or change the declaration. No data was returned."
)
CEILING = COLUMN_TYPE_CEILING.replace("'", "&#x27;")


def hostile() -> ToolResult:
    return ToolResult("t<b>", [{"a": ""}, {"a": 1}], result_columns={"a": "number"}, call_id="c")


def test_a_refused_view_says_the_refusal_once_and_the_ceiling_once() -> None:
    html = mimebundle(view(hostile(), mode="enforce"))["text/html"]
    assert html.count(REFUSAL) == 1
    assert html.count(CEILING) == 1
    assert "<b>t" not in html


def test_a_warned_views_words_say_the_ceiling_once() -> None:
    rows = [{"a": "", "b": "x"}, {"a": 1, "b": 2}]
    result = ToolResult("t", rows, result_columns={"a": "number", "b": "number"})
    html = mimebundle(view(result, mode="warn", x="a", y="b"))
    text = html.get("text/html", "") or ""
    from chartkit.notebook._display import words

    said = words(view(result, mode="warn"))
    assert said.count(CEILING) == 1
    assert said.count("declares column") == 2
    assert isinstance(text, str)


def test_a_check_outcome_shows_a_short_repr_and_escaped_html() -> None:
    outcome = check_result(hostile(), mode="enforce")
    assert repr(outcome) == (
        "CheckOutcome(mode='enforce', status='invalid', armed=True, findings=1, refused=True)"
    )
    html = outcome._repr_html_()
    assert html.startswith("<p><b>refused under enforce</b></p>")
    assert html.count(REFUSAL) == 1
    assert html.count(CEILING) == 1
    assert "<b>t" not in html.replace("<b>refused", "")
    assert ">not applicable</th>" in html and "as the tool&#x27;s result is written" in html
    assert "lastFiredAt" not in html and "notApplicable" not in html
