"""The ``chartkit`` command: check, render and explore, in-process and through a real process."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from chartkit import DispositionLedger, ToolResult, check_result, cli, read_results
from chartkit._progress import Progress
from chartkit.cli import EXPLORE_FILE_ENV, EXPLORER_ENV, main
from chartkit.explorer import SCRIPT

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "chartkit" / "examples"
LUN = EXAMPLES / "host_group_mappings.json"
RUN = EXAMPLES / "run_incident.jsonl"

CEILING_AND_AFTER = (
    "This judges TYPE, never MEANING — it can see that a column declared number holds a string, "
    "and it can never see that the string should have been 0, or that a 0.0 should have been an "
    "8; a column whose every value has its declared type passes here and can still be wrong. "
    "Call id call-1. Nothing here blocked the call, changed the result, or retried anything — the "
    "model reads the rows exactly as the tool returned them."
)
LUN_FINDING = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of 2,056 rows "
    'hold something else — the first is "" (string). ' + CEILING_AND_AFTER
)
LUN_FINDING_OWN = (
    "'host_group_mappings' declares column 'logical_unit_number' as number, and 166 of 2,056 rows "
    'hold something else — the first is "" (string). Call id call-1.'
)
SAID_ONCE = (
    "Every finding above also says: This judges TYPE, never MEANING — it can see that a column "
    "declared number holds a string, and it can never see that the string should have been 0, or "
    "that a 0.0 should have been an 8; a column whose every value has its declared type passes "
    "here and can still be wrong. Nothing here blocked the call, changed the result, or retried "
    "anything — the model reads the rows exactly as the tool returned them."
)
GLOSS = (
    "  (seam write: checked where a tool's result is written into the run; checked: results read "
    "against their declaration; not applicable: results it could not look at — the dial off, "
    "nothing declared, or not rows)"
)
LUN_REFUSAL = (
    "Result rejected: host_group_mappings returned rows that disagree with the columns it "
    "declares — 'logical_unit_number' is declared number and 166 of 2,056 rows hold string "
    '(first: ""). Fix the tool so the column holds what it declares, or change the declaration. '
    "No data was returned."
)


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: str | bytes) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the captured stderr claim to be a terminal, and let bars show at once."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(cli, "_PROGRESS_DELAY", 0.0)


# ------------------------------------------------------------------------------------ check


def test_check_prints_the_finding_and_the_disposition_and_exits_0_under_warn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(LUN)]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "host_group_mappings (2,056 rows, call-1): 1 finding under warn",
        f"  - column-type-mismatch: {LUN_FINDING_OWN}",
        '    most frequent offending values: "" ×166',
        SAID_ONCE,
        f"disposition ({LUN}, 1 result, mode warn):",
        "  column-type-mismatch  seam write  checked 1  findings 1  not applicable 0",
        "  missing-column        seam write  checked 1  findings 0  not applicable 0",
        GLOSS,
    ]
    assert err == ""


def test_check_under_enforce_prints_the_refusal_and_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(LUN), "--mode", "enforce"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "host_group_mappings (2,056 rows, call-1): refused under enforce, 1 finding"
    assert out[1] == f"  {LUN_REFUSAL}"
    assert out[2] == "  - column-type-mismatch on 'logical_unit_number'"
    assert out[3] == '    most frequent offending values: "" ×166'  # the user's terminal
    assert out[-1] == "1 result refused under enforce."


def test_check_lists_the_most_frequent_offending_values_bounded_and_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each finding is followed by its offenders, capped, control characters as escapes."""
    rows = [{"a": v} for v in [None, "n/a", "N/A", "-", 3.0] * 10 + ["\x1b[31m" + "x" * 300]]
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"tool": "t", "rows": rows, "resultColumns": {"a": "number"}}))
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == (
        '    most frequent offending values: null ×10, "-" ×10, "N/A" ×10, "n/a" ×10, '
        '"\\u001b[31m' + "x" * 115 + '… (305 characters)" ×1'
    )
    assert "\x1b" not in "".join(out)


def test_check_of_a_clean_result_exits_0_under_enforce(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES / "capacity_view.json"), "--mode", "enforce"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "capacity_view (60 rows, call-2): clean under enforce — each of the 5 declared columns "
        "holds its declared type"
    )


