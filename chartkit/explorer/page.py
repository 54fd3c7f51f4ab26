"""The explorer's Streamlit page: see a tool result the way chartkit judges it.

``main()`` lays the page out; ``chartkit explore`` runs it through
``chartkit/explorer/streamlit_app.py`` and ``make explore`` through ``app/explorer.py``, both
one-line Streamlit entries. A file named by ``chartkit explore FILE`` arrives in the
``CHARTKIT_EXPLORE_FILE`` environment variable.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pandas as pd
import streamlit as st

from chartkit._highlight import highlighted
from chartkit._literal import file_stem, visible_controls
from chartkit._literal import markdown_literal as md
from chartkit.backends.clauses import Placed, plain_value
from chartkit.check.integrity import check_result
from chartkit.check.judge import check_columns
from chartkit.check.outcome import CHECK_MODES, CheckMode, CheckOutcome
from chartkit.columns import COLUMN_TYPES
from chartkit.errors import ChartkitError
from chartkit.explorer import _logic as ex
from chartkit.messages import (
    COLUMN_TYPE_CEILING,
    NOTHING_CHANGED,
    finding_head,
    not_checked_reason,
    offenders_text,
    unarmed_sentence,
)
from chartkit.options import AGGREGATES, DEFAULT_FORMAT, SCALES, SORTS, TIME_UNITS
from chartkit.read.rowset import read_rowset
from chartkit.read.schemas import declared_by_text
from chartkit.result import ToolResult
from chartkit.selection import RowsPage, Selection, positions_behind
from chartkit.streamlit import BRUSH, MARK, selectable_spec, selection_of, show, violation_line
from chartkit.views import View, view
from chartkit.words import capitalized, counted

__all__ = ["main"]

AUTO = "(automatic)"
LEDGER_TABLE_ROWS = 200  # a run ledger up to this long is a static table whose cells wrap
DIAL_HELP = (
    "The checkColumnTypes setting, named as the specification names it. It decides what "
    "happens when a declared column holds something other than its declared type."
)
MODE_HELP = {
    "off": "nothing measured",
    "warn": "findings filed; the rows pass as returned",
    "enforce": "the rows are refused; a teaching sentence instead",
}


# --- cached work (results are immutable, so they are shared, not copied) ----------------------


@st.cache_resource(max_entries=8, show_spinner=False)
def _load_path(path: str, mtime: float, size: int, limit: int) -> ex.Loaded:
    return ex.load_path(path, limit=limit)


@st.cache_resource(max_entries=4, show_spinner=False)
def _load_data(digest: str, name: str, limit: int, _data: bytes) -> ex.Loaded:
    return ex.load_bytes(_data, name, limit=limit)


@st.cache_resource(max_entries=8, show_spinner=False)
def _redeclared(
    skey: str, index: int, decl: str, _loaded: ex.Loaded, _declaration: dict[str, Any] | None
) -> ToolResult:
    """The picked result under the editor's declaration (a CSV upload's cells read again)."""
    return _loaded.redeclared(index, _declaration)


@st.cache_resource(max_entries=32, show_spinner=False)
def _outcome(rkey: str, decl: str, mode: str, _result: ToolResult) -> CheckOutcome:
    return check_result(_result, mode=mode)  # type: ignore[arg-type]


@st.cache_resource(max_entries=32, show_spinner=False)
def _violations(rkey: str, decl: str, _result: ToolResult) -> dict[str, Any]:
    if _result.result_columns is None or read_rowset(_result.rows) is None:
        return {}
    return {v.column: v for v in check_columns(_result.rows, _result.result_columns)}


def _view(
    rkey: str,
    decl: str,
    mode: str,
    x: str | None,
    y: str | None,
    color: str | None,
    _result: ToolResult,
) -> View:
    """The view with the axes picked and the chart options set under them."""
    return _view_with(rkey, decl, mode, x, y, color, _chart_options(rkey), _result)


@st.cache_resource(max_entries=32, show_spinner=False)
def _view_with(
    rkey: str,
    decl: str,
    mode: str,
    x: str | None,
    y: str | None,
    color: str | None,
    options: str,
    _result: ToolResult,
) -> View:
    more = json.loads(options)
    further = more.pop("more_y", [])
    ys: str | list[str] | None = [*([y] if y else []), *further] if further else y
    return view(_result, mode=mode, x=x, y=ys, color=color, **more)  # type: ignore[arg-type]


_OPTION_WIDGETS = ("facet", "aggregate", "time_unit", "sort", "scale", "zero", "format", "more_y")
ZERO_CHOICES: Final = {"starts at zero": True, "spans the values": False}
"""The measure axis picker's words and the ``zero=`` each means (automatic: ``None``)."""


def _chart_options(rkey: str) -> str:
    """The chart options the widgets under the axes hold, as a JSON key for the cache."""
    out: dict[str, Any] = {}
    for name in _OPTION_WIDGETS:
        value = st.session_state.get(f"chart-{name}:{rkey}")
        if value not in (None, AUTO, "", []):
            out[name] = ZERO_CHOICES[value] if name == "zero" else value
    return json.dumps(out, sort_keys=True)


@st.cache_resource(max_entries=64, show_spinner=False)
def _alternative(rkey: str, decl: str, mode: str, picks: str, _result: ToolResult) -> View:
    """One alternative drawn: the view its picks make."""
    return view(_result, mode=mode, **json.loads(picks))  # type: ignore[arg-type]


def _points(shown: View) -> int:
    """The data points a chart draws (0 for a table)."""
    datasets = (shown.spec or {}).get("datasets") or {}
    return sum(len(d) for d in datasets.values() if isinstance(d, list))


@st.cache_resource(max_entries=8, show_spinner=False)
def _ledger(skey: str, decls: str, mode: str, _results: tuple[ToolResult, ...]) -> ex.RunLedger:
    return ex.run_ledger(_results, mode)  # type: ignore[arg-type]


@st.cache_resource(max_entries=8, show_spinner=False)
def _offending_rows(
    rkey: str, decl: str, _result: ToolResult, columns: tuple[str, ...]
) -> list[int]:
    return ex.offending_rows(_result.rows, _result.result_columns, columns)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _key(name: str) -> str:
    """A widget key part for a name from the data: the name itself when it is plain text, else
    a digest (a control character or a lone surrogate cannot be part of a key)."""
    if visible_controls(name) == name:
        return name
    return "~" + _digest(name.encode("utf-8", "surrogatepass"))


# --- the sidebar: sources -------------------------------------------------------------------


