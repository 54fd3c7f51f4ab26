"""The explorer's logic that is not UI: sources, parsing, the run ledger, highlights, the editor.

Everything here is plain Python over chartkit's public names, so tests call it directly; the
Streamlit page (``chartkit/explorer/page.py``) only lays it out.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chartkit._highlight import offending_cells, offending_rows
from chartkit._literal import json_literal, visible_controls
from chartkit._unreadable import unreadable_json
from chartkit.check.integrity import DispositionLedger, check_result
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome, DispositionRow
from chartkit.columns import COLUMN_TYPES
from chartkit.errors import ChartkitError, ResultColumnsError, ToolResultError
from chartkit.messages import unknown_mode
from chartkit.read.rowset import read_rowset
from chartkit.read.schemas import declared_by_text
from chartkit.result import ToolResult, read_results
from chartkit.words import counted

__all__ = [
    "ABSENT_TEXT",
    "DEFAULT_EXAMPLE",
    "DEFAULT_MODE",
    "ENV_FILE",
    "EXAMPLES_DIR",
    "MAX_FILE_MB",
    "MCP_EXAMPLE_SERVER",
    "MCP_SERVERS_ENV",
    "STYLED_ROWS",
    "UNDECLARED",
    "Example",
    "Loaded",
    "MCPListing",
    "RunLedger",
    "RunRow",
    "cell_text",
    "column_labels",
    "declaration_from_choices",
    "declaration_json",
    "display_value",
    "disposition_table",
    "editor_columns",
    "examples",
    "is_loopback",
    "load_bytes",
    "load_path",
    "max_file_bytes",
    "mcp_call_tool",
    "mcp_default_command",
    "mcp_list_tools",
    "mcp_refusal",
    "mcp_servers",
    "mcp_tool_label",
    "offending_cells",
    "offending_rows",
    "refused_axis",
    "result_label",
    "run_ledger",
    "size_text",
    "with_declaration",
]

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
"""The bundled example results: package data (``chartkit/examples``), so the wheel has them."""
MCP_EXAMPLE_SERVER = Path(__file__).resolve().parents[2] / "examples" / "mcp_server.py"
"""The checkout's copy of the MCP server (stdio) that serves the bundled examples with their
declarations; the wheel ships the same server as ``python -m chartkit.examples.mcp_server``."""
DEFAULT_EXAMPLE = "host_group_mappings"
DEFAULT_MODE: CheckMode = "warn"
ENV_FILE = "CHARTKIT_EXPLORE_FILE"
"""Environment variable naming a file to open at start (``chartkit explore FILE`` sets it)."""

MAX_FILE_MB = 200
"""The largest file the explorer reads, in MB (also ``server.maxUploadSize`` in .streamlit)."""

STYLED_ROWS = 5_000
"""The rows table shows (and highlights) a window of at most this many rows."""

ABSENT_TEXT = "‹absent›"
"""How the rows table shows a cell whose row has no such key (a null shows as ``null``)."""

UNDECLARED = "(undeclared)"
"""The editor's choice for a column left out of the declaration."""

# The bundled examples in the order the issue tells their stories; anything else found in
# the folder follows alphabetically.
_EXAMPLE_ORDER = (
    "host_group_mappings",
    "capacity_view",
    "volume_io_stats",
    "latency_by_region",
    "missing_column",
    "host_inventory",
    "undeclared_result",
    "run_incident",
)


@dataclass(frozen=True, slots=True)
class Example:
    """A bundled example file: its name (the file stem) and path."""

    name: str
    path: Path


def examples(folder: Path = EXAMPLES_DIR) -> tuple[Example, ...]:
    """The bundled examples (``.json`` and ``.jsonl``), the LUN incident first.

    >>> examples()[0].name
    'host_group_mappings'
    """
    found = {p.stem: p for p in sorted(folder.iterdir()) if p.suffix in (".json", ".jsonl")}
    order = [n for n in _EXAMPLE_ORDER if n in found] + sorted(set(found) - set(_EXAMPLE_ORDER))
    return tuple(Example(n, found[n]) for n in order)


