"""``chartkit mcp`` at its boundary: what it reads, how much, for whom, and what it says back.

Every case runs a real ``chartkit mcp`` over stdio with a real MCP client (the SDK's), except
the concurrency bound, which counts calls inside an in-process server. Issue 18, items 2, 9,
11, 12 and 14.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import mcp
import mcp.types as mcp_types
import pytest
from mcp.client.stdio import stdio_client

import chartkit.mcp.server as chart_server
from chartkit import ToolResult, view

Call = tuple[str, dict[str, Any]]

CEILING_AND_WARN = (
    "This judges TYPE, never MEANING — it can see that a column declared number holds a "
    "string, and it can never see that the string should have been 0, or that a 0.0 should "
    "have been an 8; a column whose every value has its declared type passes here and can "
    "still be wrong. Nothing here blocked the call, changed the result, or retried anything — "
    "the model reads the rows exactly as the tool returned them."
)


def stdio(
    calls: list[Call],
    *,
    args: list[str] = (),  # type: ignore[assignment]
    cwd: Path | None = None,
    roots: list[str] | None = None,
    errlog: io.TextIOBase | None = None,
) -> tuple[list[mcp_types.CallToolResult], list[mcp_types.Tool]]:
    """Start ``chartkit mcp ARGS`` and make ``calls`` in one session, in order."""

    async def offer(_ctx: Any) -> mcp_types.ListRootsResult:
        return mcp_types.ListRootsResult(
            roots=[mcp_types.Root(uri=uri, name="granted") for uri in roots or []]  # type: ignore[arg-type]
        )

    async def go() -> tuple[list[mcp_types.CallToolResult], list[mcp_types.Tool]]:
        params = mcp.StdioServerParameters(
            command=sys.executable, args=["-m", "chartkit", "mcp", *args], cwd=cwd
        )
        transport = stdio_client(params, errlog=errlog or sys.stderr)  # type: ignore[arg-type]
        extra: dict[str, Any] = {"list_roots_callback": offer} if roots is not None else {}
        async with mcp.Client(transport, **extra) as client:
            tools = (await client.list_tools()).tools
            return [await client.call_tool(tool, arguments) for tool, arguments in calls], tools

    return anyio.run(go)


def error(answer: mcp_types.CallToolResult, tool: str) -> str:
    assert answer.is_error is True, answer
    (block,) = answer.content
    assert isinstance(block, mcp_types.TextContent)
    assert block.text.startswith(f"Error executing tool {tool}: ")
    return block.text.removeprefix(f"Error executing tool {tool}: ")


def text(answer: mcp_types.CallToolResult) -> str:
    assert answer.is_error is False, answer
    block = answer.content[0]
    assert isinstance(block, mcp_types.TextContent)
    return block.text


GOOD: Call = ("chart_rows", {"rows": [{"k": "a", "v": 1}, {"k": "b", "v": 2}]})


# -- item 2: a CSV is read by its declaration, never by pandas' guesses ------------------------


def test_chart_file_reads_a_csv_as_read_csv_does(tmp_path: Path) -> None:
    (tmp_path / "luns.csv").write_text("lun,host\n0,vdi-a\nn/a,vdi-b\n3,vdi-a\n", encoding="utf-8")
    (tmp_path / "p95.csv").write_text("region,p95\neu,12.5\nus,9.1\n", encoding="utf-8")
    declared = {"lun": "number", "host": "string"}
    (finding, undeclared), _ = stdio(
        [
            ("chart_file", {"path": "luns.csv", "resultColumns": declared}),
            ("chart_file", {"path": "p95.csv"}),
        ],
        args=["--root", str(tmp_path)],
    )
    assert (
        "Finding: 'luns' declares column 'lun' as number, and 1 of 3 rows hold something else — "
        f'the first is "n/a" (string). {CEILING_AND_WARN}'
    ) in text(finding).splitlines()
    # Undeclared cells stay text: nothing is guessed a number.
    assert text(undeclared) == (
        "chartkit shows p95 (2 rows) as a table, not a chart — No column is declared number: "
        "region is undeclared (nominal, inferred), p95 is undeclared (nominal, inferred)."
    )


# -- item 9: unknown arguments, a bad mode, the default tool name ------------------------------


def test_unknown_arguments_and_a_bad_mode_are_plain_errors_and_the_default_name_reads_right(
    tmp_path: Path,
) -> None:
    rows = [{"a": "x"}]
    answers, _ = stdio(
        [
            ("chart_rows", {"rows": rows, "colour": "a", "result_columns": {"a": "number"}}),
            ("chart_file", {"path": "x.csv", "limit": 3}),
            ("chart_rows", {"rows": rows, "mode": "loud"}),
            ("chart_rows", {"rows": rows, "resultColumns": {"a": "number"}, "mode": "enforce"}),
            ("chart_file", {}),
        ],
        args=["--root", str(tmp_path)],
    )
    unknown_rows, unknown_file, mode, refused, missing = answers
    assert error(unknown_rows, "chart_rows") == (
        "unknown argument(s) 'colour', 'result_columns'; chart_rows accepts rows, resultColumns, "
        "x, y, color, mode, tool. Check the spelling (resultColumns is one word, camelCase) and "
        "leave out the others."
    )
    assert error(unknown_file, "chart_file") == (
        "unknown argument(s) 'limit'; chart_file accepts path, resultColumns, x, y, color, mode, "
        "index. Check the spelling (resultColumns is one word, camelCase) and leave out the "
        "others."
    )
    assert error(mode, "chart_rows") == 'mode must be one of off|warn|enforce, got a string "loud".'
    assert "errors.pydantic.dev" not in error(mode, "chart_rows")
    assert refused.is_error is True  # an enforce refusal is a failed call (issue 38, item 14)
    assert refused.content[0].text == (  # type: ignore[union-attr]
        "Result rejected: unnamed_tool returned rows that disagree with the columns it declares "
        "— 'a' is declared number and 1 of 1 rows hold string (first: \"x\"). Fix the tool so "
        "the column holds what it declares, or change the declaration. No data was returned."
    )
    assert error(missing, "chart_file") == "argument 'path' is required."


# -- item 11: a lone surrogate never stops the server ------------------------------------------


def test_a_lone_surrogate_in_a_name_is_answered_escaped_and_the_server_keeps_serving(
    tmp_path: Path,
) -> None:
    # json.dumps writes a lone surrogate as the JSON escape \ud800: valid JSON text. (A client
    # cannot send one in its arguments: the SDK's own writer refuses it on the client side.)
    named = {"tool": "luns\ud800", "rows": [{"lun\ud800": 1, "host": "a"}]}
    declared = {**named, "resultColumns": {"lun\ud800": "string"}}
    (tmp_path / "names.json").write_text(json.dumps(named), encoding="utf-8")
    (tmp_path / "declared.json").write_text(json.dumps(declared), encoding="utf-8")
    column = {"tool": "t", "rows": [{"x\udfff": "a"}], "resultColumns": {"x\udfff": "number"}}
    (tmp_path / "column.json").write_text(json.dumps(column), encoding="utf-8")
    answers, _ = stdio(
        [
            ("chart_file", {"path": "names.json"}),
            ("chart_file", {"path": "column.json"}),
            ("chart_file", {"path": "declared.json", "mode": "enforce"}),
            ("chart_file", {"path": "names.json", "x": "nope"}),
            GOOD,
        ],
        args=["--root", str(tmp_path)],
    )
    names, column, refused, bad_pick, good = answers
    assert text(names).startswith("chartkit ")
    assert "luns\\ud800" in text(names)
    assert "'t' declares column 'x\\udfff' as number" in text(column)
    assert refused.is_error is True  # an enforce refusal is a failed call (issue 38, item 14)
    assert refused.content[0].text.startswith(  # type: ignore[union-attr]
        "Result rejected: luns\\ud800 returned rows that disagree with the columns it declares "
        "— 'lun\\ud800' is declared string and 1 of 1 rows hold number (first: 1)."
    )
    assert "lun\\ud800" in error(bad_pick, "chart_file")
    assert text(good).startswith("chartkit drew a bar chart of unnamed_tool (2 rows)")


# -- item 12: what a file decodes to is capped, and so is the number of calls at work ---------


def _parquet_bomb(path: Path) -> None:
    """2,000 rows of one 1 MiB string: a few KiB on disk, about 2 GiB decoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    column = pa.array(["x" * 2**20]).dictionary_encode().take(pa.array([0] * 2000))
    pq.write_table(pa.table({"blob": column}), path, compression="zstd", use_dictionary=True)