def _source() -> tuple[str, ex.Loaded | None]:
    """The sidebar's source picker; answers a key for the source and what it loaded."""
    env_file = os.environ.get(ex.ENV_FILE)
    sources = ["Bundled example", "Upload a file", "Paste JSON"]
    if env_file:
        sources.insert(0, "File from the command line")
    servers = ex.mcp_servers()
    address = st.get_option("server.address")
    mcp_ok = bool(servers) and ex.is_loopback(address)
    if mcp_ok and importlib.util.find_spec("mcp") is not None:  # imported only when picked
        sources.append("MCP server")
    choice = st.sidebar.radio("Source", sources, key="source")
    _served_note(address, servers)
    limit = ex.max_file_bytes()
    if choice == "File from the command line" and env_file:
        st.sidebar.caption(md(env_file, one_line=True))
        try:
            stat = Path(env_file).stat()
            mtime, size = stat.st_mtime, stat.st_size
        except OSError:
            mtime, size = 0.0, 0
        with st.spinner(f"Reading {Path(env_file).name}…"):
            loaded = _load_path(env_file, mtime, size, limit)
        return f"file:{env_file}:{mtime}", loaded
    if choice == "Upload a file":
        uploaded = st.sidebar.file_uploader(
            "A tool result (.json), a run (.jsonl or a JSON list of results), a bare JSON "
            "array of rows, or a .csv table",
            key="upload",  # every type is taken, so a wrong one is refused in words, not an icon
            help=f"Files up to {ex.size_text(limit)}.",
        )
        if uploaded is None:
            return "upload:none", None
        data = uploaded.getvalue()
        with st.spinner(f"Reading {uploaded.name} ({ex.size_text(len(data))})…"):
            digest = _digest(data)
            loaded = _load_data(digest, uploaded.name, limit, data)
        return f"upload:{digest}", loaded
    if choice == "Paste JSON":
        text = st.sidebar.text_area(
            "Paste a tool result, or a bare JSON array of rows (read as undeclared)",
            key="paste",
            placeholder='[{"logical_unit_number": "", "host_group": "vdi-a"}]',
        )
        if not text.strip():
            return "paste:none", None
        data = text.encode("utf-8")
        digest = _digest(data)
        return f"paste:{digest}", _load_data(digest, "pasted.json", limit, data)
    if choice == "MCP server" and mcp_ok and (mcp := _mcp_module()) is not None:
        return _mcp_source(mcp, servers)
    names = [e.name for e in ex.examples()]
    asked = st.query_params.get("example")
    if "example" not in st.session_state and asked in names:
        st.session_state["example"] = asked  # ?example=NAME opens that example
    name = st.sidebar.selectbox(
        "Bundled example", names, index=names.index(ex.DEFAULT_EXAMPLE), key="example"
    )
    st.query_params["example"] = str(name)
    example = next(e for e in ex.examples() if e.name == name)
    stat = example.path.stat()
    loaded = _load_path(str(example.path), stat.st_mtime, stat.st_size, limit)
    return f"example:{name}", loaded


def _mcp_module() -> Any:
    """``chartkit.mcp`` when it and the ``mcp`` extra are installed, else None."""
    try:
        import chartkit.mcp as mcp
    except ImportError:
        return None
    return mcp


def _served_note(address: str | None, servers: Sequence[str]) -> None:
    """Where the page is served, and whether the MCP source is on — said in the sidebar."""
    bar = st.sidebar
    if not ex.is_loopback(address):
        where = md(address, one_line=True) if address else "every network interface"
        bar.warning(
            f"This page is served on {where}: other machines can load it."
            + (" " + md(ex.mcp_refusal(address)) if servers else ""),
            icon=":material/public:",
        )
        return
    bar.caption(
        f"Served on {md(address, one_line=True)}: this machine only. "
        + (
            f"The MCP server source starts only the {len(servers):,} server"
            f"{'s' if len(servers) != 1 else ''} named at launch."
            if servers
            else "The MCP server source is off; to offer one, start the explorer with "
            '`chartkit explore --mcp-server "COMMAND"`.'
        )
    )


def _mcp_source(mcp: Any, servers: Sequence[str]) -> tuple[str, ex.Loaded | None]:
    """Start one of the MCP servers named at launch, list its tools, call one, show its result.

    The page never takes a command line: only ``chartkit explore --mcp-server CMD`` names one.
    """
    bar = st.sidebar
    command = str(
        bar.selectbox(
            "Server (named at launch with --mcp-server)",
            servers,
            key="mcp-command",
            format_func=visible_controls,
            help="The MCP servers (stdio) this explorer was started with; the page starts "
            "no other command.",
        )
    )
    listed = st.session_state.get("mcp-tools")
    if bar.button("List tools", key="mcp-list"):
        with st.spinner("Starting the server and reading tools/list…"):
            listed = st.session_state["mcp-tools"] = ex.mcp_list_tools(
                mcp, command, allowed=servers
            )
    if listed is None or listed.command != command:
        return "mcp:none", None
    for problem in listed.problems:
        bar.warning(md(problem))
    if listed.error is not None:
        bar.error(md(listed.error))
        return "mcp:none", None
    if not listed.tools:
        bar.info("The server lists no tools.")
        return "mcp:none", None
    names = [t.name for t in listed.tools]
    labels = {t.name: ex.mcp_tool_label(t) for t in listed.tools}
    first = names.index(ex.DEFAULT_EXAMPLE) if ex.DEFAULT_EXAMPLE in names else 0
    tool = bar.selectbox("Tool", names, index=first, format_func=labels.__getitem__, key="mcp-tool")
    arguments = bar.text_input("Arguments (a JSON object)", value="{}", key="mcp-arguments")
    called = st.session_state.get("mcp-called")
    if bar.button("Call tool", key="mcp-call"):
        with st.spinner(f"Calling {tool}…"):
            called = st.session_state["mcp-called"] = ex.mcp_call_tool(
                mcp, command, str(tool), arguments, allowed=servers
            )
    if called is None or called[0] != (command, tool):
        return "mcp:none", None
    loaded: ex.Loaded = called[1]
    call = loaded.results[0].call_id if loaded.results else "failed"
    return _key(f"mcp:{command}:{tool}:{call}"), loaded


# --- the sidebar: result picker, dial, declaration editor ------------------------------------


def _pick_result(skey: str, results: Sequence[ToolResult]) -> int:
    if len(results) == 1:
        return 0
    labels = [ex.result_label(i, r) for i, r in enumerate(results)]
    picked = st.selectbox(
        f"Result ({len(results):,} in this run)",
        range(len(results)),
        format_func=lambda i: labels[i],
        key=f"result:{skey}",
    )
    return int(picked or 0)


def _dial() -> CheckMode:
    mode = st.radio(
        "The dial — what a column of the wrong type does",
        CHECK_MODES,
        index=CHECK_MODES.index(ex.DEFAULT_MODE),
        horizontal=True,
        key="mode",
        captions=[MODE_HELP[m] for m in CHECK_MODES],
        help=DIAL_HELP,
    )
    return mode or ex.DEFAULT_MODE