def max_file_bytes() -> int:
    """The size limit in bytes: ``CHARTKIT_EXPLORE_MAX_MB`` when set (tests), else 200 MB."""
    raw = os.environ.get("CHARTKIT_EXPLORE_MAX_MB")
    try:
        mb = float(raw) if raw else MAX_FILE_MB
    except ValueError:
        mb = MAX_FILE_MB
    return int(mb * 1024 * 1024)


def size_text(n: int) -> str:
    """A byte count the way a person reads it.

    >>> size_text(512), size_text(3 * 1024 * 1024)
    ('512 bytes', '3.0 MB')
    """
    if n < 1024:
        return f"{n} bytes"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


@dataclass(frozen=True)
class Loaded:
    """What reading a source gave: the results, or an error sentence, and an optional warning.

    ``warning`` is set when a malformed declaration was set aside so the rows can still be
    looked at (and a declaration written for them in the editor). ``csv`` holds an uploaded
    CSV file's bytes: its cells are text until a declaration says what they are, so an edited
    declaration reads them again (``redeclared``).
    """

    name: str
    results: tuple[ToolResult, ...] = ()
    error: str | None = None
    warning: str | None = None
    size: int = 0
    csv: bytes | None = field(default=None, repr=False)

    def redeclared(self, index: int, declaration: Mapping[str, Any] | None) -> ToolResult:
        """Result ``index`` under ``declaration`` (None: undeclared).

        A CSV file's cells are parsed again by the new declared types with
        ``chartkit.read.csvread.read_csv`` — the reading ``chartkit check --columns`` and
        ``chartkit explore FILE.csv`` give — so a ``0`` declared number is the number 0, not
        the text ``"0"`` (docs/csv.md). Other results keep their rows as returned.

        >>> loaded = load_bytes(b"lun\\n0\\nn/a\\n", "luns.csv")
        >>> loaded.results[0].rows, loaded.redeclared(0, {"lun": "number"}).rows
        ([{'lun': '0'}, {'lun': 'n/a'}], [{'lun': 0}, {'lun': 'n/a'}])
        """
        result = self.results[index]
        if self.csv is None or (declaration is None and result.result_columns is None):
            return with_declaration(result, declaration)
        from chartkit.read.csvread import read_csv

        return read_csv(
            self.csv, declaration, tool=result.tool, name=self.name, call_id=result.call_id
        )

    @property
    def total_rows(self) -> int:
        """Rows over all results (results whose rows are not a list count as zero)."""
        return sum(len(r.rows) for r in self.results if isinstance(r.rows, list))


def load_bytes(data: bytes | str, name: str, *, limit: int | None = None) -> Loaded:
    """Read a file's contents: a result, a JSON list of results, ``.jsonl``, or a bare array.

    Never raises for bad input: the answer carries a sentence that says what was expected,
    what was found and what to do.

    >>> load_bytes(b"", "run.jsonl").error
    'run.jsonl is empty; expected a JSON tool result or .jsonl run'
    """
    limit = max_file_bytes() if limit is None else limit
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > limit:
        return Loaded(name, error=_too_large(name, size, limit), size=size)
    suffix = Path(name).suffix.lower()
    if suffix == ".csv":
        return _load_csv(data, name, size)
    head = (data.encode("utf-8") if isinstance(data, str) else data)[:64].lstrip()
    if suffix not in READ_SUFFIXES and not head.startswith((b"{", b"[")):
        return Loaded(name, error=_not_a_result_file(name, suffix), size=size)
    try:
        results = read_results(data, name=name)
    except ResultColumnsError as exc:
        return _without_declarations(data, name, exc, size)
    except (ToolResultError, ChartkitError) as exc:
        return Loaded(name, error=str(exc), size=size)
    except (RecursionError, ValueError) as exc:  # nesting too deep, bad numbers …
        return Loaded(name, error=unreadable_json(name, exc), size=size)
    bare = _not_rows(results, name)
    if bare is not None:
        return Loaded(name, error=bare, size=size)
    return Loaded(name, tuple(results), size=size)


READ_SUFFIXES = ("", ".json", ".jsonl", ".ndjson")
"""The file names read as JSON tool results (another name, a ``.txt`` too, is read when it
holds JSON, else refused as a file type the explorer does not read); ``.csv`` is read as a
table of text cells."""


