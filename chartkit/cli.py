"""The ``chartkit`` command: ``check``, ``render`` and ``explore`` a tool result file.

FILE is a ``.json`` tool result (or a JSON list of them) or a ``.jsonl`` run, one result a
line, as ``chartkit.read_results`` reads them; ``-`` reads standard input.

A large table goes to the engine: without ``--engine``, a ``.parquet`` FILE of more than
``ENGINE_ROWS`` rows (1,000,000; ``CHARTKIT_ENGINE_ROWS`` sets it), or a ``.parquet`` or
``.csv`` of more than ``ENGINE_MB`` megabytes (100), is checked and charted in DuckDB when it
is installed, as ``--engine duckdb`` does, and one line on stderr says so; ``--engine none``
reads it into memory. A ``.parquet`` FILE without ``--columns`` is declared by its own schema.

``check`` and ``render`` say the ceiling and the disposition's legend once per run; with
``--quiet`` they say one line per result.

Exit codes: 0 — done (clean, or findings under ``warn``); 1 — findings under ``enforce``, or
``render`` found no chart to draw; 2 — unreadable input or a usage error (one line on stderr,
without a traceback).

Data never reaches the terminal as control sequences: everything written to stdout passes
through ``visible_controls`` (ESC, the other C0 and C1 controls, bidi overrides and lone
surrogates are written as escapes such as ``\\x1b``), and ``--json`` writes them as JSON
``\\u`` escapes.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import io
import json
import logging
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from chartkit._literal import json_literal, terminal_literal, visible_controls
from chartkit._safe import NAME_MAX_CHARS, cap_text
from chartkit.check.integrity import DispositionLedger, check_result
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome
from chartkit.errors import ChartkitError, MissingExtraError
from chartkit.read.rowset import read_rowset
from chartkit.read.schemas import (
    COLUMNS_OVER_FILE_SCHEMA,
    declared_by_text,
    looks_like_json_schema,
    result_columns_from,
)
from chartkit.read.table_files import (
    ENGINE_MB,
    ENGINE_ROWS,
    ENGINE_ROWS_ENV,
    large_table,
    open_declared,
    over_own_declaration,
    with_own_declaration,
)
from chartkit.result import ToolResult, read_results
from chartkit.words import chart_of, counted, needs_extra, offending_values, refused_axis

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "EXPLORER_ENV",
    "EXPLORE_FILE_ENV",
    "main",
]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2

EXPLORE_FILE_ENV = "CHARTKIT_EXPLORE_FILE"
"""The environment variable ``chartkit explore FILE`` hands the explorer the file in."""
EXPLORER_ENV = "CHARTKIT_EXPLORER"
"""Overrides where ``chartkit explore`` finds the explorer's Streamlit script (by default the
packaged ``chartkit/explorer/streamlit_app.py``)."""

RENDER_FORMATS = (".png", ".svg", ".html", ".json")

_PROGRESS_DELAY = 0.3  # seconds before a progress bar shows: a quick run shows none
_READ_SLICE_LINES = 200  # a large .jsonl is read this many lines at a time, for the bar


class _Exit(Exception):
    """Leave with ``code`` after writing ``message`` to stderr."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; answers the exit code (the console script exits with it)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error argparse already explained
        return exc.code if isinstance(exc.code, int) else EXIT_UNREADABLE
    _quiet_library_logging()
    try:
        with contextlib.redirect_stdout(_LiteralOut(sys.stdout)):
            code: int = args.run(args)
    except _Exit as exc:
        print(f"chartkit {args.command}: {terminal_literal(exc)}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `chartkit check run.jsonl | head`: the reader left, so be quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FINDINGS
    return code


class _LiteralOut(io.TextIOBase):
    """Standard output that writes control characters from data as visible escapes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        # print() writes its text and its end apart: a newline inside the text came from
        # data (a tool name, a column name), and would forge a line of its own
        newlines = text != "\n"
        self._stream.write(visible_controls(text, newlines=newlines))
        return len(text)

    def write_lines(self, text: str) -> None:
        """Write ``text`` whose own newlines are meant (JSON, already escaped)."""
        self._stream.write(visible_controls(text) + "\n")

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return _on_terminal(self._stream)

    def fileno(self) -> int:
        return self._stream.fileno()


def _print_lines(text: str) -> None:
    """Print ``text`` whose newlines are its own (the ``--json`` object)."""
    out = sys.stdout
    if isinstance(out, _LiteralOut):
        out.write_lines(text)
    else:
        print(text)


def _data(text: object, limit: int = NAME_MAX_CHARS) -> str:
    """A string from data (a tool name, a call id) as one capped line of visible text."""
    return visible_controls(cap_text(str(text), limit), newlines=True)


def _json_text(payload: Any) -> str:
    """JSON for machines, with every control character as a ``\\u`` escape (still valid JSON)."""
    return json_literal(json.dumps(payload, ensure_ascii=False, indent=2))


def _quiet_library_logging() -> None:
    """Findings are printed here; without a handler, logging would print each one again."""
    logger = logging.getLogger("chartkit")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def _version(version: str) -> str:
    """``chartkit --version``: the version, and whether the compiled reader is in use."""
    from chartkit.read.speedups import speedups_enabled

    if speedups_enabled():
        reader = "compiled reader in use (chartkit._speedups)"
    elif os.environ.get("CHARTKIT_PURE_PYTHON") == "1":
        reader = "compiled reader off: CHARTKIT_PURE_PYTHON=1 (pure Python, same answers)"
    else:
        reader = (
            "compiled reader not built (no C compiler at install): rows are read in pure "
            "Python, with the same answers, about 3x slower; reinstall with a C compiler to "
            "build it"
        )
    return f"chartkit {version}; {reader}"


class _Version(argparse.Action):
    """``--version`` printed as one line, never wrapped to the terminal's width."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kw: object) -> None:
        print(_version(str(self.default)))
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    from chartkit._version import __version__

    parser = argparse.ArgumentParser(
        prog="chartkit",
        description="Check tool results against their declared resultColumns, and chart them "
        "from the declared types.",
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, default=__version__,
        help="print the version, and whether the compiled reader is in use, and exit",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    file_help = "a .json tool result or a .jsonl run (one result a line); - reads stdin"

    check = commands.add_parser(
        "check",
        help="check results against their declarations; print findings and the disposition",
        description="Check each result against its resultColumns under the dial, print the "
        "findings and the disposition. Exits 0 when done (clean, or findings under warn), "
        "1 with findings under enforce, 2 when the input cannot be read.",
    )
    check.add_argument("file", metavar="FILE", help=file_help)
    check.add_argument(
        "--mode", choices=CHECK_MODES, default="warn", help="the dial (default: warn)"
    )
    check.add_argument("--json", action="store_true", help="print one JSON object, for machines")
    check.set_defaults(run=_check)

    render = commands.add_parser(
        "render",
        help="chart a result to .png, .svg, .html or .json (the Vega-Lite spec)",
        description="Chart one result from its declared types and save it. When chartkit "
        "would show a table, the table is written instead (.png, .svg or .html, under its "
        "reason) and the exit code is 1; when it refuses the rows, nothing is written and the "
        "exit code is 1.",
    )
    render.add_argument("file", metavar="FILE", help=file_help)
    render.add_argument(
        "-o", "--output", metavar="OUT",
        help="chart.png, .svg, .html or .json (required unless --alternatives)",
    )  # fmt: skip
    render.add_argument("--x", metavar="COL", help="the column on the x axis")
    render.add_argument(
        "--y", metavar="COL", action="append",
        help="the column on the y axis; give it again to draw several measures",
    )  # fmt: skip
    render.add_argument("--color", metavar="COL", help="the column that colors the marks")
    _chart_options(render)
    render.add_argument(
        "--mode", choices=CHECK_MODES, default="warn", help="the dial (default: warn)"
    )
    render.add_argument("--tool", metavar="NAME", help="pick the result of this tool")
    render.add_argument(
        "--index", type=int, metavar="N", help="pick the Nth result, counting from 1"
    )
    render.add_argument(
        "--max-points", type=int, default=5000, metavar="N", help="points drawn at most"
    )
    render.set_defaults(run=_render)

    explore = commands.add_parser(
        "explore",
        help="open the Streamlit explorer (on FILE if given)",
        description=f"Run the explorer app with Streamlit. FILE reaches it in the "
        f"{EXPLORE_FILE_ENV} environment variable.",
    )
    explore.add_argument("file", metavar="FILE", nargs="?", help=file_help)
    explore.add_argument("--port", type=int, help="the port Streamlit serves on")
    explore.add_argument(
        "--address",
        default="127.0.0.1",
        help="the address Streamlit listens on (default: 127.0.0.1, this machine only)",
    )
    explore.add_argument("--headless", action="store_true", help="do not open a browser window")
    explore.add_argument(
        "--mcp-server",
        action="append",
        default=[],
        metavar="COMMAND",
        help="offer this MCP server command line (stdio) as the page's MCP source; repeatable. "
        "Without it the page offers none and starts no command; refused unless --address is "
        "loopback",
    )
    explore.set_defaults(run=_explore)

    serve = commands.add_parser(
        "mcp",
        help="serve chart_rows and chart_file as an MCP server over stdio (chartkit[mcp])",
        description="Run chartkit's chart server over stdio, for an agent host: "
        '{"command": "chartkit", "args": ["mcp"]}. Hosts that render MCP Apps draw each '
        "chart inline; others get the text answer. chart_file serves only files under the "
        "--root directories; without one, under the roots the client offers, or else the "
        "working directory.",
    )
    serve.add_argument(
        "--root",
        action="append",
        metavar="DIR",
        help="a directory whose files chart_file may read (repeatable; default: the roots the "
        "client offers, or else the working directory)",
    )
    serve.set_defaults(run=_mcp)

    examples = commands.add_parser(
        "examples",
        help="list the bundled example results, or copy them into a folder",
        description="List the example results shipped with chartkit (name and installed path), "
        "or copy them into DIR with --copy, to try check, render and explore on them.",
    )
    examples.add_argument("--copy", metavar="DIR", help="copy every example file into DIR")
    examples.set_defaults(run=_examples)

    stage = commands.add_parser(
        "stage",
        help="stage results as typed Parquet (+ a JSON sidecar) for a code runner's sandbox",
        description="Check each result under the dial and write NAME.parquet, its Arrow schema "
        "from the declaration, and NAME.json (declaration, findings, disposition) into DIR. "
        "Under enforce a refused result writes only NAME.json, with the refusal. Exits 0 when "
        "done, 1 when enforce refused a result, 2 when the input cannot be read.",
    )
    stage.add_argument("file", metavar="FILE", help=file_help)
    stage.add_argument("-o", "--output", required=True, metavar="DIR", help="the directory")
    stage.add_argument(
        "--mode", choices=CHECK_MODES, default="warn", help="the dial (default: warn)"
    )
    stage.set_defaults(run=_stage)
    for table_input in (check, render, stage):
        table_input.add_argument(
            "--columns",
            metavar="DECL",
            help="the declaration a .csv FILE is read by (a .parquet FILE is declared by its "
            "own schema unless this is given): a JSON object "
            '({"lun": "number"}) or a .json file holding one — or a JSON Schema of the rows '
            "(an MCP outputSchema), read by chartkit.result_columns_from",
        )
    for said in (check, render):
        said.add_argument(
            "-q", "--quiet", action="store_true",
            help="one line per result: no offending values, notes, ceiling or disposition "
            "(--json, or a run without it, has every word)",
        )  # fmt: skip
    for in_place in (check, render):
        in_place.add_argument(
            "--engine",
            choices=("duckdb", "none"),
            help="duckdb: read a .parquet, .csv or .jsonl FILE as one table where it lies, with "
            "embedded DuckDB: the check and the chart run as queries and the rows are never "
            "loaded into Python; --columns is the declaration (chartkit[duckdb]). Without this "
            f"option a .parquet of more than {ENGINE_ROWS:,} rows, or a .parquet or .csv of "
            f"more than {ENGINE_MB} MB, goes to DuckDB when it is installed ({ENGINE_ROWS_ENV} "
            "sets the rows); none: read FILE into memory whatever its size",
        )
    return parser


def _results(args: argparse.Namespace) -> tuple[str, list[ToolResult]]:
    """FILE's results: in DuckDB with ``--engine duckdb`` or when FILE is a large table
    (``_large_table``, said in one line on stderr), else in memory."""
    if args.engine is None:
        why = _large_table(args.file)
        if why is not None:
            print(
                terminal_literal(
                    f"chartkit {args.command}: {why}, so it is read where it lies with DuckDB "
                    "(as --engine duckdb does); --engine none reads it into memory"
                ),
                file=sys.stderr,
            )
            args.engine = "duckdb"
    if args.engine == "duckdb":
        return _read_in_place(args)
    return _read(args.file, args.columns)


def _large_table(file: str) -> str | None:
    """Why FILE is read in DuckDB without being asked (``large_table``), or None to read it in
    memory; standard input is always read in memory."""
    if file == "-":
        return None
    path = Path(file)
    try:
        return large_table(path, _data(path.name, 1000))
    except ChartkitError as exc:  # CHARTKIT_ENGINE_ROWS is not a number of rows
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None


def _read_in_place(args: argparse.Namespace) -> tuple[str, list[ToolResult]]:
    """``--engine duckdb``: FILE opened where it lies as one result (``open_declared``)."""
    try:
        declared, source = (None, None)
        if args.columns is not None:
            declared, source = _declaration(args.columns)
            source = over_own_declaration(args.file, source, COLUMNS_OVER_FILE_SCHEMA)
        result = open_declared(args.file, declared, source)
    except ChartkitError as exc:
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    return args.file, [result]


def _examples(args: argparse.Namespace) -> int:
    """``chartkit examples``: the bundled results by name, or copied into ``--copy DIR``."""
    import shutil

    from chartkit.bundled import example_names, example_path

    paths = [example_path(name) for name in example_names()]
    if args.copy is None:
        width = max(len(p.stem) for p in paths)
        for path in paths:
            print(f"{path.stem:<{width}}  {path}")
        return EXIT_OK
    target = Path(args.copy)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for path in paths:
            copy = target / path.name
            if copy.exists() and copy.read_bytes() != path.read_bytes():
                raise _Exit(
                    EXIT_UNREADABLE,
                    f"{copy} exists and differs from the bundled example; remove it, or copy "
                    "into another folder",
                )
            shutil.copyfile(path, copy)
    except OSError as exc:
        raise _Exit(EXIT_UNREADABLE, f"cannot copy into {target}: {exc.strerror or exc}") from None
    print(f"copied {len(paths):,} example files into {target}: {', '.join(p.name for p in paths)}")
    return EXIT_OK


def _mcp(args: argparse.Namespace) -> int:
    try:
        from chartkit.mcp.server import serve
    except MissingExtraError as exc:
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    # stdout carries the JSON-RPC stream itself: the process's own, never a wrapper of it.
    wrapped, sys.stdout = sys.stdout, sys.__stdout__
    try:
        serve(roots=args.root)
    except ChartkitError as exc:  # a --root that is not a directory
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    finally:
        sys.stdout = wrapped
    return EXIT_OK


# ---------------------------------------------------------------------------------- reading


def _read(file: str, columns: str | None = None) -> tuple[str, list[ToolResult]]:
    """The results in FILE (or stdin for ``-``); unreadable input leaves with exit code 2.

    A ``.csv`` or ``.parquet`` FILE is one result, read by the declaration ``columns``.
    """
    limit = _max_input_bytes()
    if file == "-":
        name, data = "<stdin>", _read_bounded(sys.stdin.buffer, "standard input", limit)
    else:
        path = Path(file)
        name = _data(file, 1000)
        try:
            data = _read_file(path, name, limit)
        except MemoryError:
            raise _Exit(EXIT_UNREADABLE, _no_memory(name)) from None
        except FileNotFoundError:
            raise _Exit(EXIT_UNREADABLE, f"{file}: no such file") from None
        except IsADirectoryError:
            raise _Exit(EXIT_UNREADABLE, f"{file} is a directory, not a result file") from None
        except OSError as exc:
            raise _Exit(EXIT_UNREADABLE, f"{file} cannot be read: {exc.strerror}") from None
    try:
        if Path(name).suffix.lower() in (".csv", ".parquet"):
            return name, [_read_table(data, name, columns)]
        if columns is not None:
            return name, [_declared_rows(_parse(data, name), name, columns)]
        return name, _parse(data, name)
    except ChartkitError as exc:
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    except MemoryError:
        raise _Exit(EXIT_UNREADABLE, _no_memory(name)) from None
    except (RecursionError, ValueError) as exc:  # nested too deep, a number too long
        from chartkit._unreadable import unreadable_json

        raise _Exit(EXIT_UNREADABLE, unreadable_json(name, exc)) from None


MAX_INPUT_ENV = "CHARTKIT_MAX_INPUT_MB"
"""Raises (or lowers) the largest input FILE ``check``, ``render`` and ``stage`` read whole."""
MAX_INPUT_MB = 1024


def _max_input_bytes() -> int:
    raw = os.environ.get(MAX_INPUT_ENV)
    try:
        megabytes = float(raw) if raw else MAX_INPUT_MB
    except ValueError:
        raise _Exit(
            EXIT_UNREADABLE, f"{MAX_INPUT_ENV} is {raw!r}, not a number of megabytes"
        ) from None
    return int(megabytes * 1024 * 1024)


def _too_large(what: str, limit: int) -> _Exit:
    return _Exit(
        EXIT_UNREADABLE,
        f"{what} holds more than {limit / 1024 / 1024:,.0f} MiB, the most read into memory; "
        f"open a table with --engine duckdb, split the run, or raise {MAX_INPUT_ENV}",
    )


def _read_bounded(stream: Any, what: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a stream (stdin, a pipe); more is refused, not read."""
    data: bytes = stream.read(limit + 1)
    if len(data) > limit:
        raise _too_large(what, limit)
    return data


_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _read_file(path: Path, name: str, limit: int) -> bytes:
    """A regular file's bytes (or a pipe's, bounded); a device or a socket is refused."""
    if path.is_dir():
        raise IsADirectoryError
    info = path.stat()
    if stat.S_ISFIFO(info.st_mode):
        with path.open("rb") as pipe:
            return _read_bounded(pipe, name, limit)
    if not stat.S_ISREG(info.st_mode):
        kind = next((what for test, what in _KINDS if test(info.st_mode)), "not a regular file")
        raise _Exit(
            EXIT_UNREADABLE,
            f"{name} is {kind}, not a result file; give a .json, .jsonl, .csv or .parquet "
            "file, or pipe the data into FILE - (standard input)",
        )
    if info.st_size > limit:
        raise _too_large(name, limit)
    return path.read_bytes()


def _on_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(callable(isatty) and isatty())


def _parse(data: bytes, name: str) -> list[ToolResult]:
    """``read_results``; a large ``.jsonl`` read on a terminal goes in slices, under a bar.

    Each slice holds at least two lines and starts with a line that is JSON on its own, so
    ``read_results`` reads it as ``.jsonl`` exactly as it reads the whole; on any error the
    whole is read again, so the message (and its line number) is the one it would give.
    """
    if not _on_terminal(sys.stderr):
        return read_results(data, name=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return read_results(data, name=name)
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2 * _READ_SLICE_LINES:
        return read_results(text, name=name)
    slices = [lines[i : i + _READ_SLICE_LINES] for i in range(0, len(lines), _READ_SLICE_LINES)]
    if len(slices[-1]) < 2:
        slices[-2].extend(slices.pop())
    from chartkit._progress import Progress

    bar = Progress(len(lines), label=f"reading {name}", stream=sys.stderr, delay=_PROGRESS_DELAY)
    results: list[ToolResult] = []
    try:
        for part in slices:
            try:
                json.loads(part[0])
                results.extend(read_results("\n".join(part), name=name))
            except (ValueError, ChartkitError):
                bar.close()
                return read_results(text, name=name)  # the message the whole file gives
            bar.advance(len(part))
    finally:
        bar.close()
    return results


def _rowscounted(result: ToolResult) -> str:
    rows = result.rows
    if isinstance(rows, list):
        return f"{len(rows):,} row{'s' if len(rows) != 1 else ''}"
    reading = read_rowset(rows)  # a dataframe, or an engine's table (counted where it lives)
    if reading is not None:
        return f"{reading.total:,} row{'s' if reading.total != 1 else ''}"
    return f"rows of type {type(rows).__name__}"


def _title(index: int | None, result: ToolResult) -> str:
    number = f"{index:,}. " if index is not None else ""
    call = f", {_data(result.call_id)}" if result.call_id else ""
    source = declared_by_text(result.declared_by)
    said = f", {source}" if source else ""
    return f"{number}{_data(result.tool)} ({_rowscounted(result)}{call}{said})"


# ------------------------------------------------------------------------------------ check


def _not_checked(result: ToolResult, mode: CheckMode) -> str:
    """Why a result filed not-applicable rows: "I could not look", never "nothing was wrong"."""
    from chartkit.messages import not_checked_reason

    return not_checked_reason(mode, declared=result.result_columns is not None)


def _check(args: argparse.Namespace) -> int:
    from chartkit._progress import Progress

    name, results = _results(args)
    mode: CheckMode = args.mode
    progress = Progress(
        len(results), label=f"checking {name}", stream=sys.stderr, delay=_PROGRESS_DELAY
    )
    outcomes: list[CheckOutcome] = []
    ledger = DispositionLedger()
    try:
        for result in results:
            try:
                outcome = check_result(result, mode=mode)
            except ChartkitError as exc:  # an engine's query failed past the door
                raise _Exit(EXIT_UNREADABLE, _unfinished(name, exc, args.engine)) from None
            outcomes.append(outcome)
            ledger.add(outcome)
            progress.advance()
    finally:
        progress.close()
    refused = any(o.refused for o in outcomes)
    code = EXIT_FINDINGS if refused else EXIT_OK
    if args.json:
        payload = _check_payload(name, mode, results, outcomes, ledger, code)
        _print_lines(_json_text(payload))
    elif args.quiet:
        _print_quiet(sys.stdout, mode, results, outcomes)
    else:
        _print_check(sys.stdout, name, mode, results, outcomes, ledger)
    return code


def _print_quiet(
    out: TextIO, mode: CheckMode, results: Sequence[ToolResult], outcomes: Sequence[CheckOutcome]
) -> None:
    """``--quiet``: one line per result — its title, what the check said, and each kind of
    finding with the columns it was filed on."""
    from chartkit._safe import name_list

    several = len(results) > 1
    for n, (result, outcome) in enumerate(zip(results, outcomes, strict=True), 1):
        title = _title(n if several else None, result)
        found = counted(len(outcome.findings), "finding")
        by_kind: dict[str, list[str]] = {}
        for f in outcome.findings:
            by_kind.setdefault(f.kind, []).append(f.column)
        kinds = "; ".join(f"{kind} on {name_list(columns)}" for kind, columns in by_kind.items())
        if outcome.refused:
            print(f"{title}: refused under enforce, {found}: {kinds}", file=out)
        elif outcome.findings:
            print(f"{title}: {found} under {mode}: {kinds}", file=out)
        elif outcome.armed:
            print(f"{title}: clean under {mode}", file=out)
        else:
            print(f"{title}: not checked — {_not_checked(result, mode)}", file=out)


def _unfinished(name: str, exc: ChartkitError, engine: str | None) -> str:
    """One line for a check that could not finish: what failed (the engine's first line,
    which names the column), and what to do."""
    said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if engine == "duckdb":
        fix = (
            f"{engine} could not read the whole file (damaged, or changed since it was opened); "
            "repair or rewrite it, or check it with --engine none to read it in memory"
        )
    else:
        fix = "the check could not finish; check the file, or report this with a few of its rows"
    return f"{name}: {said}. {fix}"


def _print_check(
    out: TextIO,
    name: str,
    mode: CheckMode,
    results: Sequence[ToolResult],
    outcomes: Sequence[CheckOutcome],
    ledger: DispositionLedger,
) -> None:
    from chartkit.messages import finding_head

    several = len(results) > 1
    ceiling = False
    for n, (result, outcome) in enumerate(zip(results, outcomes, strict=True), 1):
        title = _title(n if several else None, result)
        found = len(outcome.findings)
        if outcome.refused:
            print(f"{title}: refused under enforce, {counted(found, 'finding')}", file=out)
            print(f"  {outcome.refusal}", file=out)
            for f in outcome.findings:
                print(f"  - {f.kind} on {f.column!r}", file=out)
                _print_offenders(out, f.violation, "    ")
        elif outcome.findings:
            print(f"{title}: {counted(found, 'finding')} under {mode}", file=out)
            for f in outcome.findings:
                print(f"  - {f.kind}: {finding_head(f.message)}", file=out)
                _print_offenders(out, f.violation, "    ")
            ceiling = True
        elif outcome.armed:
            declared = len(result.result_columns or {})
            each = "the" if declared == 1 else "each of the"
            print(
                f"{title}: clean under {mode} — {each} {counted(declared, 'declared column')}"
                " holds its declared type",
                file=out,
            )
        else:
            print(f"{title}: not checked — {_not_checked(result, mode)}", file=out)
    if ceiling:
        print(f"Every finding above also says: {_ceiling()}", file=out)
    rows = ledger.rows()
    what = f"{name}, {counted(len(results), 'result')}, mode {mode}"
    print(f"disposition ({what}):", file=out)
    width = max(len(r.check) for r in rows)
    for r in rows:
        print(
            f"  {r.check:<{width}}  seam {r.seam}  checked {r.checked:,}  findings {r.findings:,}  "
            f"not applicable {r.not_applicable:,}",
            file=out,
        )
    print(
        "  (seam write: checked where a tool's result is written into the run; checked: "
        "results read against their declaration; not applicable: results it could not look "
        "at — the dial off, nothing declared, or not rows)",
        file=out,
    )
    refused = sum(o.refused for o in outcomes)
    if refused:
        print(f"{counted(refused, 'result')} refused under enforce.", file=out)


def _offenders_line(violation: Any, indent: str) -> str | None:
    """The line under a finding that lists its most frequent offending values, or None."""
    from chartkit.messages import offenders_text

    listed = offenders_text(violation)
    return f"{indent}{offending_values(listed)}" if listed else None


def _print_offenders(out: TextIO, violation: Any, indent: str) -> None:
    line = _offenders_line(violation, indent)
    if line is not None:
        print(line, file=out)


def _check_payload(
    name: str,
    mode: CheckMode,
    results: Sequence[ToolResult],
    outcomes: Sequence[CheckOutcome],
    ledger: DispositionLedger,
    code: int,
) -> dict[str, Any]:
    return {
        "file": name,
        "mode": mode,
        "exitCode": code,
        "results": [
            {
                "index": n,
                "tool": result.tool,
                "callId": result.call_id,
                "status": outcome.status,
                "armed": outcome.armed,
                "refused": outcome.refused,
                "refusal": outcome.refusal,
                "notChecked": None if outcome.armed else _not_checked(result, mode),
                "findings": [f.to_dict() for f in outcome.findings],
                "disposition": [d.to_dict() for d in outcome.disposition],
            }
            for n, (result, outcome) in enumerate(zip(results, outcomes, strict=True), 1)
        ],
        "disposition": [d.to_dict() for d in ledger.rows()],
    }


# ----------------------------------------------------------------------------------- render


def _pick(
    name: str, results: Sequence[ToolResult], tool: str | None, index: int | None
) -> ToolResult:
    if index is not None:
        if not 1 <= index <= len(results):
            raise _Exit(
                EXIT_UNREADABLE,
                f"--index {index} is out of range: {name} holds {counted(len(results), 'result')}"
                f", numbered 1 to {len(results):,}",
            )
        chosen = results[index - 1]
        if tool is not None and chosen.tool != tool:
            raise _Exit(
                EXIT_UNREADABLE,
                f"result {index:,} of {name} is from tool {chosen.tool!r}, not {tool!r}; drop "
                "--tool or pick another --index",
            )
        return chosen
    candidates = [(n, r) for n, r in enumerate(results, 1) if tool is None or r.tool == tool]
    if not candidates:
        tools = ", ".join(dict.fromkeys(repr(r.tool) for r in results))
        raise _Exit(
            EXIT_UNREADABLE,
            f"{name} holds no result from tool {tool!r}; it holds results from {tools}",
        )
    if len(candidates) > 1:
        shown = "; ".join(_title(n, r) for n, r in candidates[:20])
        more = f"; and {len(candidates) - 20:,} more" if len(candidates) > 20 else ""
        of = f" from tool {tool!r}" if tool is not None else ""
        how = "--index N" if tool is not None else "--index N (or --tool NAME)"
        raise _Exit(
            EXIT_UNREADABLE,
            f"{name} holds {len(candidates):,} results{of}; pick one with {how}: {shown}{more}",
        )
    return candidates[0][1]


def _render(args: argparse.Namespace) -> int:
    if args.output is None and not args.alternatives:
        raise _Exit(
            EXIT_UNREADABLE,
            "give the chart to write with -o OUT (.png, .svg, .html or "
            ".json), or list the charts the declared types allow with --alternatives",
        )
    output = Path(args.output or "chart.png")
    if output.suffix.lower() not in RENDER_FORMATS:
        raise _Exit(
            EXIT_UNREADABLE,
            f"cannot write {output.name!r}: the suffix {output.suffix or '(none)'!r} is not one "
            f"of {', '.join(RENDER_FORMATS)}",
        )
    name, results = _results(args)
    result = _pick(name, results, args.tool, args.index)
    from chartkit.views import view

    try:
        shown = view(
            result,
            mode=args.mode,
            x=args.x,
            color=args.color,
            max_points=args.max_points,
            **_chart_args(args),
        )
    except ChartkitError as exc:
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    from chartkit.messages import finding_head

    findings = []
    for f in shown.check.findings:
        findings.append(f"  finding: {finding_head(f.message)}")
        listed = _offenders_line(f.violation, "    ")
        if listed is not None:
            findings.append(listed)
    if findings:
        findings.append(f"  (every finding: {_ceiling()})")
    refusals = [f"  {refused_axis(r.channel, r.reason)}" for r in shown.refusals]
    notes = [f"  note: {n}" for n in shown.notes]
    declared_by = declared_by_text(result.declared_by)
    source = f" ({declared_by})" if declared_by else ""
    if args.alternatives:
        return _list_alternatives(args, shown, result, refusals + notes + findings)
    if shown.kind == "table" and output.suffix.lower() != ".json":  # the table, with its reason
        try:
            shown.save(output)
        except OSError as exc:
            raise _Exit(EXIT_UNREADABLE, _cannot_write(output, exc)) from None
        lines = [f"wrote {output}: a table of {result.tool}{source}, not a chart. {shown.reason}"]
        words = lines if args.quiet else lines + refusals + notes + findings
        print("\n".join(terminal_literal(line) for line in words), file=sys.stderr)
        return EXIT_FINDINGS
    if shown.kind != "chart":
        what = "refused under enforce" if shown.kind == "refused" else "a table, not a chart"
        lines = [
            f"chartkit render: no chart for {result.tool}{source}, so {output} was not written: "
            f"the view is {what}. {shown.reason}"
        ]
        if shown.kind != "refused" and not args.quiet:
            lines += refusals + notes + findings
        print("\n".join(terminal_literal(line) for line in lines), file=sys.stderr)
        return EXIT_FINDINGS
    try:
        shown.save(output)
    except OSError as exc:
        raise _Exit(EXIT_UNREADABLE, _cannot_write(output, exc)) from None
    except ChartkitError as exc:
        raise _Exit(EXIT_UNREADABLE, str(exc)) from None
    if args.quiet:  # the one line, with how many findings the full run would list
        found = len(shown.check.findings)
        said = [declared_by] if declared_by else []
        said += [f"{counted(found, 'finding')} under {args.mode}"] if found else []
        of = f" ({'; '.join(said)})" if said else ""
        print(f"wrote {output}: {chart_of(shown.mark)} of {result.tool}{of}. {shown.reason}")
        return EXIT_OK
    print(f"wrote {output}: {chart_of(shown.mark)} of {result.tool}{source}. {shown.reason}")
    for channel, encoding in shown.encodings.items():
        print(f"  {channel}: {encoding.describe()}")
    for line in refusals + notes + findings:
        print(line)
    return EXIT_OK


def _list_alternatives(
    args: argparse.Namespace, shown: Any, result: ToolResult, words: list[str]
) -> int:
    """``--alternatives``: the chart drawn and the others, each with its reason; no file."""
    kind = chart_of(shown.mark) if shown.kind == "chart" else shown.kind
    declared_by = declared_by_text(result.declared_by)
    source = f" ({declared_by})" if declared_by else ""
    print(f"{_data(result.tool)}{source}: {kind}. {shown.reason}")
    for channel, encoding in shown.encodings.items():
        print(f"  {channel}: {encoding.describe()}")
    for line in words:
        print(line)
    for i, alternative in enumerate(shown.alternatives):
        print(f"  alternative {i} (--choose {i}): {alternative.reason}")
    if not shown.alternatives:
        print("  no other chart: the declared types allow only this one")
    if args.output is not None:
        print(
            f"{args.output} was not written: --alternatives only lists; to write a chart, run "
            "again without it (--choose N -o OUT draws alternative N)"
        )
    return EXIT_OK


def _ceiling() -> str:
    from chartkit.messages import COLUMN_TYPE_CEILING, NOTHING_CHANGED

    return f"{COLUMN_TYPE_CEILING} {NOTHING_CHANGED}"


def _chart_options(render: argparse.ArgumentParser) -> None:
    """The chart options of ``view()``, with the same words as choices."""
    from chartkit.options import AGGREGATES, SCALES, TIME_UNITS

    render.add_argument(
        "--facet", metavar="COL", help="one small chart per value of this string or boolean column"
    )
    render.add_argument("--aggregate", choices=AGGREGATES, help="how rows are combined per mark")
    render.add_argument("--time-unit", choices=TIME_UNITS, help="the bucket of a date axis")
    render.add_argument(
        "--sort", metavar="ORDER",
        help="bars by -y (the default), y, x or -x, or a comma-separated list of values",
    )  # fmt: skip
    render.add_argument("--scale", choices=SCALES, help="the measure axis's scale")
    render.add_argument("--format", metavar="D3", help="a d3-format string for the measure")
    render.add_argument(
        "--zero", choices=("true", "false"),
        help="whether a line's or a scatter's measure axis starts at zero (default: decided "
        "from the values; bars always start at zero)",
    )  # fmt: skip
    render.add_argument(
        "--choose", type=int, metavar="N", help="draw the Nth alternative (see --alternatives)"
    )
    render.add_argument(
        "--alternatives", action="store_true",
        help="list the other charts the declared types allow, each with its reason",
    )  # fmt: skip


def _chart_args(args: argparse.Namespace) -> dict[str, Any]:
    sort: str | list[str] | None = args.sort
    if isinstance(sort, str) and sort not in ("-y", "y", "x", "-x"):
        sort = [v.strip() for v in sort.split(",") if v.strip()]
    y = args.y if args.y is None or len(args.y) > 1 else args.y[0]
    return {
        "y": y,
        "facet": args.facet,
        "aggregate": args.aggregate,
        "time_unit": args.time_unit,
        "sort": sort,
        "scale": args.scale,
        "format": args.format,
        "zero": None if args.zero is None else args.zero == "true",
        "choose": args.choose,
    }


# ---------------------------------------------------------------------------------- explore


def _explorer() -> Path:
    override = os.environ.get(EXPLORER_ENV)
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise _Exit(
                EXIT_UNREADABLE,
                f"{EXPLORER_ENV} is set to {override!r}, which is not a file; point it at a "
                "Streamlit script such as app/explorer.py in a chartkit checkout, or unset it "
                "to run the explorer installed with the package",
            )
        return path.resolve()
    from chartkit.explorer import SCRIPT

    if not SCRIPT.is_file():
        raise _Exit(
            EXIT_UNREADABLE,
            f"the explorer's script is missing from the installed package (looked for {SCRIPT}); "
            "reinstall it with pip install --force-reinstall 'chartkit[app]'",
        )
    return SCRIPT


def _launch(command: Sequence[str], env: dict[str, str], cwd: Path | None) -> int:
    """Run Streamlit in the foreground until it stops; answers its exit code.

    Ctrl-C reaches Streamlit too (same process group); on SIGTERM, or when anything else ends
    this process first, Streamlit is stopped rather than left running.
    """
    child = subprocess.Popen(list(command), env=env, cwd=cwd)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return child.wait()
    except KeyboardInterrupt:
        return 130
    finally:
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _explorer_settings() -> list[str]:
    """The settings a checkout's ``.streamlit/config.toml`` holds, as flags, so an installed
    package serves the same explorer from any directory."""
    from chartkit.explorer._logic import MAX_FILE_MB

    return [
        "--server.maxUploadSize", str(MAX_FILE_MB),
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",
    ]  # fmt: skip


def _explore(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("streamlit") is None:
        error = MissingExtraError(needs_extra("the explorer", "Streamlit", "app"))
        raise _Exit(EXIT_UNREADABLE, str(error))
    from chartkit.explorer._logic import MCP_SERVERS_ENV, is_loopback

    if args.mcp_server and not is_loopback(args.address):
        raise _Exit(
            EXIT_UNREADABLE,
            f"--mcp-server is refused with --address {args.address!r}: other machines could "
            "load the page, and its MCP source starts commands on this one; serve it on "
            "127.0.0.1 (the default) or drop --mcp-server",
        )
    explorer = _explorer()
    env = dict(os.environ)
    env.pop(MCP_SERVERS_ENV, None)  # only this launch's --mcp-server flags are allowed
    if args.mcp_server:
        env[MCP_SERVERS_ENV] = json.dumps(args.mcp_server)
    staged: Path | None = None
    if args.file is not None:
        if Path(args.file).suffix.lower() in (".parquet", ".csv"):
            # a table: the explorer opens it in DuckDB, so only that it opens is checked here
            _read_in_place(argparse.Namespace(file=args.file, columns=None))
        else:
            _, results = _read(args.file)  # unreadable input fails here, as it does for check
        if args.file == "-":
            data = "\n".join(json.dumps(r.to_wire(), ensure_ascii=False) for r in results)
            with tempfile.NamedTemporaryFile(
                "w", suffix=".jsonl", prefix="chartkit-stdin-", delete=False, encoding="utf-8"
            ) as handle:
                handle.write(data + "\n")
            staged = Path(handle.name)
            env[EXPLORE_FILE_ENV] = str(staged)
        else:
            env[EXPLORE_FILE_ENV] = str(Path(args.file).resolve())
    command = [sys.executable, "-m", "streamlit", "run", str(explorer)]
    command += _explorer_settings()
    command += ["--server.address", args.address]
    if args.port is not None:
        command += ["--server.port", str(args.port)]
    if args.headless:
        command += ["--server.headless", "true"]
    try:
        return _launch(command, env, None)
    finally:
        if staged is not None:
            staged.unlink(missing_ok=True)


# ------------------------------------------------------------------- .csv, .parquet and stage


def _cannot_write(output: Path, exc: OSError) -> str:
    """Why the chart or table ``output`` was not written: the system's own reason."""
    return f"cannot write {output}: {exc.strerror or exc}"


def _no_memory(name: str) -> str:
    """Why the input ``name`` was not read: it does not fit in memory."""
    return f"{name} is too large to read into memory"


def _read_table(data: bytes, name: str, columns: str | None) -> ToolResult:
    """A ``.csv`` read by the declaration ``columns``, or a ``.parquet`` (staged or not): by
    ``columns`` when given, else by its own declaration or schema (``with_own_declaration``)."""
    from chartkit.read.tables import is_table, read_table

    if not is_table(name):
        raise ChartkitError(
            f"--columns applies to .csv and .parquet input; {name} is read as JSON, and a JSON "
            "tool result carries its own resultColumns"
        )
    declared, source = (None, None)
    if columns is not None:
        declared, source = _declaration(columns)
        source = over_own_declaration(data, source, COLUMNS_OVER_FILE_SCHEMA)
    result = read_table(data, name, declared)
    if result.result_columns is None and Path(name).suffix.lower() == ".parquet":
        own = with_own_declaration(result, data)  # (read_table read a staged file's own)
        if own is not result:
            return own
    return dataclasses.replace(result, declared_by=source) if source else result


def _declared_rows(results: list[ToolResult], name: str, columns: str) -> ToolResult:
    """``--columns`` on a JSON FILE: a bare array of rows (no tool result) read by it."""
    from chartkit.columns import assert_result_columns

    if len(results) != 1 or results[0].result_columns is not None or results[0].call_id:
        raise ChartkitError(
            f"--columns applies to .csv and .parquet input and to a bare JSON array of rows; "
            f"{name} holds tool results, and a tool result carries its own resultColumns"
        )
    (result,) = results
    declared, source = _declaration(columns)
    result = ToolResult(
        result.tool, result.rows, result_columns=assert_result_columns(result.tool, declared)
    )
    return dataclasses.replace(result, declared_by=source) if source else result


def _declaration(columns: str) -> tuple[object, str | None]:
    """``--columns``: inline JSON, or the path of a .json file holding the declaration — or a
    JSON Schema of the rows (an MCP ``outputSchema``), read by ``result_columns_from``; the
    second item says so (``declared_by``)."""
    text = columns
    if not columns.lstrip().startswith("{"):
        try:
            text = Path(columns).read_text(encoding="utf-8")
        except OSError as exc:
            raise ChartkitError(
                f"--columns {columns!r} is neither a JSON object nor a readable file "
                f'({exc.strerror or exc}); pass \'{{"lun": "number"}}\' or a .json file'
            ) from None
    try:
        declared = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ChartkitError(
            f"--columns is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            'it is one object: {"column": "number", "other": {"type": "date", "nullable": true}}'
        ) from None
    if isinstance(declared, dict) and isinstance(declared.get("resultColumns"), dict):
        return declared["resultColumns"], None  # a tool result's wire form: its declaration
    if looks_like_json_schema(declared):
        return result_columns_from(declared), "JSON Schema"
    return declared, None


def _stage(args: argparse.Namespace) -> int:
    from chartkit.staging import stage

    name, results = _read(args.file, args.columns)
    mode: CheckMode = args.mode
    directory = Path(args.output)
    taken: dict[str, int] = {}
    refused = 0
    for n, result in enumerate(results, 1):
        base = result.tool
        taken[base] = taken.get(base, 0) + 1
        stem = base if taken[base] == 1 else f"{base}-{taken[base]}"
        try:
            staged = stage(result, directory, mode=mode, name=_file_stem(stem))
        except OSError as exc:
            raise _Exit(
                EXIT_UNREADABLE, f"cannot write into {directory}: {exc.strerror or exc}"
            ) from None
        except ChartkitError as exc:
            raise _Exit(EXIT_UNREADABLE, f"result {n:,} of {name}: {exc}") from None
        title = _title(n if len(results) > 1 else None, result)
        if staged.parquet is None:
            refused += 1
            print(f"{title}: refused under enforce; wrote {staged.sidecar} (no rows)")
            print(f"  {staged.outcome.refusal}")
            continue
        print(f"{title}: wrote {staged.parquet} and {staged.sidecar}")
        for column in staged.columns:
            declared = f"declared {column.declared}" if column.declared else "not declared"
            if column.staged_as == "declared":
                print(f"  {column.name}: {column.arrow} ({declared})")
            elif column.staged_as == "inferred":
                print(f"  {column.name}: {column.arrow} (inferred; {declared})")
            else:
                print(f"  {column.name}: {column.arrow}, as text ({declared}): {column.reason}")
    return EXIT_FINDINGS if refused else EXIT_OK


def _file_stem(tool: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "_", tool).strip("._") or "result"
