"""The command line against hostile input, as real processes: no forged line, no runaway read.

Generated cases: a tool name, a call id and a column name carrying each kind of line break and
control character, each followed by a fake verdict for another tool; the verdict must never
start a line of its own. And inputs that are not files, or are too large, are one line on
stderr with exit 2 — never a traceback, never a read until memory runs out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FAKE = "billing (3 rows, call-9): clean under enforce — each of the 2 declared columns holds"
BREAKS = ["\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def chartkit(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", *args],
        capture_output=True,
        text=True,
        errors="surrogateescape",
        check=False,
        timeout=300,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )
    return done.returncode, done.stdout, done.stderr


def forged(text: str) -> bool:
    """True when the fake verdict begins a line, as a CI log reader would see it."""
    return any(line.lstrip(" -0123456789.").startswith("billing") for line in text.splitlines())


@pytest.mark.parametrize("where", ["tool", "callId", "column"])
def test_no_data_string_starts_a_line_of_its_own(where: str, tmp_path: Path) -> None:
    results = []
    for n, brk in enumerate(BREAKS):
        tool, call, column = "lun_report", f"call-{n}", "lun"
        if where == "tool":
            tool = f"lun_report{brk}{FAKE}"
        elif where == "callId":
            call = f"call-{n}{brk}{FAKE}"
        else:
            column = f"lun{brk}{FAKE}"
        results.append(
            {"tool": tool, "callId": call, "rows": [{column: ""}, {column: 3}],
             "resultColumns": {column: "number"}}
        )  # fmt: skip
    run = tmp_path / "run.jsonl"
    run.write_text("\n".join(json.dumps(r) for r in results) + "\n", encoding="utf-8")
    for mode in ("warn", "enforce"):
        code, out, err = chartkit("check", str(run), "--mode", mode, cwd=tmp_path)
        assert code == (1 if mode == "enforce" else 0), err
        assert not forged(out) and not forged(err), out
        assert out.count("\n") == len(out.splitlines())  # no line break but the CLI's own


def test_a_long_tool_name_is_capped_in_the_title_line(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    result = {"tool": "t" * 100_000, "rows": [{"a": 1}], "resultColumns": {"a": "number"}}
    path.write_text(json.dumps(result), encoding="utf-8")
    code, out, err = chartkit("check", str(path), cwd=tmp_path)
    assert (code, err) == (0, "")
    assert max(len(line) for line in out.splitlines()) < 1_000


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused_in_one_line_with_exit_2(device: str, tmp_path: Path) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    code, out, err = chartkit("check", device, cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"chartkit check: {device} is a character device, not a result file; give a .json, "
        ".jsonl, .csv or .parquet file, or pipe the data into FILE - (standard input)\n"
    )


@pytest.mark.parametrize("command", [["check"], ["render", "-o", "x.png"], ["stage", "-o", "d"]])
def test_an_oversized_file_is_refused_in_one_line_with_exit_2(
    command: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "big.jsonl"
    line = json.dumps({"tool": "t", "rows": [{"a": 1}], "resultColumns": {"a": "number"}})
    path.write_text((line + "\n") * 40_000, encoding="utf-8")  # about 2.7 MB
    code, out, err = chartkit(
        command[0], str(path), *command[1:], cwd=tmp_path, env={"CHARTKIT_MAX_INPUT_MB": "1"}
    )
    assert (code, out) == (2, "")
    assert err == (
        f"chartkit {command[0]}: {path} holds more than 1 MiB, the most read into memory; open a "
        "table with --engine duckdb, split the run, or raise CHARTKIT_MAX_INPUT_MB\n"
    )


def test_oversized_standard_input_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", "check", "-"],
        input=b"[" + b"{}," * 1_000_000 + b"{}]",
        capture_output=True,
        check=False,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "CHARTKIT_MAX_INPUT_MB": "1"},
    )
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode().startswith("chartkit check: standard input holds more than 1 MiB")
    assert done.stderr.count(b"\n") == 1