def _not_a_result_file(name: str, suffix: str) -> str:
    if suffix == ".parquet":
        return (
            f"{name} is a Parquet file; an upload is read as JSON or CSV. Open a Parquet file "
            "from the command line instead: chartkit explore FILE.parquet"
        )
    return (
        f"{name} is not a file the explorer reads (its name ends {suffix!r}); upload a .json "
        "tool result, a .jsonl run, a JSON array of rows, or a .csv table"
    )


def _load_csv(data: bytes | str, name: str, size: int) -> Loaded:
    """A CSV upload: one undeclared result whose cells stay text until the editor declares
    them (``Loaded.redeclared`` reads them again by that declaration)."""
    from chartkit.read.csvread import read_csv

    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        result = read_csv(raw, name=name)
    except ChartkitError as exc:
        return Loaded(name, error=str(exc), size=size)
    return Loaded(name, (result,), size=size, csv=raw)


def load_path(path: str | os.PathLike[str], *, limit: int | None = None) -> Loaded:
    """Read a file from disk, stating the size limit before reading a file that passes it."""
    p = Path(path)
    if p.suffix.lower() in (".parquet", ".csv"):  # a table, opened where it lies (DuckDB)
        return _load_table(p)
    limit = max_file_bytes() if limit is None else limit
    try:
        size = p.stat().st_size
    except OSError as exc:
        return Loaded(
            p.name or str(p),
            error=f"cannot open {str(p)!r} ({exc.strerror or exc}); give the path of a "
            ".json or .jsonl file",
        )
    if p.is_dir():
        return Loaded(
            p.name, error=f"{str(p)!r} is a folder; give the path of a .json or .jsonl file"
        )
    if size > limit:
        return Loaded(p.name, error=_too_large(p.name, size, limit), size=size)
    return load_bytes(p.read_bytes(), p.name, limit=limit)


def _load_table(p: Path) -> Loaded:
    """A .parquet or .csv file as one result whose rows stay in embedded DuckDB: a .parquet
    declared by its own schema (``own_declaration``, said ``declared by the file's schema``), a
    .csv undeclared until the editor declares it.

    No size limit applies: the check and the chart run as queries (``chartkit.read.engines``), and
    the page fetches only a bounded head of the rows to show.
    """
    from chartkit.columns import assert_result_columns
    from chartkit.read.engines import TableFile
    from chartkit.read.table_files import own_declaration

    table = TableFile(str(p))
    tool = p.stem or "table"
    try:
        reading = read_rowset(table)
        own, by = own_declaration(p) if p.suffix.lower() == ".parquet" else (None, None)
        declared = assert_result_columns(tool, own) if own is not None else None
    except ChartkitError as exc:
        return Loaded(p.name or str(p), error=str(exc))
    if reading is None:
        return Loaded(p.name, error=f"{p.name} holds no rows; there is nothing to check or chart")
    result = ToolResult(tool, table, result_columns=declared, declared_by=by)
    return Loaded(p.name, (result,), size=p.stat().st_size)


def _too_large(name: str, size: int, limit: int) -> str:
    return (
        f"{name} is {size_text(size)}; the explorer reads files up to {size_text(limit)}. "
        "Split the run into smaller files, or check it on the command line with "
        "`chartkit check FILE`."
    )


def _not_rows(results: Sequence[ToolResult], name: str) -> str | None:
    """A bare JSON array that is not an array of row objects is the wrong shape."""
    if len(results) != 1 or results[0].result_columns is not None:
        return None
    rows = results[0].rows
    if isinstance(rows, list) and rows and not all(isinstance(r, dict) for r in rows):
        first = next(r for r in rows if not isinstance(r, dict))
        return (
            f"{name} is a JSON array, but not of rows: item "
            f"{rows.index(first) + 1:,} is {json.dumps(first)[:60]}; expected a tool result "
            '{"tool", "rows", "resultColumns", …}, a .jsonl run, or an array of row objects '
            'like [{"column": value}, …]'
        )
    return None