def _editor(rkey: str, result: ToolResult, *, reread: bool = False) -> dict[str, Any] | None:
    """Per column a type select and a nullable toggle; answers the edited declaration.

    ``reread``: the cells are text from a CSV file, read again by each edited declaration."""
    columns = ex.editor_columns(result)
    declared = result.result_columns or {}
    types = [ex.UNDECLARED, *COLUMN_TYPES]
    keys = {c: (f"decl-type:{rkey}:{_key(c)}", f"decl-null:{rkey}:{_key(c)}") for c in columns}
    for column, (tkey, nkey) in keys.items():  # start from the result's declaration
        decl = declared.get(column)
        st.session_state.setdefault(tkey, decl.type if decl is not None else ex.UNDECLARED)
        st.session_state.setdefault(nkey, decl.nullable if decl is not None else False)

    def reset() -> None:
        for tkey, nkey in keys.values():
            st.session_state.pop(tkey, None)
            st.session_state.pop(nkey, None)

    n = sum(st.session_state.get(tkey) not in (None, ex.UNDECLARED) for tkey, _ in keys.values())
    title = (
        f"Declaration editor — resultColumns: {n:,} of {len(columns):,} column"
        f"{'s' if len(columns) != 1 else ''} declared"
        if n
        else "Declaration editor — nothing is declared: write the resultColumns here"
    )
    box = st.expander(title, expanded=not declared)
    if not columns:
        box.caption("No columns to declare: the rows are not a list of objects.")
        return None
    source = declared_by_text(result.declared_by)
    if declared and source:
        opening = f"Starts from the result's declaration ({source}). "
    elif declared:
        opening = "Starts from the result's declaration. "
    elif n:
        opening = "The result came without a declaration; this one is written here. "
    else:
        opening = "The result declares nothing: pick a type per column to write a declaration. "
    again = "reads the file's cells again by it, then re-runs" if reread else "re-runs"
    box.caption(opening + f"Every edit {again} the check and the view at once.")
    choices: dict[str, tuple[str, bool]] = {}
    per_row = 3
    for start in range(0, len(columns), per_row):
        cells = box.columns(per_row)
        for cell, column in zip(cells, columns[start : start + per_row], strict=False):
            tkey, nkey = keys[column]
            # Widget labels are Markdown on screen and plain text to a screen reader (their
            # aria-label): the name is shown escaped above, and labels the controls as typed
            # when Markdown cannot read it as markup (else escaped there too).
            plain = _aria_label(column)
            cell.markdown(f"**{md(column, one_line=True)}**")
            left, right = cell.columns([3, 2], vertical_alignment="center")
            kind = left.selectbox(plain, types, key=tkey, label_visibility="collapsed")
            with right.container(horizontal=True, vertical_alignment="center", gap="small"):
                nullable = st.toggle(
                    f"{plain} nullable",
                    key=nkey,
                    disabled=kind == ex.UNDECLARED,
                    label_visibility="collapsed",
                )
                st.caption("nullable")
            choices[column] = (kind or ex.UNDECLARED, bool(nullable))
    declaration = ex.declaration_from_choices(choices)
    text = ex.declaration_json(declaration)
    code, buttons = box.columns([4, 1])
    code.code(text, language="json")
    buttons.download_button(
        "Download JSON",
        text,
        file_name=f"{file_stem(result.tool)}.resultColumns.json",
        mime="application/json",
        key=f"decl-download:{rkey}",
        on_click="ignore",
    )
    buttons.button("Reset", on_click=reset, key=f"decl-reset:{rkey}")
    return declaration


_PLAIN_NAME = re.compile(r"[A-Za-z0-9]+(?:[_.\- ][A-Za-z0-9]+)*")
"""A name Markdown shows exactly as written: words joined by one ``_``, ``.``, ``-`` or space."""


def _aria_label(name: str) -> str:
    """A widget label for a column: the name as written when Markdown cannot read it as
    markup (``logical_unit_number``), so a screen reader hears it plainly; else escaped, since
    a label is also rendered (hidden or not) as Markdown."""
    if _PLAIN_NAME.fullmatch(name):
        return name
    return md(name, one_line=True)


# --- the main page -----------------------------------------------------------------------------


def _verdict(outcome: CheckOutcome, result: ToolResult) -> None:
    """The verdict in one line: passes, N findings, refused, or not measured."""
    columns = list(dict.fromkeys(f.column for f in outcome.findings))
    named = ", ".join(repr(c) for c in columns[:4]) + (" …" if len(columns) > 4 else "")
    findings = counted(len(outcome.findings), "finding")
    if not outcome.armed:
        undeclared = result.result_columns is None
        why = not_checked_reason(outcome.mode, declared=not undeclared)
        if undeclared and outcome.mode != "off":
            why += " — declare them in the editor below"
        st.info(md(f"Not measured: {why}."), icon=":material/radio_button_unchecked:")
    elif outcome.refused:
        st.error(
            md(f"Refused under enforce — {findings} on {named}: the model gets the refusal "
               "sentence, not the rows."),
            icon=":material/block:",
        )  # fmt: skip
    elif outcome.findings:
        st.warning(
            md(f"{findings} under {outcome.mode} on {named} — the rows pass as returned; "
               "details below the chart."),
            icon=":material/warning:",
        )  # fmt: skip
    else:
        declared = counted(len(result.result_columns or {}), "declared column")
        st.success(
            md(f"Passes: each of the {declared} holds its declared type in every row — which "
               "is all the check can say (below)."),
            icon=":material/check_circle:",
        )  # fmt: skip


CEILING_REFERENCE = "(What the check can see is said once, under The check.)"


def _without_ceiling(message: str) -> str:
    """A finding's sentence with the ceiling (shown once per page) replaced by a reference."""
    return message.replace(COLUMN_TYPE_CEILING, CEILING_REFERENCE)


def _note_columns(shown: View | None, columns: Sequence[str]) -> dict[str | None, list[str]]:
    """The view's notes by the column each is about — its ``Note.column`` when that column has
    a block on the page, else None (said under the blocks). A note with no value behind it
    (an engine's own, an overflow) is about no column."""
    if shown is None:
        return {}
    column_of = {fact.sentence: fact.column for fact in shown.facts}
    about: dict[str | None, list[str]] = {}
    for note in shown.notes:
        column = column_of.get(note)
        about.setdefault(column if column in columns else None, []).append(note)
    return about


def _check_section(outcome: CheckOutcome, result: ToolResult, shown: View | None) -> None:
    """Each column's finding, refused axis and notes as one block; the ceiling once; the
    disposition rows."""
    st.subheader("The check")
    st.caption(md(f"What the check can see: {COLUMN_TYPE_CEILING}"))
    refusals = list(shown.refusals) if shown is not None else []
    columns = list(
        dict.fromkeys([f.column for f in outcome.findings] + [r.column for r in refusals])
    )
    about = _note_columns(shown, columns)
    drawn = {e.column: c for c, e in shown.encodings.items()} if shown is not None else {}
    # a sentence every finding ends with: said once under the blocks when several would repeat it
    unchanged = sum(NOTHING_CHANGED in f.message for f in outcome.findings) > 1
    for column in columns:
        lines = [f"**Column {md(repr(column), one_line=True)}**"]
        found = [f for f in outcome.findings if f.column == column]
        for finding in found:
            # under enforce the refusal said it; here, only what was found
            if outcome.refused:
                text = _finding_line(finding)
            elif unchanged:  # the ceiling is said atop the section, the rest under the blocks
                text = finding_head(finding.message)
            else:
                text = _without_ceiling(finding.message)
            lines.append(f"**{finding.kind}** — {md(text)}")
            if listed := offenders_text(finding.violation):
                lines.append(f"**Offending values** — {md(listed)}")
        for refused in (r for r in refusals if r.column == column):
            label, said = ex.refused_axis(refused, found=bool(found), drawn=drawn)
            lines.append(f"**{md(label, one_line=True)}** — {md(said)}")
        lines += [f"Note — {md(note)}" for note in about.get(column, [])]
        with st.container(border=True):
            st.markdown("\n\n".join(lines))
    if unchanged and not outcome.refused:
        st.caption(md(f"Each of the above also says: {NOTHING_CHANGED}"))
    for note in about.get(None, []):
        st.caption(md(note))
    if not outcome.armed:
        st.caption(md(unarmed_sentence(outcome.mode)))
    st.markdown("**Disposition** — the two checks this result filed")
    _disposition(outcome.disposition, key="disposition")