def test_check_says_why_a_result_was_not_checked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["check", str(EXAMPLES / "undeclared_result.json")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "array_alerts (80 rows, call-7): not checked — the result declares no resultColumns"
    )
    assert main(["check", str(LUN), "--mode", "off"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "host_group_mappings (2,056 rows, call-1): not checked — the dial is off"
    )
    assert lines[2] == "  column-type-mismatch  seam write  checked 0  findings 0  not applicable 1"
    feed_stdin(monkeypatch, '{"tool": "t", "rows": [], "resultColumns": {"lun": "number"}}')
    assert main(["check", "-", "--mode", "enforce"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "t (0 rows): not checked — the result is not rows (a list of objects, or a dataframe, "
        "with at least one row)"
    )


def test_check_of_a_run_prints_each_result_and_the_run_ledger(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(RUN)]) == 0
    out = capsys.readouterr().out.splitlines()
    titles = [line for line in out if line[:1].isdigit()]
    assert titles == [
        "1. host_group_mappings (2,056 rows, call-1): 1 finding under warn",
        "2. capacity_view (60 rows, call-2): clean under warn — each of the 5 declared columns "
        "holds its declared type",
        "3. volume_io_stats (200 rows, call-3): 3 findings under warn",
        "4. latency_by_region (1,152 rows, call-4): clean under warn — each of the 3 declared "
        "columns holds its declared type",
        "5. host_group_mappings (40 rows, call-5): 1 finding under warn",
    ]
    assert out[-5:] == [
        SAID_ONCE,  # once for the run's five findings, each shown by its own part
        f"disposition ({RUN}, 5 results, mode warn):",
        "  column-type-mismatch  seam write  checked 5  findings 2  not applicable 0",
        "  missing-column        seam write  checked 5  findings 1  not applicable 0",
        GLOSS,
    ]
    assert sum("This judges TYPE" in line for line in out) == 1


def test_check_json_is_one_object_for_machines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(RUN), "--json", "--mode", "enforce"]) == 1
    payload = json.loads(capsys.readouterr().out)
    results = read_results(RUN)
    ledger = DispositionLedger()
    for r in results:
        ledger.add(check_result(r, mode="enforce"))
    assert payload["mode"] == "enforce"
    assert payload["exitCode"] == 1
    assert [(r["index"], r["tool"], r["status"]) for r in payload["results"]] == [
        (1, "host_group_mappings", "invalid"),
        (2, "capacity_view", "ok"),
        (3, "volume_io_stats", "invalid"),
        (4, "latency_by_region", "ok"),
        (5, "host_group_mappings", "invalid"),
    ]
    assert payload["results"][0]["refusal"] == LUN_REFUSAL
    assert payload["results"][0]["findings"][0]["violation"] == {
        "kind": "column-type-mismatch",
        "column": "logical_unit_number",
        "declared": "number",
        "nullable": False,
        "sample": "",
        "sampleType": "string",
        "affected": 166,
        "total": 2056,
        "absent": 0,
        "offendingTypes": ["string"],
        "offenders": [{"value": "", "type": "string", "count": 166}],
        "offendersUnlisted": 0,
    }
    assert [(d["check"], d["checked"], d["findings"]) for d in payload["disposition"]] == [
        (r.check, r.checked, r.findings) for r in ledger.rows()
    ]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            "{nope",
            "<stdin> is not valid JSON: Expecting property name enclosed in double quotes at "
            "line 1 column 2",
        ),
        (
            '{"tool": "t", "rows": [{"lun": 0}], "resultColumns": {"lun": "integer"}}',
            "tool 't' declares column 'lun' as \"integer\"; use one of number, string, boolean, "
            "date (or leave the column undeclared)",
        ),
        (
            '{"tool": "t", "rows": [{"lun": 0}], "resultcolumns": {"lun": "number"}}',
            "unknown key(s) 'resultcolumns' in a tool result; the wire form has tool, rows, "
            "resultColumns, callId, description (note the spelling resultColumns, callId)",
        ),
        ("", "<stdin> is empty; expected a JSON tool result or .jsonl run"),
    ],
    ids=["bad-json", "malformed-declaration", "wrong-shape", "empty"],
)
def test_unreadable_input_exits_2_with_the_message_on_stderr(
    stdin: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    feed_stdin(monkeypatch, stdin)
    assert main(["check", "-"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"chartkit check: {message}\n")


UNREADABLE_FILES = {
    "nested 100,000 deep": (
        b"[" * 100_000 + b"]" * 100_000,
        "{} nests JSON deeper than can be read; a tool result is a few levels deep (a result, "
        "its rows, their values) — check that this is the file you meant",
    ),
    "an integer of 5,000 digits": (
        b'{"tool": "t", "rows": [{"a": ' + b"9" * 5000 + b"}]}",
        "{} holds an integer literal too long to read (over 4300 digits); a tool should send "
        "such a value as a string",
    ),
    "latin-1": (
        '{"tool": "café", "rows": [{"a": 1}]}'.encode("latin-1"),
        "{} is not UTF-8 text (invalid continuation byte); save it as UTF-8 JSON",
    ),
    "utf-16": (
        '{"tool": "t", "rows": [{"a": 1}]}'.encode("utf-16"),
        "{} is not UTF-8 text (invalid start byte); save it as UTF-8 JSON",
    ),
}


@pytest.mark.parametrize("case", UNREADABLE_FILES, ids=list(UNREADABLE_FILES))
@pytest.mark.parametrize("command", ["check", "render", "explore"])
def test_every_unreadable_file_is_one_line_on_stderr_and_exit_2(
    case: str,
    command: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data, message = UNREADABLE_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    monkeypatch.setattr(cli, "_launch", lambda *a: pytest.fail("explore started the app"))
    argv = [command, str(path)] + (["-o", str(tmp_path / "out.svg")] if command == "render" else [])
    assert main(argv) == 2
    assert capsys.readouterr() == ("", f"chartkit {command}: {message.format(path)}\n")
    assert not (tmp_path / "out.svg").exists()


HOSTILE = {
    "tool": "t\x1b[31mRED\x1b]0;title\x07\ud800",
    "callId": "c\x9b2J \\x41",  # a C1 CSI, and a backslash before x that must stay one
    "rows": [{"a\x1b[2J": "\u202e\ud800", "n": 1}, {"a\x1b[2J": 2, "n": 2}],
    "resultColumns": {"a\x1b[2J": "number", "n": "number"},
}


@pytest.mark.parametrize("argv", [["check"], ["check", "--mode", "enforce"], ["render"]])
def test_no_control_sequence_or_surrogate_from_data_reaches_the_terminal(
    argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(HOSTILE), encoding="utf-8")
    extra = ["-o", str(tmp_path / "out.svg")] if argv == ["render"] else []
    assert main([argv[0], str(path), *argv[1:], *extra]) in (0, 1)
    out, err = capsys.readouterr()
    for text in (out, err):
        text.encode("utf-8")  # no lone surrogate: it would not even encode
        assert not any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F for c in text)
        assert "\u202e" not in text
    assert "t\\x1b[31mRED\\x1b]0;title\\x07\\ud800" in out + err  # shown, not dropped


def test_check_json_escapes_control_characters_and_stays_valid_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(HOSTILE), encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert not any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F for c in out)
    [result] = json.loads(out)["results"]
    wire = ToolResult.from_wire(HOSTILE)  # a callId is escaped at the door (issue 18, item 16)
    assert (result["tool"], result["callId"]) == (HOSTILE["tool"], wire.call_id)


def test_a_run_with_one_malformed_entry_exits_2_naming_the_entry_never_unchecked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run.json"
    good = {"tool": "u", "rows": [{"lun": ""}], "resultColumns": {"lun": "number"}}
    run.write_text(json.dumps([good, {"tool": "u", "Rows": []}]), encoding="utf-8")
    assert main(["check", str(run), "--mode", "enforce"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"chartkit check: result 2 of {run}: a tool result needs the key(s) 'rows'; it has "
        "'tool', 'Rows'. A JSON list whose items carry the key tool, rows, resultColumns or "
        "callId is read as a run of tool results; if these are rows, wrap them in one result: "
        '{"tool": "<name>", "rows": [...]}\n'
    )


def test_a_jsonl_run_with_one_malformed_entry_exits_2_naming_the_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = tmp_path / "run.jsonl"
    write_run(run, 3)
    lines = run.read_text(encoding="utf-8").splitlines()
    lines[1] = json.dumps({"tool": "lun", "Rows": [{"lun": 2}]})
    run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check", str(run), "--mode", "enforce"]) == 2
    assert capsys.readouterr() == (
        "",
        f"chartkit check: {run} line 2: a tool result needs the key(s) 'rows'; it has 'tool', "
        "'Rows'\n",
    )


def test_a_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["check", str(missing), "--json"]) == 2
    assert capsys.readouterr().err == f"chartkit check: {missing}: no such file\n"


def test_a_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(LUN), "--mode", "strict"]) == 2
    assert "argument --mode: invalid choice: 'strict'" in capsys.readouterr().err