def _without_declarations(
    data: bytes | str, name: str, exc: ResultColumnsError, size: int
) -> Loaded:
    """Read the results again with each malformed declaration set aside, so rows still show.

    Only the malformed declarations are taken out; the rest is read by ``read_results`` as it
    was, so any other fault (an entry of a run that is not a result, a line that is not JSON)
    is refused with the very sentence, place and line number a reading gives.
    """
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    dropped: list[str] = []

    def set_aside(payload: Any) -> Any:
        if not isinstance(payload, Mapping) or "resultColumns" not in payload:
            return payload
        try:
            ToolResult.from_wire(payload)
        except ResultColumnsError:
            dropped.append(str(payload.get("tool")))
            return {k: v for k, v in payload.items() if k != "resultColumns"}
        except ChartkitError:
            pass  # not a declaration fault: read_results says what it is
        return payload

    try:
        whole: Any = json.loads(text)
    except json.JSONDecodeError:  # .jsonl: each line in its place, so line numbers hold
        lines: list[str] = []
        for line in text.splitlines():
            try:
                lines.append(json.dumps(set_aside(json.loads(line))) if line.strip() else line)
            except (RecursionError, ValueError):
                lines.append(line)
        rewritten = "\n".join(lines)
    else:
        rewritten = json.dumps(
            [set_aside(p) for p in whole] if isinstance(whole, list) else set_aside(whole)
        )
    try:
        results = read_results(rewritten, name=name)
    except ChartkitError as other:
        return Loaded(name, error=str(other), size=size)
    except (RecursionError, ValueError):
        return Loaded(name, error=str(exc), size=size)
    which = ", ".join(dict.fromkeys(dropped))
    warning = (
        f"The declaration of {which} was set aside, so its rows are shown undeclared; write "
        "a declaration for them in the editor below."
    )
    return Loaded(name, tuple(results), error=str(exc), warning=warning, size=size)


# --- results --------------------------------------------------------------------------------


def result_label(index: int, result: ToolResult) -> str:
    """How a result is named in the picker: position, tool, call id and size."""
    rows = result.rows
    if isinstance(rows, list):
        size = counted(len(rows), "row")
    else:  # a dataframe, or a table an engine holds: counted where it lives
        reading = read_rowset(rows)
        size = counted(reading.total, "row") if reading is not None else type(rows).__name__
    call = f" ({result.call_id})" if result.call_id else ""
    source = declared_by_text(result.declared_by)
    declared = ", undeclared" if result.result_columns is None else f", {source}" if source else ""
    return visible_controls(f"{index + 1}. {result.tool}{call} — {size}{declared}")


def with_declaration(result: ToolResult, declaration: Mapping[str, Any] | None) -> ToolResult:
    """The same rows under another declaration (None: undeclared)."""
    return ToolResult(
        result.tool,
        result.rows,
        result_columns=declaration,
        call_id=result.call_id,
        description=result.description,
    )


def disposition_table(rows: Sequence[DispositionRow]) -> list[dict[str, Any]]:
    """Disposition rows as records, in the spec's spelling (``notApplicable``, ``lastFiredAt``)."""
    return [
        {
            "check": r.check,
            "seam": r.seam,
            "checked": r.checked,
            "findings": r.findings,
            "notApplicable": r.not_applicable,
            "lastFiredAt": _when(r.last_fired_at),
        }
        for r in rows
    ]


def _when(t: float | None) -> str | None:
    if t is None:
        return None
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class RunRow:
    """One result's line in the run ledger."""

    index: int
    tool: str
    call_id: str | None
    rows: int | None
    status: str
    findings: tuple[str, ...]


@dataclass(frozen=True)
class RunLedger:
    """A run checked under one dial setting: the summed disposition and a line per result."""

    mode: CheckMode
    disposition: tuple[DispositionRow, ...]
    results: tuple[RunRow, ...] = field(default=())

    def table(self) -> list[dict[str, Any]]:
        """The per-result lines as records (control characters from the data shown as escapes)."""
        return [
            {
                "#": r.index + 1,
                "tool": visible_controls(r.tool),
                "callId": None if r.call_id is None else visible_controls(r.call_id),
                "rows": r.rows,
                "status": r.status,
                "findings": visible_controls(", ".join(r.findings)) or "none",
            }
            for r in self.results
        ]