def _finding_line(finding: Any) -> str:
    return violation_line(finding.violation)


TABLE_CSS = """<style>
[data-testid="stTable"] table { width: 100%; }
@media (max-width: 640px) { h1 { font-size: 2rem !important; overflow-wrap: anywhere; } }
[data-testid="stTable"] :is(th, td) { white-space: normal !important; }
[data-testid="stTable"] :is(th, td) * {
  overflow-wrap: anywhere !important; white-space: normal !important;
}
[data-testid="stButton"] button, [data-testid="stButton"] button * {
  overflow-wrap: anywhere !important; white-space: normal !important; height: auto;
}
</style>"""
"""Static tables and buttons fit their container at any width: a long cell or label (an
alternative's name) wraps, even mid-word."""


DISPOSITION_GLOSS = (
    "One row per check, in the disposition report's own words: seam `write` — the check runs "
    "where a tool's answer is written into the run; checked — results it measured; findings — "
    "results it filed a finding on; notApplicable — results it could not measure (the dial "
    "off, no declaration, or rows it cannot read); lastFiredAt — when it last filed a finding "
    "(UTC)."
)
"""What the disposition table's column names mean, said under each such table."""


def _disposition(rows: Sequence[Any], *, key: str) -> None:
    """The disposition rows as a static table the width of the page (every cell visible)."""
    frame = pd.DataFrame(ex.disposition_table(rows)).fillna({"lastFiredAt": "—"})
    st.table(frame, hide_index=True)
    st.caption(DISPOSITION_GLOSS)


def _ledger_section(skey: str, results: Sequence[ToolResult], mode: CheckMode) -> None:
    decls = json.dumps([ex.declaration_json(r.result_columns) for r in results])
    ledger = _ledger(skey, decls, mode, tuple(results))
    st.subheader(f"Run ledger — {len(results):,} results under {mode}")
    table = pd.DataFrame(ledger.table())
    if len(table) <= LEDGER_TABLE_ROWS:  # a static table: long cells wrap, nothing is cut off
        st.table(table, hide_index=True)
    else:
        st.dataframe(
            table,
            hide_index=True,
            key="run-results",
            column_config={"findings": st.column_config.TextColumn(width="large")},
        )
    st.markdown("**Disposition, summed over the run** (a DispositionLedger of every result)")
    _disposition(ledger.disposition, key="run-ledger")


def _pickers(rkey: str, result: ToolResult) -> tuple[str | None, str | None, str | None]:
    options = [AUTO, *ex.editor_columns(result)]
    picked: list[str | None] = []
    for column, channel in zip(st.columns(3), ("x", "y", "color"), strict=True):
        value = column.selectbox(
            channel, options, key=f"axis-{channel}:{rkey}", format_func=visible_controls
        )
        picked.append(None if value in (None, AUTO) else value)
    _option_pickers(rkey, result)
    return picked[0], picked[1], picked[2]


def _option_pickers(rkey: str, result: ToolResult) -> None:
    """facet, aggregate, time unit, sort, scale, the measure axis (zero), format, and further
    measures."""
    columns = [*ex.editor_columns(result)]
    facet, aggregate, unit, sort = st.columns(4)
    facet.selectbox("facet", [AUTO, *columns], key=f"chart-facet:{rkey}",
                    format_func=visible_controls)  # fmt: skip
    aggregate.selectbox("aggregate", [AUTO, *AGGREGATES], key=f"chart-aggregate:{rkey}")
    unit.selectbox("time unit", [AUTO, *TIME_UNITS], key=f"chart-time_unit:{rkey}")
    sort.selectbox("sort", [AUTO, *SORTS], key=f"chart-sort:{rkey}")
    scale, zero, fmt, more = st.columns([1, 1, 1, 2])
    scale.selectbox("scale", [AUTO, *SCALES], key=f"chart-scale:{rkey}")
    zero.selectbox(
        "measure axis", [AUTO, *ZERO_CHOICES], key=f"chart-zero:{rkey}",
        help="Bars always start at zero; a line or a scatter may span its values.",
    )  # fmt: skip
    fmt.text_input("format (d3)", key=f"chart-format:{rkey}", placeholder=DEFAULT_FORMAT)
    more.multiselect("more measures (y)", columns, key=f"chart-more_y:{rkey}",
                     format_func=visible_controls)  # fmt: skip


def _alternatives(rkey: str, decl: str, mode: CheckMode, result: ToolResult, shown: View) -> None:
    """The other charts the declared types allow: one click draws one.

    Only those that draw more than one mark: a single mark is not a chart, and the view may
    have just said that every chart of these rows would be one."""
    alternatives = []
    for i, alternative in enumerate(shown.alternatives):
        picks = json.dumps(alternative.picks(), sort_keys=True)
        with contextlib.suppress(ChartkitError):
            drawn = _alternative(rkey, decl, mode, picks, result)
            if drawn.kind == "chart" and _points(drawn) > 1:
                alternatives.append((i, alternative))
    if not alternatives:
        return
    st.markdown("**Other charts these declared types allow**")
    for row in range(0, len(alternatives), 2):  # two a row: each label read whole
        shelf = alternatives[row : row + 2]
        for column, (i, alternative) in zip(st.columns(2), shelf, strict=False):
            with column:  # a labelled choice: tiny thumbnails of like charts looked alike
                st.button(
                    md(_alternative_label(alternative), one_line=True),
                    key=f"alternative-{i}:{rkey}",
                    help=md(alternative.reason),
                    on_click=_choose,
                    args=(rkey, alternative.picks()),
                    width="stretch",
                )
                st.caption(md(alternative.reason))


def _alternative_label(alternative: Any) -> str:
    """An alternative named by its chart and its columns: ``count bars of volume``,
    ``scatter of size_gb × used_pct, by thin`` — so two of one kind read apart."""
    picks = alternative.picks()
    ys = picks.get("y")
    columns = [picks.get("x"), *(ys if isinstance(ys, list) else [ys])]
    label = f"{alternative.chart} of {' × '.join(c for c in columns if c)}"
    for word, name in (("by", "color"), ("per", "facet")):
        if picks.get(name):
            label += f", {word} {picks[name]}"
    return visible_controls(label)


def _choose(rkey: str, picks: dict[str, Any]) -> None:
    """Set the pickers to an alternative's picks; every other option back to automatic."""
    state = st.session_state
    ys = picks.get("y")
    first, rest = (ys[0], ys[1:]) if isinstance(ys, list) else (ys, [])
    for channel, value in (("x", picks.get("x")), ("y", first), ("color", picks.get("color"))):
        state[f"axis-{channel}:{rkey}"] = value if value is not None else AUTO
    for name in _OPTION_WIDGETS:
        state[f"chart-{name}:{rkey}"] = [] if name == "more_y" else "" if name == "format" else AUTO
    state[f"chart-more_y:{rkey}"] = rest
    for name in ("facet", "aggregate"):
        if picks.get(name) is not None:
            state[f"chart-{name}:{rkey}"] = picks[name]


