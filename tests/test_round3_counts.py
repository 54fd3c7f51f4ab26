"""One number format in what chartkit says (issue 38, item 19): every count is written with
thousands separators, in the finding, the refusal, the note and the command line alike.

The specification's sentences keep their words; a count in them is formatted as the
specification writes its own ("on 2,094 mappings"), so its examples (counts under 1,000) read
word for word as before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chartkit import ToolResult, check_result, view

ROWS, BAD = 2_056, 166
SAID = "166 of 2,056 rows"
DECLARED = {"region": "string", "p95_ms": "number"}


def p95_rows() -> list[dict[str, object]]:
    """2,056 rows, the first 166 of which hold "n/a" in the declared number column."""
    return [
        {"region": f"r{i % 5}", "p95_ms": "n/a" if i < BAD else float(i)} for i in range(ROWS)
    ]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chartkit", *args], capture_output=True, text=True, timeout=300
    )


def test_a_count_over_999_is_written_alike_in_the_finding_the_refusal_and_the_note() -> None:
    result = ToolResult("p95", p95_rows(), result_columns=DECLARED, call_id="call-1")
    (finding,) = check_result(result, mode="warn").findings
    assert finding.message.startswith(
        f"'p95' declares column 'p95_ms' as number, and {SAID} hold something else — the first "
        'is "n/a" (string).'
    )
    refusal = check_result(result, mode="enforce").refusal
    assert refusal == (
        "Result rejected: p95 returned rows that disagree with the columns it declares — "
        f"'p95_ms' is declared number and {SAID} hold string (first: \"n/a\"). Fix the tool so "
        "the column holds what it declares, or change the declaration. No data was returned."
    )
    notes = view(result).notes
    assert any(note.startswith(f"{SAID} are left out of the y axis") for note in notes), notes
    for text in (finding.message, refusal, *notes):
        assert "2056" not in text


def test_the_command_line_writes_the_count_as_the_finding_and_the_note_do(
    tmp_path: Path,
) -> None:
    path = tmp_path / "p95.json"
    path.write_text(
        json.dumps({"tool": "p95", "resultColumns": DECLARED, "rows": p95_rows()}),
        encoding="utf-8",
    )
    checked = run_cli("check", str(path))
    assert (checked.returncode, checked.stderr) == (0, "")
    lines = checked.stdout.splitlines()
    assert lines[0] == "p95 (2,056 rows): 1 finding under warn"
    assert lines[1].startswith(
        f"  - column-type-mismatch: 'p95' declares column 'p95_ms' as number, and {SAID} hold "
        "something else"
    )
    refused = run_cli("check", str(path), "--mode", "enforce")
    assert refused.returncode == 1
    assert f"'p95_ms' is declared number and {SAID} hold string" in refused.stdout
    chart = tmp_path / "p95.json.vl.json"
    rendered = run_cli("render", str(path), "-o", str(chart))
    assert (rendered.returncode, rendered.stderr) == (0, "")
    assert f"  note: {SAID} are left out of the y axis" in rendered.stdout
    assert f"  finding: 'p95' declares column 'p95_ms' as number, and {SAID}" in rendered.stdout
    for said in (checked.stdout, refused.stdout, rendered.stdout):
        assert "2056" not in said


def test_a_run_of_over_999_results_counts_them_with_a_separator(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    line = json.dumps({"tool": "t", "resultColumns": {"n": "number"}, "rows": [{"n": 1}]})
    path.write_text("\n".join([line] * 1_001) + "\n", encoding="utf-8")
    checked = run_cli("check", str(path), "--quiet")
    assert checked.returncode == 0
    assert checked.stdout.splitlines()[-1] == "1,001. t (1 row): clean under warn"
    full = run_cli("check", str(path))
    assert f"disposition ({path}, 1,001 results, mode warn):" in full.stdout
    assert "  column-type-mismatch  seam write  checked 1,001  findings 0" in full.stdout
    picked = run_cli("render", str(path), "-o", str(tmp_path / "c.json"), "--index", "2000")
    assert picked.returncode == 2
    assert "holds 1,001 results, numbered 1 to 1,001" in picked.stderr


def test_the_planners_counts_of_values_carry_separators() -> None:
    """A count of a column's values in a chart's words is written as every count is."""
    from types import SimpleNamespace

    from chartkit.plan.sentences import facets_for_colors_note

    wide = SimpleNamespace(name="host", distinct=1_200)
    assert "host has 1,200 values, more than the 10 colors" in facets_for_colors_note(
        wide  # type: ignore[arg-type]
    ).sentence