def run_ledger(results: Sequence[ToolResult], mode: CheckMode) -> RunLedger:
    """Check every result of a run under ``mode`` and add the dispositions up.

    >>> r = ToolResult("t", [{"a": ""}], result_columns={"a": "number"})
    >>> [(row.check, row.findings) for row in run_ledger([r, r], "warn").disposition]
    [('column-type-mismatch', 2), ('missing-column', 0)]
    """
    if mode not in CHECK_MODES:
        raise ChartkitError(unknown_mode(mode, CHECK_MODES))
    ledger = DispositionLedger()
    lines: list[RunRow] = []
    for i, result in enumerate(results):
        outcome = check_result(result, mode=mode)
        ledger.add(outcome)
        lines.append(
            RunRow(
                i,
                result.tool,
                result.call_id,
                len(result.rows) if isinstance(result.rows, list) else None,
                _status(outcome),
                tuple(f"{f.kind} ({f.column})" for f in outcome.findings),
            )
        )
    return RunLedger(mode, ledger.rows(), tuple(lines))


def _status(outcome: CheckOutcome) -> str:
    if not outcome.armed:
        return "not measured"
    if outcome.refused:
        return "refused"
    return "findings" if outcome.findings else "clean"


# --- the rows table ---------------------------------------------------------------------------


class _Absent:
    __slots__ = ()


_ABSENT: Any = _Absent()


def display_value(value: Any) -> str | None:
    """A cell of an offending column as JSON text, so ``""`` and ``"1240"`` show their quotes.

    >>> display_value(""), display_value("1240"), display_value(3), display_value(None)
    ('""', '"1240"', '3', 'null')
    """
    if value is _ABSENT:
        return None
    try:
        return json_literal(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError, RecursionError):
        return visible_controls(repr(value))


def cell_text(value: Any, returned: Any = None) -> Any:
    """A date or time value as ISO 8601 text — ``returned``, the text the tool sent, when it is
    text — so a grid shows what was returned, not Arrow's epoch milliseconds; any other value
    as it is.

    >>> cell_text(dt.datetime(2024, 3, 14)), cell_text(dt.datetime(2024, 3, 14), "2024-03-14")
    ('2024-03-14T00:00:00', '2024-03-14')
    >>> cell_text(dt.date(2024, 3, 14)), cell_text(3), cell_text(None)
    ('2024-03-14', 3, None)
    """
    if not isinstance(value, dt.date | dt.time):  # a datetime is a date
        return value
    return returned if isinstance(returned, str) else value.isoformat()


def column_labels(columns: Sequence[str]) -> list[str]:
    r"""Each column's label in a grid, by position, every label told apart from the others.

    A label shows a name's control characters as escapes, so a name holding a NUL and one
    holding the four characters ``\x00`` would read alike (and one would hide the other in a
    grid keyed by label): names that read alike are labelled by their Python literal, and a
    label still taken gets the column's position.

    >>> column_labels(["lun\x00", "lun\\x00", "host"])
    ["'lun\\x00'", "'lun\\\\x00'", 'host']
    """
    plain = [visible_controls(c) for c in columns]
    alike = Counter(plain)
    labels: list[str] = []
    taken: set[str] = set()
    for position, (column, label) in enumerate(zip(columns, plain, strict=True), 1):
        if alike[label] > 1:
            label = visible_controls(repr(column))
        while label in taken:
            label = f"{label} (column {position})"
        taken.add(label)
        labels.append(label)
    return labels


_PICK_HINT = re.compile(r"(?:^|; |\. )(pick [^;]*)$")
"""The advice that ends an axis refusal's reason: ``pick y='lun' to chart lun …``."""