def _view_section(
    rkey: str,
    decl: str,
    mode: CheckMode,
    result: ToolResult,
    outcome: CheckOutcome,
    returned: Sequence[Mapping[str, Any]] | None = None,
) -> View | None:
    """The chart (or the table's reason, or the refusal) first; its axes and exports under it.
    ``returned``: the rows as text (a CSV file's cells), for the rows behind a selection."""
    chart_box, controls = st.container(), st.container()
    with controls:
        x, y, color = _pickers(rkey, result)
    with chart_box:
        try:
            with st.spinner("Charting…"):
                shown = _view(rkey, decl, mode, x, y, color, result)
        except ChartkitError as exc:
            st.error(md(exc))
            return None
        if shown.kind == "refused":  # what the model reads instead of the rows
            st.error(md(outcome.refusal or shown.reason))
            st.caption(
                "No chart: under enforce the rows are refused. Turn the dial to warn or off to "
                "see them charted."
            )
        else:
            show(shown, check=False, table=False, details=False, key=f"chart:{rkey}",
                 on_select=True)  # fmt: skip
        if shown.kind == "table":
            st.caption("The rows are in the table below.")
        elif shown.kind == "chart":
            with _guard("The rows behind the selection"):
                _behind_section(rkey, decl, result, shown, returned)
    with controls:
        drawn = {e.column for e in shown.encodings.values()}
        refused = {r.column for r in shown.refusals}
        for channel, pick in (("x", x), ("y", y), ("color", color)):
            if pick is not None and pick not in drawn and pick not in refused:
                st.warning(f"You picked {md(pick)} for {channel}; the view does not draw it.")
        _downloads(rkey, result, shown)
        _alternatives(rkey, decl, mode, result, shown)
    return shown


SELECTED_ROWS = 200
"""The rows behind a selection are shown a page of at most this many at a time."""
SELECT_HINTS = {
    (True, True): "Click a mark, or drag across the chart, to see the rows behind it; "
    "double-click the chart to clear the selection.",
    (True, False): "Click a mark to see the rows behind it; double-click the chart to clear "
    "the selection.",
    (False, True): "Drag across the chart to see the rows behind that range; double-click it to "
    "clear the selection.",
}
"""What the chart can be asked, by the selections it has (a click on a mark, a brush)."""


def _selection(rkey: str, shown: View) -> tuple[Selection | None, str | None]:
    """What the chart reports selected — else the rows left out, when asked for — and, when
    the chart's selection names no mark of this view (the chart was redrawn), why."""
    try:
        picked = selection_of(shown, st.session_state.get(f"chart:{rkey}"))
    except ChartkitError as exc:
        return None, str(exc)
    if picked is None and shown.left_out and st.session_state.get(f"left-out:{rkey}"):
        picked = Selection.left_out(shown)
    return picked, None


@st.cache_resource(max_entries=16, show_spinner=False)
def _behind(
    rkey: str, decl: str, spec_key: str, chosen: str, page: int, _shown: View, _picked: Selection
) -> RowsPage:
    """One page of the rows behind the selection, offenders marked and counted."""
    return _shown.rows_behind(_picked, page=page, page_size=SELECTED_ROWS)


@st.cache_resource(max_entries=16, show_spinner=False)
def _behind_findings(
    rkey: str, decl: str, spec_key: str, chosen: str, _shown: View, _picked: Selection
) -> tuple[Any, ...]:
    """The check of every row behind the selection: the findings for just those rows, once
    per selection (not per page). In memory only — the rows as the tool sent them; an engine's
    rows are counted by ``rows_behind`` instead. The rows are the ones ``rows_behind`` found:
    the view keeps that evaluation, so a click evaluates the selection once."""
    rows = _shown.result.rows
    if not isinstance(rows, list) or _shown.frame is None or len(_shown.frame) != len(rows):
        return ()
    positions = positions_behind(_shown, _picked)
    return check_columns([rows[int(i)] for i in positions], _shown.result.result_columns or {})


def _behind_section(
    rkey: str,
    decl: str,
    result: ToolResult,
    shown: View,
    returned: Sequence[Mapping[str, Any]] | None = None,
) -> None:
    """Under the chart: the rows behind the clicked mark or the brushed range (or the rows
    left out), each offending cell highlighted, the offenders counted, and the findings for
    just those rows. ``returned``: the rows as text (a CSV file's cells), for their dates."""
    names = {p.get("name") for p in _params(selectable_spec(shown))}
    hint = SELECT_HINTS.get((MARK in names, BRUSH in names), "")
    picked, stale = _selection(rkey, shown)
    if stale is not None:  # a selection made on the chart as it was before a change
        stale = "The selection names no mark of the chart as it is now; select again."
    if shown.left_out:
        st.toggle(
            f"Show the {counted(shown.left_out, 'row')} left out of the chart",
            key=f"left-out:{rkey}",
            help="Rows the chart does not place: a value not of its declared type on an axis, "
            "a number no chart can place, no value on a measure or time axis.",
        )
    if picked is None:
        st.caption(md(stale) + " " + hint if stale else hint)
        return
    chosen = json.dumps(picked.to_dict(), sort_keys=True, default=str)
    spec_key = _digest(json.dumps(shown.spec, sort_keys=True, default=str).encode("utf-8"))
    page = 0
    behind = _behind(rkey, decl, spec_key, chosen, page, shown, picked)
    found = _behind_findings(rkey, decl, spec_key, chosen, shown, picked)
    left = _left_out_within(rkey, decl, spec_key, chosen, shown, picked)
    # said first: what was selected, its count and findings; then the page picker, the table
    summary, again_box = st.container(), st.container()
    if behind.pages > 1:
        page = int(
            st.number_input(
                f"Page of the rows behind the selection (of {behind.pages:,})",
                min_value=1, max_value=behind.pages, value=1, key=f"behind-page:{rkey}:{chosen}",
            )
        ) - 1  # fmt: skip
        if page:
            behind = _behind(rkey, decl, spec_key, chosen, page, shown, picked)
    with summary:
        _behind_summary(picked, behind, found, left)
    if not behind.total:
        return
    if picked.kind == "interval":
        with again_box:
            _charted_again(rkey, decl, spec_key, chosen, shown, picked)
    offending = {c: n for c, n in behind.offenders.items() if n}
    rows = result.rows
    if isinstance(rows, list):  # in memory: the rows as the tool sent them
        columns: Sequence[str] = ex.editor_columns(result)
        picked_rows = [rows[i] for i in behind.index]
        violations: Mapping[str, Any] = {v.column: v for v in found}
        texts = [returned[i] for i in behind.index] if returned is not None else None
    else:  # an engine's page: its values made plain, offending cells shown as returned
        columns = [str(c) for c in behind.rows.columns]
        picked_rows = [
            {str(k): plain_value(v) for k, v in record.items()}
            for record in behind.rows.to_dict(orient="records")
        ]
        whole = _violations(rkey, decl, result)
        violations = {c: whole.get(c) for c in offending}
        texts = None
    frame, config, labels = _rows_frame(picked_rows, columns, result, violations, returned=texts)
    frame.index = pd.Index([i + 1 for i in behind.index], name="row")
    marks = {
        labels[c]: [c in cells for cells in behind.offending] for c in offending if c in labels
    }
    if behind.pages > 1:
        first = page * SELECTED_ROWS
        st.caption(
            f"Rows {first + 1:,}–{first + len(behind.index):,} of the {behind.total:,} behind "
            "the selection."
        )
    styled: Any = highlighted(frame, marks) if marks else frame
    st.dataframe(styled, column_config=config, key=f"behind:{rkey}")


