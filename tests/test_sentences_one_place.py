"""Each user-facing sentence is written once: a wording lives in one function of one module.

The stages keep their words in ``chartkit.messages`` (the check) and ``chartkit.plan.sentences``
(the planner); what several surfaces say around them is ``chartkit.words``. A sentence written
twice drifts (issue 39 item 5): one copy gets fixed, the other keeps the old words. The source
is read with ``ast`` (nothing imported); a sentence is a string literal, or an f-string with
its fields as ``{}``, of at least ``MIN_WORDS`` words, docstrings aside.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from chartkit import ToolResult, view
from chartkit.agents._dial import ToolDial
from chartkit.cli import main
from chartkit.errors import ChartkitError
from chartkit.explorer._logic import run_ledger
from chartkit.messages import not_checked_reason, unarmed_sentence, unknown_mode
from chartkit.words import capitalized, chart_of, counted, needs_extra, offending_values

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chartkit"
MIN_WORDS = 6

ALLOWED_TWICE: dict[str, str] = {
    # each entry: the sentence (fields as {}) → why it is still written in two places
    "utc_truncated floors to a month, quarter or year, not {}": "read/dialects.py, the reader's",
}
"""Sentences still written twice, each with where and why. The list only shrinks."""

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _docstrings(tree: ast.Module) -> set[int]:
    """The string expressions standing alone in a body: docstrings, attribute docstrings."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        for stmt in body if isinstance(body, list) else []:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                found.add(id(stmt.value))
    return found


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def sentences(source: str) -> list[tuple[str, int]]:
    """The sentence literals of a module's source, whitespace folded, with their lines."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # an f-string's parts are not literals of their own
            skip.update(id(v) for v in node.values)
    found = []
    for node in ast.walk(tree):
        text = None if id(node) in skip else _text(node)
        if text is not None:
            folded = " ".join(text.split())
            if len(_WORD.findall(folded)) >= MIN_WORDS:
                found.append((folded, getattr(node, "lineno", 0)))
    return found


def written_twice() -> dict[str, list[str]]:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        for text, line in sentences(path.read_text(encoding="utf-8")):
            where[text].append(f"{path.relative_to(ROOT)}:{line}")
    return {text: places for text, places in where.items() if len(places) > 1}


# --- the scan --------------------------------------------------------------------------------


def test_no_sentence_is_written_in_two_places() -> None:
    twice = written_twice()
    new = {t: p for t, p in twice.items() if t not in ALLOWED_TWICE}
    gone = sorted(set(ALLOWED_TWICE) - set(twice))
    assert not new, f"a sentence written twice: give it one function, and call it: {new}"
    assert not gone, f"listed as written twice but no longer is (delete the entry): {gone}"


def test_the_scan_sees_a_sentence_written_twice() -> None:
    """The scan reads f-strings with their fields blanked and folds line breaks, and leaves
    docstrings and short labels alone."""
    source = '''
def a(x):
    """A docstring that is long enough to count as a sentence here."""
    return f"{x} is not a readable file of the kind asked for"

def b(y):
    return (f"{y} is not a readable file "
            "of the kind asked for")

LABEL = "the dial"
'''
    found = sentences(source)
    assert [text for text, _ in found] == ["{} is not a readable file of the kind asked for"] * 2
    assert [line for _, line in found] == [4, 7]


# --- the moved sentences read as before ------------------------------------------------------


def test_the_shared_words() -> None:
    assert counted(1, "row") == "1 row"
    assert counted(2056, "declared column") == "2,056 declared columns"
    assert chart_of("line") == "a line chart"
    assert capitalized(offending_values('"" ×2', "'lun'")) == (
        "Most frequent offending values of 'lun': \"\" ×2"
    )


def test_a_missing_extra_names_the_module_and_the_install_line() -> None:
    """The MCP modules and the agent adapters raise it on a failed import, as before."""
    assert needs_extra(
        "chartkit.agents.langchain",
        "langchain-core",
        "langchain",
        failed=ImportError("No module named 'langchain_core'"),
    ) == (
        "chartkit.agents.langchain needs langchain-core, and importing it failed (No module "
        "named 'langchain_core'); install it with: pip install 'chartkit[langchain]'"
    )


def test_the_mcp_server_without_its_extra_says_so_in_the_shared_words() -> None:
    code = (
        "import sys; sys.modules['mcp'] = None\n"
        "try:\n"
        "    import chartkit.mcp\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.startswith(
        "MissingExtraError chartkit.mcp needs the MCP SDK 2.3 or newer, and importing it failed ("
    )
    assert done.stdout.rstrip().endswith("install it with: pip install 'chartkit[mcp]'")


def test_a_dial_of_an_unknown_word_is_refused_in_one_sentence_everywhere() -> None:
    said = unknown_mode("strict", ("off", "warn", "enforce"))
    assert said == "mode 'strict' is not one of off, warn, enforce; pick one of those words"
    with pytest.raises(ChartkitError) as by_dial:
        ToolDial(mode="strict")  # type: ignore[arg-type]
    with pytest.raises(ChartkitError) as by_explorer:
        run_ledger([], "strict")  # type: ignore[arg-type]
    assert str(by_dial.value) == str(by_explorer.value) == said


def test_why_a_result_was_not_checked_reads_the_same_on_each_surface(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line says the check's reason; the explorer and the notebook's Streamlit
    say the check's unarmed sentence."""
    off = tmp_path / "r.json"
    off.write_text(
        '{"tool": "t", "rows": [{"a": 1}], "resultColumns": {"a": "number"}}', encoding="utf-8"
    )
    assert main(["check", str(off), "--mode", "off"]) == 0
    assert "t (1 row): not checked — the dial is off" in capsys.readouterr().out
    undeclared = tmp_path / "u.json"
    undeclared.write_text('{"tool": "t", "rows": [{"a": 1}]}', encoding="utf-8")
    assert main(["check", str(undeclared)]) == 0
    assert "t (1 row): not checked — the result declares no resultColumns" in (
        capsys.readouterr().out
    )
    assert not_checked_reason("warn", declared=True) == (
        "the result is not rows (a list of objects, or a dataframe, with at least one row)"
    )
    assert unarmed_sentence("warn") == (
        "Not measured: the check needs both the dial and a declaration, and rows it can read "
        "(a non-empty list of objects); both checks are on the record as not applicable."
    )


def test_the_cli_and_the_mcp_summary_say_a_view_s_details_in_the_same_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chartkit.mcp.apps import summary

    rows = [{"host": "a", "lun": ""}, {"host": "b", "lun": 3}, {"host": "c", "lun": 4}]
    declared = {"host": "string", "lun": "number"}
    shown = view(rows, declared, tool="t")
    told = summary(shown)
    assert told.startswith("chartkit drew a bar chart of t (3 rows)")
    assert "\nMost frequent offending values of 'lun': \"\" ×1\n" in told
    path = tmp_path / "t.json"
    wire = ToolResult("t", rows, result_columns=declared).to_wire()
    path.write_text(json.dumps(wire), encoding="utf-8")
    assert main(["render", str(path), "-o", str(tmp_path / "chart.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"wrote {tmp_path / 'chart.json'}: a bar chart of t. ")
    assert '\n    most frequent offending values: "" ×1\n' in out