def refused_axis(refused: Any, *, found: bool, drawn: Mapping[str, str]) -> tuple[str, str]:
    """How a column's block names an axis the view did not draw it on: a label, and what
    follows it.

    Under the column's finding (``found``) a refusal the check caused says so in a few words
    instead of repeating the finding, and keeps the API's advice (``pick y=…``). A measure the
    default stepped around, which the advice offers on that very axis, is not drawn there by
    default rather than refused; a column drawn on another axis (``drawn``: column to channel)
    is not said to be undrawn.

    >>> from chartkit.violations import ColumnViolation
    >>> from chartkit.plan.encode import AxisRefusal
    >>> v = ColumnViolation("column-type-mismatch", "lun", "number", False, "", "string", 5, 20)
    >>> r = AxisRefusal("lun", "y", "lun is declared number, but 5 of 20 rows hold string "
    ...     "(first: \"\"), so the chart opens on gb, which has no finding; pick y='lun' to "
    ...     "chart lun with those rows left out.", v)
    >>> label, said = refused_axis(r, found=True, drawn={"gb": "y", "k": "x"})
    >>> print(label, "—", said)  # doctest: +NORMALIZE_WHITESPACE
    not drawn on y by default — for the finding above, the chart opens on gb; pick y='lun' to
    chart lun with those rows left out.
    """
    channel, column, reason = str(refused.channel), str(refused.column), str(refused.reason)
    label = f"{channel} axis refused"
    if not found or refused.violation is None:
        return label, reason
    advice = _PICK_HINT.search(reason)
    hint = advice.group(1) if advice else None
    opened = next((c for c, ch in drawn.items() if ch == channel), None)
    if hint is not None and f"{channel}={column!r}" in hint and column not in drawn:
        opens = f", the chart opens on {opened}" if opened else ""
        return f"not drawn on {channel} by default", f"for the finding above{opens}; {hint}"
    said = (
        f"not drawn on {channel} (it is drawn on {drawn[column]}), for the finding above"
        if column in drawn
        else "not drawn, for the finding above"
    )
    return label, f"{said}; {hint}" if hint else f"{said}."


# --- the declaration editor ------------------------------------------------------------------


def editor_columns(result: ToolResult) -> tuple[str, ...]:
    """The columns the editor offers: declared ones first, then every other column seen."""
    declared = tuple(result.result_columns or ())
    reading = read_rowset(result.rows)
    seen = reading.columns if reading is not None else ()
    return declared + tuple(c for c in seen if c not in declared)


Choice = tuple[str, bool]
"""An editor row: the type (one of COLUMN_TYPES, or UNDECLARED) and the nullable toggle."""


def declaration_from_choices(choices: Mapping[str, Choice]) -> dict[str, Any] | None:
    """The declaration an editor's choices make, in the wire's object form; None if empty.

    >>> declaration_from_choices({"lun": ("number", False), "note": ("(undeclared)", True)})
    {'lun': {'type': 'number', 'nullable': False}}
    """
    out: dict[str, Any] = {}
    for name, (kind, nullable) in choices.items():
        if kind == UNDECLARED:
            continue
        if kind not in COLUMN_TYPES:
            raise ResultColumnsError(
                f"column {name!r} is declared {kind!r}; use one of {', '.join(COLUMN_TYPES)}"
            )
        out[name] = {"type": kind, "nullable": bool(nullable)}
    return out or None


def declaration_json(declaration: Mapping[str, Any] | None) -> str:
    """The declaration as the JSON a tool author pastes into ``resultColumns``.

    One column a line; a column that is not nullable is written in the bare form.

    >>> print(declaration_json({"lun": "number", "note": {"type": "string", "nullable": True}}))
    {
      "lun": "number",
      "note": {"type": "string", "nullable": true}
    }
    """
    if not declaration:
        return "{}"
    from chartkit.columns import normalize_result_columns

    lines = [
        f"  {json_literal(json.dumps(k, ensure_ascii=False))}: "
        + json.dumps(d.to_wire() if d.nullable else d.type)
        for k, d in normalize_result_columns(declaration).items()
    ]
    return "{\n" + ",\n".join(lines) + "\n}"


# --- the MCP server source ---------------------------------------------------------------------


MCP_SERVERS_ENV = "CHARTKIT_EXPLORE_MCP_SERVERS"
"""Environment variable holding the MCP server command lines the page may start, as a JSON
list of strings; ``chartkit explore --mcp-server CMD`` (repeatable) sets it. Unset: the page
offers no MCP source at all."""


def mcp_servers(raw: str | None = None) -> tuple[str, ...]:
    """The MCP server command lines allowed at launch (``MCP_SERVERS_ENV``); none if unset.

    Anything but a JSON list of non-empty strings allows nothing: the page never starts a
    command it was not given at launch.

    >>> mcp_servers('["python examples/mcp_server.py"]'), mcp_servers("python x.py")
    (('python examples/mcp_server.py',), ())
    """
    raw = os.environ.get(MCP_SERVERS_ENV) if raw is None else raw
    try:
        listed = json.loads(raw) if raw else []
    except ValueError:
        return ()
    if not isinstance(listed, list) or not all(isinstance(c, str) and c.strip() for c in listed):
        return ()
    return tuple(dict.fromkeys(listed))