@dataclass(frozen=True)
class LeftOutWithin:
    """Rows a selection's own clauses hold of that the chart left out: how many, and the
    view's sentences saying why, for the columns that left them out."""

    rows: int = 0
    why: tuple[str, ...] = ()


_LEFT_OUT_KINDS = ("left-out", "no-value", "unplaced")
"""The notes that say why rows are not drawn."""


@st.cache_resource(max_entries=16, show_spinner=False)
def _left_out_within(
    rkey: str, decl: str, spec_key: str, chosen: str, _shown: View, _picked: Selection
) -> LeftOutWithin:
    """The rows a clicked mark's or a brushed range's own clauses hold of (its category, its
    range) that the chart does not place, so they are not behind it, and why.

    Counted where the rows are (``rows_behind``): the selection with only the placement of the
    columns it names, against the selection as drawn; each other column whose placement
    leaves some of them out adds the view's notes about it."""
    if not _shown.left_out or _picked.kind not in ("mark", "interval"):
        return LeftOutWithin()
    own = [c for c in _picked.clauses if not isinstance(c, Placed)]
    named = {c.column for c in own}
    placed = [c for c in _picked.clauses if isinstance(c, Placed)]
    kept = [p for p in placed if p.column in named or p.optional]
    judged = [p for p in placed if p.column not in named and not p.optional]
    if not judged:
        return LeftOutWithin()

    def count(*clauses: Any) -> int:
        selection = Selection((*clauses, *own), _picked.kind)
        return _shown.rows_behind(selection, page_size=1).total

    within = count(*kept)
    rows = within - count(*kept, *judged)
    if rows <= 0:
        return LeftOutWithin()
    why: list[str] = []
    for p in judged:
        if len(judged) == 1 or count(*kept, p) < within:
            why += [
                n.sentence
                for n in _shown.facts
                if n.column == p.column and n.kind in _LEFT_OUT_KINDS
            ] or [f"{p.column} holds no value the chart can place on its axis."]
    return LeftOutWithin(rows, tuple(dict.fromkeys(why)))


def _behind_summary(
    picked: Selection, behind: RowsPage, found: Sequence[Any], left: LeftOutWithin
) -> None:
    """What was selected and how many rows are behind it; the check of just those rows; the
    offending cells among the rows of this page, counted; the rows the selection holds that
    the chart left out, and why."""
    what = "The rows left out of the chart" if picked.kind == "left-out" else (
        f"The rows behind {picked.describe()}"
    )  # fmt: skip
    offending = {c: n for c, n in behind.offenders.items() if n}
    bad = sum(1 for cells in behind.offending if cells)
    st.markdown(f"**{md(what, one_line=True)}** — {counted(behind.total, 'row')}")
    for v in found:  # the check of just these rows: first offender, offending values, counts
        listed = offenders_text(v)
        st.warning(
            md(f"For these rows: {violation_line(v)}")
            + (f"\n\nOffending values: {md(listed)}" if listed else ""),
            icon=":material/warning:",
        )
    if offending and not found:  # rows an engine holds: the counts it gave
        counts = ", ".join(f"{md(c, one_line=True)} {n:,}" for c, n in offending.items())
        st.caption(f"Offending cells among them, per column: {counts}.")
    if bad:
        st.caption(
            f"Offending cells are highlighted: {bad:,} of the {counted(len(behind.index), 'row')} "
            f"shown {'holds' if bad == 1 else 'hold'} one."
        )
    elif behind.total:
        st.caption("No cell of these rows breaks the declaration.")
    if left.rows:
        where = "in this range" if picked.kind == "interval" else "of this mark"
        verb = "is" if left.rows == 1 else "are"
        st.info(
            md(
                f"{counted(left.rows, 'row')} {where} {verb} left out of the chart, so not among "
                f"the rows above: " + " ".join(left.why)
            ),
            icon=":material/visibility_off:",
        )


@st.cache_resource(max_entries=4, show_spinner=False)
def _drilled(
    rkey: str, decl: str, spec_key: str, chosen: str, _shown: View, _picked: Selection
) -> View:
    """The brushed rows charted again (``View.drill``), once per selection."""
    return _shown.drill(_picked)


def _charted_again(
    rkey: str, decl: str, spec_key: str, chosen: str, shown: View, picked: Selection
) -> None:
    """A brushed range as a chart of its own: the same picks, reduced anew over its rows."""
    if not st.toggle(
        "Chart these rows",
        key=f"drill:{rkey}:{chosen}",
        help="The rows of the brushed range as a chart of their own: the same columns and "
        "declaration, their time buckets made anew from just these rows.",
    ):
        return
    with st.spinner("Charting these rows…"):
        again = _drilled(rkey, decl, spec_key, chosen, shown, picked)
    st.caption(md(again.reason))
    show(again, check=False, table=False, details=True, key=f"drilled:{rkey}")


def _params(spec: dict[str, Any]) -> list[dict[str, Any]]:
    unit = spec["spec"] if isinstance(spec.get("spec"), dict) else spec
    params: list[dict[str, Any]] = unit.get("params", [])
    return params


def _downloads(rkey: str, result: ToolResult, shown: View) -> None:
    stem = file_stem(result.tool)
    chart = shown.spec is not None
    drawn = chart or shown.kind == "table"  # a table exports as one, under its reason
    help_none = (
        "Nothing to export: the view was refused."
        if shown.kind == "refused"
        else "No Vega-Lite spec: the view is a table."
    )
    exports: list[tuple[str, Callable[[], Any] | str, str, str, bool]] = [
        ("PNG", shown.to_png, f"{stem}.png", "image/png", drawn),
        ("SVG", shown.to_svg, f"{stem}.svg", "image/svg+xml", drawn),
        ("HTML", shown.to_html, f"{stem}.html", "text/html", drawn),
        (
            "Vega-Lite spec",  # as every export writes it: with the caption on the image
            json.dumps(shown.exported_spec(), indent=2, default=str) if chart else "",
            f"{stem}.vl.json",
            "application/json",
            chart,
        ),
        (
            "View payload",
            lambda: json.dumps(shown.to_dict(), indent=2, default=str),
            f"{stem}.view.json",
            "application/json",
            True,
        ),
    ]
    for column, (label, data, name, mime, enabled) in zip(
        st.columns(len(exports)), exports, strict=True
    ):
        column.download_button(
            label,
            data,
            file_name=name,
            mime=mime,
            disabled=not enabled,
            help=None if enabled else help_none,
            key=f"download-{label}:{rkey}",
            on_click="ignore",
        )


