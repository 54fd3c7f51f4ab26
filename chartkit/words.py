"""The sentences several surfaces say, each written once: the command line, the MCP server and
its page, the explorer and the agent adapters read them from here.

The check's own words (findings, refusals, why a result was not checked) live in
``chartkit.messages``, the planner's in ``chartkit.plan.sentences``; this module holds what
the surfaces add around them — a count, a missing extra, the labels of a view's details —
so that a wording is changed in one place. A phrase here starts in lower case where a surface
may put it mid-line; ``capitalized`` begins a line with it.
"""

from __future__ import annotations

__all__ = [
    "capitalized",
    "chart_of",
    "counted",
    "needs_extra",
    "offending_values",
    "refused_axis",
]


def counted(n: int, noun: str) -> str:
    """``n`` of ``noun`` in chartkit's one number format, the noun agreed with the count.

    >>> counted(1, "row"), counted(2056, "row"), counted(0, "finding")
    ('1 row', '2,056 rows', '0 findings')
    """
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def capitalized(phrase: str) -> str:
    """A phrase of this module as the start of a line or a sentence.

    >>> capitalized(refused_axis("y", "no number"))
    'Refused y axis: no number'
    """
    return phrase[:1].upper() + phrase[1:]


def needs_extra(what: str, needs: str, extra: str, *, failed: BaseException | None = None) -> str:
    """The error of a part of chartkit whose optional dependency is missing: who needed what,
    why it is not there, and the install line of the extra that brings it.

    >>> needs_extra("chartkit.mcp", "the MCP SDK 2.3 or newer", "mcp",
    ...             failed=ImportError("No module named 'mcp'"))  # doctest: +NORMALIZE_WHITESPACE
    "chartkit.mcp needs the MCP SDK 2.3 or newer, and importing it failed (No module named
    'mcp'); install it with: pip install 'chartkit[mcp]'"
    >>> needs_extra("chartkit explore", "Streamlit", "app")
    "chartkit explore needs Streamlit, which is not installed; install it with: pip install \
'chartkit[app]'"
    """
    why = "which is not installed" if failed is None else f"and importing it failed ({failed})"
    return f"{what} needs {needs}, {why}; install it with: pip install 'chartkit[{extra}]'"


def refused_axis(channel: str, reason: str) -> str:
    """A view's refused axis as a detail line: the channel, then the planner's reason.

    >>> refused_axis("y", "host is declared string")
    'refused y axis: host is declared string'
    """
    return f"refused {channel} axis: {reason}"


def offending_values(listed: str, column: str | None = None) -> str:
    """The line beside a finding that lists its most frequent offending values
    (``chartkit.messages.offenders_text``); ``column`` when the line stands apart from it.

    >>> offending_values('"" ×166')
    'most frequent offending values: "" ×166'
    >>> offending_values('"" ×166', "'lun'")
    'most frequent offending values of \\'lun\\': "" ×166'
    """
    of = f" of {column}" if column else ""
    return f"most frequent offending values{of}: {listed}"


def chart_of(mark: str | None) -> str:
    """What a drawn view is, said with its mark: ``a bar chart`` (``a chart`` without one).

    >>> chart_of("bar"), chart_of(None)
    ('a bar chart', 'a chart')
    """
    return f"a {mark} chart" if mark else "a chart"