def is_loopback(address: str | None) -> bool:
    """True when Streamlit listens on this machine only (``127.0.0.1``, ``::1``, localhost).

    No address means Streamlit's default: every interface, so not loopback.

    >>> [is_loopback(a) for a in ("127.0.0.1", "localhost", None, "0.0.0.0")]
    [True, True, False, False]
    """
    import ipaddress

    if not address:
        return False
    if address.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def mcp_refusal(address: str | None) -> str:
    """Why the MCP source is refused on a page served off loopback."""
    where = f"on {address!r}" if address else "on every network interface (Streamlit's default)"
    return (
        f"The MCP server source is off: this page is served {where}, so other machines can "
        "load it, and the source starts commands on this one. Serve it on 127.0.0.1 "
        "(chartkit explore --address 127.0.0.1, the default) to use it."
    )


def _not_allowed(command: str) -> str:
    return (
        f"the MCP server {command!r} was not allowed at launch; start the explorer with "
        f"chartkit explore --mcp-server {shlex.quote(command)} to offer it"
    )


@dataclass(frozen=True)
class MCPListing:
    """What ``tools/list`` gave for a command line: the tools, or an error sentence.

    ``problems`` holds the warnings raised while reading (a malformed declaration dropped).
    """

    command: str
    tools: tuple[Any, ...] = ()
    error: str | None = None
    problems: tuple[str, ...] = ()


def mcp_default_command(server: Path | None = None) -> tuple[str, str]:
    """The MCP source's default command line, and what it serves.

    In a checkout: ``examples/mcp_server.py``, the bundled examples with their declarations.
    From an installed wheel (no such file): ``python -m chartkit mcp``, chartkit's own server
    (``chart_rows`` and ``chart_file``).
    """
    server = MCP_EXAMPLE_SERVER if server is None else server
    if server.is_file():
        return (
            shlex.join([sys.executable, str(server)]),
            "the bundled examples with their declarations",
        )
    return (
        shlex.join([sys.executable, "-m", "chartkit", "mcp"]),
        "chartkit's own tools (chart_rows, chart_file)",
    )


def mcp_list_tools(mcp: Any, command: str, *, allowed: Sequence[str]) -> MCPListing:
    """List a stdio server's tools with ``chartkit.mcp.list_tools_sync``; never raises.

    ``command`` must be one of ``allowed`` (the servers named at launch), else nothing starts.
    """
    import warnings

    if command not in allowed:
        return MCPListing(command, error=_not_allowed(command))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            tools = mcp.list_tools_sync(command)
        except ChartkitError as exc:
            return MCPListing(command, error=str(exc))
    problems = tuple(dict.fromkeys(str(w.message) for w in caught))
    return MCPListing(command, tuple(tools), problems=problems)


def mcp_tool_label(tool: Any) -> str:
    """A listed tool in the picker: its name and what it declares (plain text)."""
    name = visible_controls(tool.name)
    if tool.declaration_error:
        return f"{name} — declaration dropped"
    if tool.result_columns is None:
        return f"{name} — undeclared"
    source = declared_by_text(getattr(tool, "declared_by", None))
    said = f", {source}" if source else ""
    return f"{name} — declares {counted(len(tool.result_columns), 'column')}{said}"


def mcp_call_tool(
    mcp: Any, command: str, tool: str, arguments: str, *, allowed: Sequence[str]
) -> tuple[tuple[str, str], Loaded]:
    """Call ``tool`` with ``chartkit.mcp.call_tool_sync``; the answer is read like any source.

    ``command`` must be one of ``allowed`` (the servers named at launch), else nothing starts.
    """
    import warnings

    name = f"{tool} over MCP"
    if command not in allowed:
        return (command, tool), Loaded(name, error=_not_allowed(command))
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError as exc:
        return (command, tool), Loaded(
            name, error=f"the arguments are not JSON ({exc.msg}); give a JSON object like {{}}"
        )
    if not isinstance(args, dict):
        return (command, tool), Loaded(
            name, error=f"the arguments must be a JSON object like {{}}, not {arguments!r}"
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a dropped declaration was reported when listing
        try:
            result = mcp.call_tool_sync(command, tool, args)
        except ChartkitError as exc:
            return (command, tool), Loaded(name, error=str(exc))
    return (command, tool), Loaded(name, (result,))