def _rows_section(
    rkey: str,
    decl: str,
    result: ToolResult,
    mode: CheckMode,
    returned: Sequence[Mapping[str, Any]] | None = None,
) -> None:
    """The rows as returned, a window at a time, offending cells highlighted. ``returned``:
    the rows as text when the result's rows were parsed from it (a CSV file's cells)."""
    st.subheader("The rows as returned")
    if mode == "enforce" and _violations(rkey, decl, result):
        st.caption(
            "Under enforce the model never sees these rows; they are shown here so you can "
            "see what was refused."
        )
    rows = result.rows
    reading = read_rowset(rows)
    from chartkit.read.engines import EngineReading, head  # an engine's table: a bounded head only

    if isinstance(reading, EngineReading):
        st.caption(
            f"{reading.total:,} rows stay in {reading.engine}: the check and the chart ran there "
            f"as queries. The first {ex.STYLED_ROWS:,} rows are shown."
        )
        st.dataframe(head(reading, ex.STYLED_ROWS), hide_index=True)
        return
    if reading is None or reading.rows is None:
        st.info(
            md(
                f"{capitalized(not_checked_reason('warn', declared=True))}: it holds "
                f"{type(rows).__name__}, so the check files it not applicable. Shown as JSON."
            )
        )
        st.json(rows if not isinstance(rows, list) else rows[:200], expanded=False)
        return
    violations = _violations(rkey, decl, result)
    columns = ex.editor_columns(result)
    total = reading.total
    indexes: Sequence[int] = range(total)
    if violations:
        only = st.toggle(
            "Only rows with an offending cell",
            key=f"only-bad:{rkey}",
            help="Rows where at least one declared column holds something else.",
        )
        if only:
            indexes = _offending_rows(rkey, decl, result, tuple(violations))
    start = 0
    if len(indexes) > ex.STYLED_ROWS:
        start = (
            int(
                st.number_input(
                    "First row of the window",
                    min_value=1,
                    max_value=len(indexes),
                    value=1,
                    step=ex.STYLED_ROWS,
                    key=f"start:{rkey}",
                )
            )
            - 1
        )
    window = [int(i) for i in indexes[start : start + ex.STYLED_ROWS]]
    picked = [rows[i] for i in window]
    texts = [returned[i] for i in window] if returned is not None else None
    frame, config, labels = _rows_frame(picked, columns, result, violations, returned=texts)
    frame.index = pd.Index([i + 1 for i in window], name="row")
    marks = ex.offending_cells(picked, result.result_columns, list(violations))
    if len(window) < len(indexes) or len(indexes) < total:
        st.caption(
            f"Rows {start + 1:,}–{start + len(window):,} of {len(indexes):,}"
            + (f" offending rows ({total:,} in all)" if len(indexes) < total else "")
            + f": the table shows a window of at most {ex.STYLED_ROWS:,} rows, so "
            "highlighting stays fast; move the window to see others."
        )
    if violations:
        bad = ", ".join(md(c, one_line=True) for c in violations)
        st.caption(
            f"Cells that break the declaration are highlighted ({bad}); those columns are "
            'shown as JSON, so an empty string reads `""` and a quoted number `"1240"`. '
            "The highlight follows the declaration, whatever the dial says."
        )
    if any(c not in r for r in picked for c in columns):
        st.caption(
            f"`null` is a key that holds null; `{ex.ABSENT_TEXT}` is a row without the key. "
            "The check reads both as absent."
        )
    marks = {labels[k]: v for k, v in marks.items()}
    styled: Any = highlighted(frame, marks) if marks else frame
    st.dataframe(styled, column_config=config, key=f"rows:{rkey}")


def _rows_frame(
    rows: Sequence[dict[str, Any]],
    columns: Sequence[str],
    result: ToolResult,
    violations: Mapping[str, Any],
    *,
    returned: Sequence[Mapping[str, Any]] | None = None,
) -> tuple[pd.DataFrame, dict[str, Any], dict[str, str]]:
    """The window as a frame, a column config from the declared types, and each column's
    label in the frame.

    The frame is keyed by position: each column gets its own label (``ex.column_labels``), so
    two names that read alike both show. A column in ``violations`` (its violation, or None
    when only its offending cells are known) is shown as JSON, quotes and all, as the tool
    returned it. A date or time is ISO text: the cell of ``returned`` (the rows as text, a CSV
    file's cells) when given, so it reads as the file wrote it.
    """
    declared = result.result_columns or {}
    labels = dict(zip(columns, ex.column_labels(columns), strict=True))
    texts = returned if returned is not None else [{}] * len(rows)
    data: dict[str, list[Any]] = {}
    config: dict[str, Any] = {}
    cc = st.column_config
    for column in columns:
        name = labels[column]
        present = [column in r for r in rows]
        values = [
            ex.cell_text(r.get(column), t.get(column)) for r, t in zip(rows, texts, strict=True)
        ]
        decl = declared.get(column)
        kinds = {type(v) for v in values if v is not None}
        absent = not all(present)  # shown as text: ‹absent› is not null
        if (
            column in violations
            or absent
            or len(kinds) > 1
            or kinds & {dict, list}
            or _wide_ints(values)
        ):
            data[name] = [
                ex.display_value(v) if p else ex.ABSENT_TEXT
                for v, p in zip(values, present, strict=True)
            ]
            if column in violations:
                config[name] = cc.TextColumn(f"⚠ {name}", help=_offending_help(violations[column]))
            else:
                config[name] = cc.TextColumn(name, help=_declared_help(decl))
            continue
        data[name] = [visible_controls(v) if isinstance(v, str) else v for v in values]
        if decl is None:
            config[name] = cc.Column(name, help="not declared")
        elif decl.type == "number":
            config[name] = cc.NumberColumn(name, help=_declared_help(decl))
        elif decl.type == "boolean":
            config[name] = cc.CheckboxColumn(name, help=_declared_help(decl))
        elif decl.type == "date":
            config[name] = cc.TextColumn(
                name, help=_declared_help(decl) + " (ISO 8601 text, as returned)"
            )
        else:
            config[name] = cc.TextColumn(name, help=_declared_help(decl))
    frame = pd.DataFrame(data, columns=list(data))
    return frame, config, labels


def _offending_help(violation: Any) -> str:
    """A flagged column's tooltip: its violation's line and offending values, or (an engine's
    rows, counted there) that some of its cells break the declaration."""
    if violation is None:
        return "Some cells of this column break the declaration; they are highlighted."
    listed = offenders_text(violation)
    return md(violation_line(violation) + (f" · offending values: {listed}" if listed else ""))


def _wide_ints(values: Sequence[Any]) -> bool:
    """True when an integer does not fit 64 bits (Arrow cannot hold it; shown as text)."""
    return any(type(v) is int and not -(2**63) <= v < 2**63 for v in values)


@contextlib.contextmanager
def _guard(part: str) -> Iterator[None]:
    """One part of the page failing must not take the rest down: say so, and go on."""
    try:
        yield
    except Exception as exc:  # the sections below it still render
        st.error(
            md(
                f"{part} could not be shown ({type(exc).__name__}: {exc}). The rest of the page "
                "still works; please report this with the input that caused it."
            )
        )


def _declared_help(decl: Any) -> str:
    if decl is None:
        return "not declared"
    return f"declared {decl.type}" + (", nullable" if decl.nullable else "")