def test_decoding_is_capped_before_it_happens(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    _parquet_bomb(tmp_path / "bomb.parquet")
    assert (tmp_path / "bomb.parquet").stat().st_size < 100_000
    pq.write_table(pa.table({"n": pa.array([7] * 1_000_001)}), tmp_path / "many.parquet")
    (tmp_path / "empties.json").write_bytes(b"[" + b"{}," * 3_000_000 + b"{}]")
    (tmp_path / "rows.json").write_bytes(b"[" + b"{}," * 1_000_000 + b"{}]")
    (tmp_path / "cells.csv").write_bytes(b"a,b,c,d\n" + b"1,2,3,4\n" * 1_500_000)
    answers, _ = stdio(
        [
            ("chart_file", {"path": "bomb.parquet"}),
            ("chart_file", {"path": "many.parquet"}),
            ("chart_file", {"path": "empties.json"}),
            ("chart_file", {"path": "rows.json"}),
            ("chart_file", {"path": "cells.csv"}),
            GOOD,
        ],
        args=["--root", str(tmp_path)],
    )
    bomb, many, empties, rows, cells, good = answers
    fix = "chart a smaller extract (fewer rows or columns), or pass the rows to chart_rows"
    assert error(bomb, "chart_file") == (
        "'bomb.parquet' would decode to about 2.0 GiB in memory, over the 512.0 MiB chart_file "
        "decodes (2.0 GiB of it in column 'blob', column 1 of 1 in its Parquet schema); "
        f"{fix}"
    )
    # over the rows, a Parquet is charted in DuckDB (refused without it: test_round3_mcp_files)
    assert "so it was checked and charted where it lies with DuckDB" in text(many)
    assert error(empties, "chart_file") == (
        "'empties.json' would decode to about 580.8 MiB in memory, over the 512.0 MiB "
        f"chart_file decodes; {fix}"
    )
    assert error(rows, "chart_file") == (
        "'rows.json' holds 1,000,001 rows, over the 1,000,000 chart_file charts; chart a smaller "
        "extract (filter or aggregate it first)"
    )
    assert error(cells, "chart_file").startswith("'cells.csv' would decode to about ")
    assert text(good).startswith("chartkit drew")


def test_a_parquet_file_within_the_caps_is_read_whole(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = pa.array(["eu", "us", "ap"] * 5000).dictionary_encode()
    pq.write_table(pa.table({"region": names, "p95": [1.5] * 15_000}), tmp_path / "p95.parquet")
    (answer,), _ = stdio(
        [("chart_file", {"path": "p95.parquet", "resultColumns": {"p95": "number"}})],
        args=["--root", str(tmp_path)],
    )
    assert "(15,000 rows)" in text(answer)


def test_no_more_than_max_concurrent_calls_chart_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lock = threading.Lock()
    active = peak = 0
    real: Callable[..., Any] = view

    def counting(result: ToolResult, **kw: Any) -> Any:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)  # long enough for the other calls to arrive; nothing is timed
        with lock:
            active -= 1
        return real(result, **kw)

    monkeypatch.setattr(chart_server, "view", counting)
    server = chart_server.build_server()

    async def go() -> list[mcp_types.CallToolResult]:
        answers: list[mcp_types.CallToolResult] = []
        async with mcp.Client(server) as client:

            async def one() -> None:
                answers.append(await client.call_tool(*GOOD))

            async with anyio.create_task_group() as group:
                for _ in range(8):
                    group.start_soon(one)
        return answers

    answers = anyio.run(go)
    assert len(answers) == 8 and all(a.is_error is False for a in answers)
    assert peak == chart_server.MAX_CONCURRENT_CALLS == 2


# -- item 14: only the granted roots, and no quoted value in the log ---------------------------


def test_only_files_under_the_roots_are_served(tmp_path: Path) -> None:
    root, outside = tmp_path / "granted", tmp_path / "elsewhere"
    (root / "sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    outside.mkdir()
    (outside / "secret.csv").write_text("password\nhunter2\n", encoding="utf-8")
    (root / "sub" / "p95.csv").write_text("region\neu\n", encoding="utf-8")
    (root / ".hidden" / "x.csv").write_text("region\neu\n", encoding="utf-8")
    (root / ".env.csv").write_text("token\nabc\n", encoding="utf-8")
    (root / "link.csv").symlink_to(outside / "secret.csv")
    (root / "inside.csv").symlink_to(root / "sub" / "p95.csv")
    (root / "env.csv").symlink_to(root / ".env.csv")
    (root / "fifo.csv").unlink(missing_ok=True)
    os.mkfifo(root / "fifo.csv")
    served = f"files under {root.resolve()} (granted with --root)"
    calls: list[Call] = [
        ("chart_file", {"path": str(outside / "secret.csv")}),
        ("chart_file", {"path": "link.csv", "resultColumns": {"nope": "number"}}),
        ("chart_file", {"path": "../elsewhere/secret.csv"}),
        ("chart_file", {"path": ".env.csv"}),
        ("chart_file", {"path": "env.csv"}),
        ("chart_file", {"path": ".hidden/x.csv"}),
        ("chart_file", {"path": "~/x.csv"}),
        ("chart_file", {"path": "fifo.csv"}),
        ("chart_file", {"path": "inside.csv"}),
        ("chart_file", {"path": "sub/p95.csv"}),
    ]
    answers, tools = stdio(calls, args=["--root", str(root)])
    absolute, link, dotdot, dotfile, to_dotfile, dotdir, tilde, fifo, inside, sub = answers
    leaves = (
        "it is not under a served root (a link is followed and must stay inside one); "
        f"chart_file serves {served}; move the file under one of them, or add its directory "
        "with another --root DIR"
    )
    assert (
        error(absolute, "chart_file") == f"cannot chart {str(outside / 'secret.csv')!r}: {leaves}"
    )
    assert error(link, "chart_file") == f"cannot chart 'link.csv': {leaves}"
    assert "password" not in error(link, "chart_file")
    assert error(dotdot, "chart_file") == f"cannot chart '../elsewhere/secret.csv': {leaves}"
    dot = "chart_file never serves a dot-file or a file in a dot-directory; copy the data to a "
    assert error(dotfile, "chart_file") == f"cannot chart '.env.csv': {dot}visible file"
    assert error(dotdir, "chart_file") == f"cannot chart '.hidden/x.csv': {dot}visible file"
    assert error(to_dotfile, "chart_file") == (
        "cannot chart 'env.csv': it leads to a dot-file or into a dot-directory, which "
        "chart_file never serves; copy the data to a visible file"
    )
    assert error(tilde, "chart_file") == (
        "cannot read '~/x.csv': No such file or directory; give the path of an existing file "
        f"(absolute, or relative to the first root); chart_file serves {served}"
    )
    assert error(fifo, "chart_file") == (
        "cannot read 'fifo.csv': it is not a regular file; give the path of a data file"
    )
    assert text(inside).startswith("chartkit shows inside (1 row)")
    assert text(sub).startswith("chartkit shows p95 (1 row)")
    by_name = {tool.name: tool for tool in tools}
    assert f"Serves only {served}; never a dot-file" in (by_name["chart_file"].description or "")
    assert by_name["chart_file"].annotations == mcp_types.ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True
    )
    assert by_name["chart_rows"].annotations is not None
    assert by_name["chart_rows"].annotations.open_world_hint is False


def test_without_root_the_client_roots_then_the_working_directory_are_served(
    tmp_path: Path,
) -> None:
    shared, here = tmp_path / "shared", tmp_path / "here"
    shared.mkdir()
    here.mkdir()
    (shared / "a.csv").write_text("region\neu\n", encoding="utf-8")
    (here / "b.csv").write_text("region\nus\n", encoding="utf-8")
    calls: list[Call] = [
        ("chart_file", {"path": str(shared / "a.csv")}),
        ("chart_file", {"path": str(here / "b.csv")}),
    ]
    (a, b), _ = stdio(calls, cwd=here, roots=[shared.resolve().as_uri()])
    assert text(a).startswith("chartkit shows a (1 row)")
    assert error(b, "chart_file").endswith(
        f"chart_file serves files under {shared.resolve()} (the client's roots); start the "
        "server with --root DIR for the directory that holds it"
    )
    (a, b), tools = stdio(calls, cwd=here)
    assert error(a, "chart_file").endswith(
        f"chart_file serves files under {here.resolve()} (the working directory); start the "
        "server with --root DIR for the directory that holds it"
    )
    assert text(b).startswith("chartkit shows b (1 row)")
    (chart_file,) = [tool for tool in tools if tool.name == "chart_file"]
    assert (
        "Serves only files under the roots the client offers, or else the working directory "
        f"({here.resolve()})"
    ) in (chart_file.description or "")
    (nothing, _), _ = stdio(calls, cwd=here, roots=[])
    assert error(nothing, "chart_file") == (
        f"cannot chart {str(shared / 'a.csv')!r}: chart_file serves no files (the client offers "
        "no roots); start the server with --root DIR for the directory that holds it, or pass "
        "the rows to chart_rows"
    )
    (at_slash,), _ = stdio(calls[:1], cwd=Path("/"))
    assert error(at_slash, "chart_file").startswith(
        f"cannot chart {str(shared / 'a.csv')!r}: chart_file serves no files (the server runs "
        "in /, the whole machine, so it serves no files by default); start the server with "
        "--root DIR"
    )


def test_the_log_counts_findings_and_never_quotes_a_value(tmp_path: Path) -> None:
    (tmp_path / "keys.csv").write_text("api_key\nsk-SECRET-1234\n", encoding="utf-8")
    log = tmp_path / "stderr.txt"
    with log.open("w", encoding="utf-8") as errlog:
        answers, _ = stdio(
            [
                ("chart_file", {"path": "keys.csv", "resultColumns": {"api_key": "number"}}),
                (
                    "chart_rows",
                    {"rows": [{"pin\nFAKE": "4711"}], "resultColumns": {"pin\nFAKE": "number"}},
                ),
            ],
            args=["--root", str(tmp_path)],
            errlog=errlog,  # type: ignore[arg-type]
        )
    assert "sk-SECRET-1234" in text(answers[0])  # the answer quotes it: the caller asked
    # The SDK's log handler wraps lines and writes where each was logged: read the words.
    logged = re.sub(r"\S+\.py:\d+", " ", log.read_text(encoding="utf-8"))
    written = " ".join(logged.split())
    assert "sk-SECRET-1234" not in written and "4711" not in written
    assert (
        "chart_file: 1 finding(s) against the declaration of 'keys' in column(s) 'api_key'"
    ) in written
    assert "in column(s) 'pin\\\\nFAKE'" in written


def test_a_server_built_with_no_roots_serves_nothing_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text("region\neu\n", encoding="utf-8")
    server = chart_server.build_server(roots=[])

    async def go() -> mcp_types.CallToolResult:
        async with mcp.Client(server) as client:
            return await client.call_tool("chart_file", {"path": str(tmp_path / "a.csv")})

    assert error(anyio.run(go), "chart_file") == (
        f"cannot chart {str(tmp_path / 'a.csv')!r}: chart_file serves no files (no root was "
        "given); start the server with --root DIR for the directory that holds it, or pass the "
        "rows to chart_rows"
    )