# --------------------------------------------------------------------------------- progress


def test_a_run_checked_on_a_terminal_shows_a_bar_on_stderr_and_wipes_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    on_a_terminal(monkeypatch)
    assert main(["check", str(RUN)]) == 0
    out, err = capsys.readouterr()
    final = f"checking {RUN} [{'#' * 30}] 5/5"
    assert final in err
    assert err.endswith("\r" + " " * len(final) + "\r")
    assert "\r" not in out  # the bar never lands in what a pipe would read


def test_no_bar_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(RUN)]) == 0
    assert capsys.readouterr().err == ""


def write_run(path: Path, count: int, broken_line: int | None = None) -> None:
    lines = []
    for n in range(1, count + 1):
        wire = {"tool": "lun", "callId": f"call-{n}", "resultColumns": {"lun": "number"}}
        wire["rows"] = [{"lun": "" if n % 7 == 0 else n}]
        lines.append("{not json" if n == broken_line else json.dumps(wire))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_large_run_is_read_under_a_bar_with_the_same_results(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = tmp_path / "large.jsonl"
    write_run(run, 401)  # slices of 200, and a last line folded into the slice before it
    on_a_terminal(monkeypatch)
    assert main(["check", str(run), "--json"]) == 0
    out, err = capsys.readouterr()
    assert f"reading {run} [{'#' * 30}] 401/401" in err
    payload = json.loads(out)
    assert [r["callId"] for r in payload["results"]] == [f"call-{n}" for n in range(1, 402)]
    assert payload["disposition"][0]["findings"] == 401 // 7


def test_a_broken_line_in_a_large_run_gives_the_message_the_whole_file_gives(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = tmp_path / "large.jsonl"
    write_run(run, 450, broken_line=333)
    on_a_terminal(monkeypatch)
    assert main(["check", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"chartkit check: {run} line 333 is not valid JSON (Expecting property name enclosed in "
        "double quotes at column 2); a .jsonl run holds one JSON tool result per line\n"
    )


def test_a_malformed_entry_in_a_large_run_gives_the_line_the_whole_file_gives(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    run = tmp_path / "large.jsonl"
    write_run(run, 450)
    lines = run.read_text(encoding="utf-8").splitlines()
    lines[332] = json.dumps({"tool": "lun", "Rows": [{"lun": 333}]})
    run.write_text("\n".join(lines) + "\n", encoding="utf-8")
    on_a_terminal(monkeypatch)
    assert main(["check", str(run)]) == 2
    assert capsys.readouterr().err.endswith(
        f"chartkit check: {run} line 333: a tool result needs the key(s) 'rows'; it has "
        "'tool', 'Rows'\n"
    )


def test_the_bar_draws_frames_and_its_last_step_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    bar = Progress(4, label="checking", stream=screen, width=8, interval=0.0)
    for _ in range(4):
        bar.advance()
    bar.close()
    assert screen.getvalue() == (
        "\rchecking [##......] 1/4"
        "\rchecking [####....] 2/4"
        "\rchecking [######..] 3/4"
        "\rchecking [########] 4/4"
        "\r" + " " * len("checking [########] 4/4") + "\r"
    )
    waiting = Terminal()
    quiet = Progress(4, label="checking", stream=waiting, delay=3600)
    quiet.advance(4)
    quiet.close()
    assert waiting.getvalue() == ""  # a run that ends before the delay shows no bar


# ----------------------------------------------------------------------------------- render


def test_render_writes_a_png_and_says_what_it_drew(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "latency.png"
    assert main(["render", str(EXAMPLES / "latency_by_region.json"), "-o", str(out_file)]) == 0
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().out.splitlines() == [
        f"wrote {out_file}: a line chart of latency_by_region. timestamp is declared date and "
        "p95_latency_ms is declared number: a line over time; region (declared string, 4 values) "
        "colors one line per series.",
        "  x: timestamp: declared date → temporal",
        "  y: p95_latency_ms: declared number → quantitative",
        "  color: region: declared string → nominal",
    ]


@pytest.mark.parametrize("suffix", [".svg", ".html", ".json"])
def test_render_writes_each_format_by_suffix(tmp_path: Path, suffix: str) -> None:
    out_file = tmp_path / f"capacity{suffix}"
    assert main(["render", str(EXAMPLES / "capacity_view.json"), "-o", str(out_file)]) == 0
    text = out_file.read_text(encoding="utf-8")
    if suffix == ".svg":
        assert text.startswith("<svg")
    elif suffix == ".html":
        assert "<html" in text.lower()
        assert "cdn.jsdelivr" not in text  # self-contained, works offline
    else:
        spec = json.loads(text)
        assert spec["mark"]["type"] == "point"  # two measures, no date: a scatter (issue 20)
        assert spec["encoding"]["y"]["type"] == "quantitative"


def test_render_honours_the_axis_picks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "c.json"
    args = ["render", str(EXAMPLES / "capacity_view.json"), "-o", str(out_file)]
    assert main([*args, "--x", "pool", "--y", "used_pct"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  x: pool: declared string → nominal",
        "  y: mean of used_pct: declared number → quantitative",
    ]


def test_render_of_a_table_writes_the_table_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "inventory.png"
    assert main(["render", str(EXAMPLES / "host_inventory.json"), "-o", str(out_file)]) == 1
    assert out_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"wrote {out_file}: a table of host_inventory, not a chart. No column is declared "
        "number: hostname is string, os is string, datacenter is string, multipath_enabled is "
        "boolean, in_maintenance is boolean.\n"
    )


def test_render_of_a_table_as_a_spec_writes_nothing_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "inventory.json"
    assert main(["render", str(EXAMPLES / "host_inventory.json"), "-o", str(out_file)]) == 1
    assert not out_file.exists()
    assert capsys.readouterr().err == (
        f"chartkit render: no chart for host_inventory, so {out_file} was not written: the view "
        "is a table, not a chart. No column is declared number: hostname is string, os is "
        "string, datacenter is string, multipath_enabled is boolean, in_maintenance is boolean.\n"
    )


def test_render_of_refused_rows_writes_nothing_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "lun.svg"
    assert main(["render", str(LUN), "-o", str(out_file), "--mode", "enforce"]) == 1
    assert not out_file.exists()
    assert capsys.readouterr().err == (
        f"chartkit render: no chart for host_group_mappings, so {out_file} was not written: the "
        f"view is refused under enforce. {LUN_REFUSAL}\n"
    )


def test_render_of_quoted_numbers_names_each_refused_axis(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "io.png"
    assert main(["render", str(EXAMPLES / "volume_io_stats.json"), "-o", str(out_file)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert (
        "  refused y axis: read_iops is declared number, but all 200 rows hold string "
        in (err[1][:79])
    )


def test_render_picks_one_result_of_a_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.json"
    base = ["render", str(RUN), "-o", str(out_file)]
    assert main(base) == 2
    assert capsys.readouterr().err == (
        f"chartkit render: {RUN} holds 5 results; pick one with --index N (or --tool NAME): "
        "1. host_group_mappings (2,056 rows, call-1); 2. capacity_view (60 rows, call-2); "
        "3. volume_io_stats (200 rows, call-3); 4. latency_by_region (1,152 rows, call-4); "
        "5. host_group_mappings (40 rows, call-5)\n"
    )
    assert main([*base, "--tool", "host_group_mappings"]) == 2
    assert capsys.readouterr().err == (
        f"chartkit render: {RUN} holds 2 results from tool 'host_group_mappings'; pick one with "
        "--index N: 1. host_group_mappings (2,056 rows, call-1); 5. host_group_mappings "
        "(40 rows, call-5)\n"
    )
    assert main([*base, "--tool", "capacity_view"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out_file}: a point chart of capacity_view.")
    assert main([*base, "--index", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"wrote {out_file}: a bar chart of host_group_mappings.")
    # one row per initiator and volume: a breakdown (issue 20), its totals per volume (the
    # factor of most values along x) stacked by initiator
    assert lines[1] == "  x: volume_name: declared string → nominal"
    assert lines[3] == "  color: initiator_wwn: declared string → nominal"
    assert lines[4] == (
        "  refused y axis: logical_unit_number is declared number, but no row has it "
        "(missing-column): the query never selected it."
    )
    assert main([*base, "--index", "6"]) == 2
    assert capsys.readouterr().err == (
        f"chartkit render: --index 6 is out of range: {RUN} holds 5 results, numbered 1 to 5\n"
    )
    assert main([*base, "--tool", "nope"]) == 2
    assert capsys.readouterr().err == (
        f"chartkit render: {RUN} holds no result from tool 'nope'; it holds results from "
        "'host_group_mappings', 'capacity_view', 'volume_io_stats', 'latency_by_region'\n"
    )


def test_render_refuses_an_unknown_suffix_or_column(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    capacity = str(EXAMPLES / "capacity_view.json")
    assert main(["render", capacity, "-o", str(tmp_path / "c.pdf")]) == 2
    assert capsys.readouterr().err == (
        "chartkit render: cannot write 'c.pdf': the suffix '.pdf' is not one of .png, .svg, "
        ".html, .json\n"
    )
    assert main(["render", capacity, "-o", str(tmp_path / "c.png"), "--x", "size"]) == 2
    assert capsys.readouterr().err == (
        "chartkit render: x='size' names no column of this result; its columns are 'disk_id', "
        "'pool', 'size_gb', 'used_pct', 'thin'\n"
    )


# ---------------------------------------------------------------------------------- explore


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """Stand in for Streamlit: record what would be run, with which environment."""
    calls: list[tuple[list[str], dict[str, str]]] = []

    def launch(command: list[str], env: dict[str, str], cwd: Path | None) -> int:
        seen = {**env, "_cwd": str(cwd)}
        staged = env.get(EXPLORE_FILE_ENV)
        if staged:  # the file must be there while the app runs
            seen["_seen"] = Path(staged).read_text(encoding="utf-8")
        calls.append((list(command), seen))
        return 0

    monkeypatch.delenv(EXPLORER_ENV, raising=False)
    monkeypatch.delenv(EXPLORE_FILE_ENV, raising=False)
    monkeypatch.setattr(cli, "_launch", launch)
    return calls


def test_explore_runs_the_explorer_with_the_file_in_the_environment(
    launched: list[tuple[list[str], dict[str, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES)
    assert main(["explore", "run_incident.jsonl", "--port", "8599", "--headless"]) == 0
    ((command, env),) = launched
    assert command == [
        sys.executable, "-m", "streamlit", "run", str(SCRIPT),
        "--server.maxUploadSize", "200",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",
        "--server.address", "127.0.0.1",
        "--server.port", "8599", "--server.headless", "true",
    ]  # fmt: skip
    assert SCRIPT == ROOT / "chartkit" / "explorer" / "streamlit_app.py"  # in the package
    assert env[EXPLORE_FILE_ENV] == str(RUN)
    assert env["_cwd"] == "None"  # the settings travel as flags, so any directory serves


def test_explore_without_a_file_sets_no_file(
    launched: list[tuple[list[str], dict[str, str]]],
) -> None:
    assert main(["explore"]) == 0
    ((command, env),) = launched
    assert command[4] == str(SCRIPT)
    assert EXPLORE_FILE_ENV not in env


def test_explore_stages_stdin_in_a_file_for_the_app_and_removes_it(
    launched: list[tuple[list[str], dict[str, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed_stdin(monkeypatch, LUN.read_bytes())
    assert main(["explore", "-"]) == 0
    ((_, env),) = launched
    staged = Path(env[EXPLORE_FILE_ENV])
    assert [r.to_wire() for r in read_results(env["_seen"])] == [
        r.to_wire() for r in read_results(LUN)
    ]
    assert not staged.exists()


def test_explore_of_an_unreadable_file_exits_2_without_starting_the_app(
    launched: list[tuple[list[str], dict[str, str]]],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert main(["explore", str(bad)]) == 2
    assert launched == []
    assert capsys.readouterr().err == (
        f"chartkit explore: {bad} is not valid JSON: Expecting property name enclosed in double "
        "quotes at line 1 column 2\n"
    )


def test_explore_without_streamlit_names_the_extra(
    launched: list[tuple[list[str], dict[str, str]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = cli.importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == "streamlit" else real(name, *args)

    monkeypatch.setattr(cli.importlib.util, "find_spec", find_spec)
    assert main(["explore"]) == 2
    assert launched == []
    assert capsys.readouterr().err == (
        "chartkit explore: the explorer needs Streamlit, which is not installed; install it "
        "with: pip install 'chartkit[app]'\n"
    )


def test_explore_runs_the_packaged_explorer_or_the_one_named_in_the_environment(
    launched: list[tuple[list[str], dict[str, str]]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv(EXPLORER_ENV, str(tmp_path / "mine.py"))
    assert main(["explore"]) == 2
    assert capsys.readouterr().err == (
        f"chartkit explore: {EXPLORER_ENV} is set to {str(tmp_path / 'mine.py')!r}, which is not "
        "a file; point it at a Streamlit script such as app/explorer.py in a chartkit checkout, "
        "or unset it to run the explorer installed with the package\n"
    )
    (tmp_path / "mine.py").write_text("", encoding="utf-8")
    assert main(["explore"]) == 0
    assert launched[0][0][4] == str(tmp_path / "mine.py")
    monkeypatch.delenv(EXPLORER_ENV)
    assert main(["explore"]) == 0
    assert launched[1][0][4] == str(SCRIPT)


# ------------------------------------------------------------------------ a real process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
            return bool(r.read() == b"ok")
    except OSError:
        return False


def test_chartkit_explore_really_serves_the_explorer_and_stops_it_on_sigterm(
    tmp_path: Path,
) -> None:
    port = free_port()
    log = tmp_path / "streamlit.log"
    command = [sys.executable, "-m", "chartkit", "explore", str(RUN), "--headless"]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90  # a generous wait for a slow machine, not a measure
        while not healthy(port) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")
        assert healthy(port)
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert not healthy(port)  # Streamlit went down with chartkit, not left behind


def test_python_dash_m_chartkit_checks_stdin_and_exits_1_under_enforce() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", "check", "-", "--mode", "enforce"],
        input=LUN.read_bytes(),
        capture_output=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 1
    out = done.stdout.decode("utf-8")
    assert f"  {LUN_REFUSAL}\n" in out
    assert out.endswith("1 result refused under enforce.\n")
    assert done.stderr == b""  # no progress bar off a terminal, no logging echo of findings


def test_the_console_script_renders_and_reports_unreadable_input_without_a_traceback(
    tmp_path: Path,
) -> None:
    script = Path(sys.executable).parent / "chartkit"
    assert script.exists(), "the console script is installed with the package (pip install -e .)"
    out_file = tmp_path / "latency.svg"
    done = subprocess.run(
        [str(script), "render", str(EXAMPLES / "latency_by_region.json"), "-o", str(out_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert out_file.read_text(encoding="utf-8").startswith("<svg")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"tool": "t", "rows": []}\n{"tool": \n', encoding="utf-8")
    done = subprocess.run(
        [str(script), "check", str(bad)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"chartkit check: {bad} line 2 is not valid JSON (Expecting value at column 10); a "
        ".jsonl run holds one JSON tool result per line\n"
    )