def main() -> None:
    st.set_page_config(page_title="chartkit explorer", page_icon="📊", layout="wide")
    st.sidebar.title("chartkit explorer")
    if _chart_first() and (opening := _opening_source()) is not None:
        first_key, first = opening  # the sidebar's widgets are drawn by the run after this one
        _chart_only(f"{first_key}#0", ex.DEFAULT_MODE, first.results[0], first)
        return
    st.html(TABLE_CSS)  # the page's own constant style; no data reaches it
    skey, loaded = _source()
    picker_box, dial_box = st.sidebar.container(), st.sidebar.container()
    with dial_box:
        mode = _dial()
    if loaded is None:
        st.title("chartkit explorer", anchor=False)
        st.info("Choose a file, or paste JSON, in the sidebar.")
        return
    if not loaded.results:
        st.title("chartkit explorer", anchor=False)
        st.error(md(loaded.error or f"{loaded.name} holds no tool result."))
        st.caption("Nothing to show from this source; the other sources still work.")
        return
    results = list(loaded.results)
    with picker_box:
        index = _pick_result(skey, results)
    original = results[index]
    rkey = f"{skey}#{index}"
    # The page reads top down: who and what, the verdict, the chart, then the details. The
    # editor sits below them but runs first, since its choices are the declaration.
    header, verdict, chart, details, ledger, editor, rows = (st.container() for _ in range(7))
    with editor:
        declaration = _editor(rkey, original, reread=loaded.csv is not None)
    try:
        result = _redeclared(skey, index, ex.declaration_json(declaration), loaded, declaration)
    except ChartkitError as exc:  # the editor cannot make one, but never break the page
        st.error(md(exc))
        result = original
    results[index] = result
    decl = ex.declaration_json(result.result_columns)
    returned = _as_returned(loaded, index, result)

    with header:
        _header(result, loaded)
    with st.spinner("Checking…"):
        outcome = _outcome(rkey, decl, mode, result)
    with verdict:
        _verdict(outcome, result)
    shown: View | None = None
    with chart, _guard("The view"):
        shown = _view_section(rkey, decl, mode, result, outcome, returned)
    with details, _guard("The check"):
        _check_section(outcome, result, shown)
    if len(results) > 1:
        with ledger, _guard("The run ledger"):
            _ledger_section(skey, results, mode)
    with rows, _guard("The rows"):
        _rows_section(rkey, decl, result, mode, returned)


def _as_returned(
    loaded: ex.Loaded, index: int, result: ToolResult
) -> Sequence[Mapping[str, Any]] | None:
    """A CSV file's rows as the file wrote them (its reading before any declaration: every
    cell text), beside ``result``'s rows parsed by the declaration; None for other sources."""
    if loaded.csv is None:
        return None
    text, rows = loaded.results[index].rows, result.rows
    if isinstance(text, list) and isinstance(rows, list) and len(text) == len(rows):
        return text
    return None


CHART_FIRST_KEY = "chart-first:done"
DETAILS_PENDING = "Loading the check, the controls and the rows…"
"""Shown under the chart while the rest of the opening page is on its way."""
DETAILS_AFTER = 0.5
"""Seconds after the chart is sent that the browser asks for the rest of the opening page."""


def _chart_first() -> bool:
    """True on a browser session's first run: the page sends the verdict and the chart alone,
    and the browser asks for the rest once it has them.

    Streamlit draws a chart only after the elements sent with it are laid out, and the opening
    page's editor, controls, thumbnails and rows table take seconds to lay out in the browser;
    sent first and alone, the chart is drawn as soon as a plain app's. A run without a browser
    (``AppTest``: no request headers) renders the whole page at once.
    """
    if st.session_state.get(CHART_FIRST_KEY) or not st.context.headers:
        return False
    return True


def _opening_source() -> tuple[str, ex.Loaded] | None:
    """What a browser's first run shows, read without the sidebar's widgets (their defaults):
    the file named on the command line, else the example the address names (``?example=``),
    else the first example. None when that holds no result (the full page says why)."""
    limit = ex.max_file_bytes()
    env_file = os.environ.get(ex.ENV_FILE)
    if env_file:
        try:
            stat = Path(env_file).stat()
            mtime, size = stat.st_mtime, stat.st_size
        except OSError:
            return None
        skey = f"file:{env_file}:{mtime}"
        with st.spinner(f"Reading {Path(env_file).name}…"):
            loaded = _load_path(env_file, mtime, size, limit)
    else:
        found = {e.name: e for e in ex.examples()}
        asked = st.query_params.get("example")
        example = found.get(asked or "") or found.get(ex.DEFAULT_EXAMPLE)
        if example is None:
            return None
        stat = example.path.stat()
        skey = f"example:{example.name}"
        loaded = _load_path(str(example.path), stat.st_mtime, stat.st_size, limit)
    return (skey, loaded) if loaded.results else None


def _chart_only(rkey: str, mode: CheckMode, result: ToolResult, loaded: ex.Loaded) -> None:
    """The opening page's first run: who and what, the verdict and the chart — the editor's
    starting declaration is the result's own, the pickers are automatic — then, half a second
    later, a full run (asked for by the browser) adds everything else in the same places."""
    decl = ex.declaration_json(result.result_columns)
    header, verdict, chart, details_box = (st.container() for _ in range(4))
    with header:
        _header(result, loaded)
    outcome = _outcome(rkey, decl, mode, result)
    with verdict:
        _verdict(outcome, result)
    with chart, _guard("The view"), st.container():  # where _view_section draws it
        with st.spinner("Charting…"):
            shown = _view_with(rkey, decl, mode, None, None, None, "{}", result)
        if shown.kind == "refused":
            st.error(md(outcome.refusal or shown.reason))
        else:
            show(shown, check=False, table=False, details=False, key=f"chart:{rkey}",
                 on_select=True)  # fmt: skip
    with details_box:
        st.caption(DETAILS_PENDING)

    @st.fragment(run_every=DETAILS_AFTER)
    def details() -> None:  # its first call is this run; its next is the browser asking
        if st.session_state.get("chart-first:sent"):
            st.session_state[CHART_FIRST_KEY] = True
            st.rerun()
        st.session_state["chart-first:sent"] = True

    details()


def _header(result: ToolResult, loaded: ex.Loaded) -> None:
    """Who and what: the tool, its call, its rows and source; then what loading said."""
    st.title(md(result.tool, one_line=True), anchor=False)
    meta = [f"callId {md(result.call_id, one_line=True)}"] if result.call_id else []
    if isinstance(result.rows, list):
        meta.append(f"{len(result.rows):,} rows")
    source = md(loaded.name, one_line=True)
    meta.append(f"from {source} ({ex.size_text(loaded.size)})" if loaded.size else source)
    st.caption(" · ".join(meta))
    if result.description:
        st.caption(md(result.description))
    # The tab names the source too, so two results of one tool are told apart.
    title = visible_controls(f"{result.tool} · {loaded.name} — chartkit explorer")
    st.set_page_config(page_title=title)
    if loaded.error is not None:
        st.error(md(loaded.error))
    if loaded.warning is not None:
        st.warning(md(loaded.warning))
