"""DuckDB's queries are built of DuckDB's expressions, never of SQL text (issue 39 item 3).

``chartkit.read.dialects`` builds them: a column by position (``at_position``), the text cells
read by ``chartkit.read.csvread``'s rules (``reads_as_*`` for the check, ``parsed_*`` for the
chart), a JSON value's kind and text. These tests hold the builders to csvread's own reading
of the same cells, read hostile column names through every changed path, and fail while any
f-string, ``%`` or ``.format`` builds SQL text in ``chartkit/``.
"""

from __future__ import annotations

import ast
import csv
import datetime as dt
import json
import math
import re
from pathlib import Path
from typing import Any, Final

import duckdb
import pandas as pd
import pytest

from chartkit import ToolResult
from chartkit._isodate import PLAIN_DATE, is_iso
from chartkit.check.integrity import check_result
from chartkit.errors import ChartkitError
from chartkit.read import dialects
from chartkit.read.csvread import parse_cell, read_csv
from chartkit.read.dialects import DuckDB, at_position
from chartkit.read.engines import open_table

# text cells at the edges of csvread's rules: numbers, booleans, dates, and neither
CELLS = [
    "0", "-3", "+7", "2.5", ".5", "5.", "1e-3", "1E+2", "1e999", "-1e999", "1" * 400, "nan",
    "inf", "0x10", " 1", "1 ", "1_000", "true", "True", "TRUE", "tRue", "false", "False",
    "FALSE", "yes", "1", "2024-01-05", "2024-01-05T10:30", "2024-01-05 10:30:00.123456",
    "2024-01-05T10:30:00Z", "2024-01-05T10:30:00+02:00", "2024-01-05T10:30:00.1234567",
    "2024-02-30", "2024-13-01", "20240105", "it's", "a\nb", "#1", "",
]  # fmt: skip


def _cells() -> Any:
    """A DuckDB relation of ``CELLS`` (and a NULL) in one VARCHAR column named hostilely."""
    frame = pd.DataFrame({'c"1\n': pd.Series([*CELLS, None], dtype=object)})
    return duckdb.connect().from_df(frame)


def _read(build: Any) -> list[Any]:
    """Each cell of ``_cells()`` through one builder, in order."""
    out = DuckDB().project(_cells(), [build(at_position(0)).alias("out")])
    return [v for (v,) in out.fetchall()]


def _reads(declared: str, text: str | None) -> bool:
    """Whether csvread reads ``text`` as ``declared`` (an empty cell is NULL in DuckDB)."""
    if not text:
        return False
    return not isinstance(parse_cell(text, declared), str)  # type: ignore[arg-type]


@pytest.mark.parametrize("declared", ["number", "boolean", "date"])
def test_the_check_reads_a_text_cell_as_csvread_reads_it(declared: str) -> None:
    build = getattr(dialects, f"reads_as_{declared}")
    assert _read(build) == [_reads(declared, c) for c in [*CELLS, None]]


def test_the_chart_reads_a_number_cell_as_a_finite_double_or_null() -> None:
    def expected(text: str | None) -> float | None:
        if not _reads("number", text):
            return None
        number = float(text or "")  # csvread's int, as a float
        return number if math.isfinite(number) else None  # (a 400-digit integer: left out)

    got = _read(dialects.parsed_number)
    assert got == [expected(c) for c in [*CELLS, None]]
    assert got[CELLS.index("2.5")] == 2.5 and got[CELLS.index("1e999")] is None


def test_the_chart_reads_a_boolean_cell_by_its_spellings() -> None:
    expected = [parse_cell(c, "boolean") if c and _reads("boolean", c) else None
                for c in [*CELLS, None]]  # fmt: skip
    assert _read(dialects.parsed_boolean) == expected
    assert expected.count(True) == 3 and expected.count(False) == 3


def test_the_chart_casts_only_the_plain_dates_and_counts_the_others() -> None:
    plain = re.compile(PLAIN_DATE)

    def expected(text: str | None) -> dt.datetime | None:
        if text is None or not is_iso(text) or not plain.fullmatch(text):
            return None
        return dt.datetime.fromisoformat(text)

    got = _read(dialects.parsed_date)
    assert got == [expected(c) for c in [*CELLS, None]]
    assert got[CELLS.index("2024-01-05 10:30:00.123456")] == dt.datetime(2024, 1, 5, 10, 30, 0,
                                                                         123456)  # fmt: skip
    # a zone, Z or ±HH:MM, and a seventh fractional digit: date strings DuckDB does not cast
    # exactly as the check reads them
    counted = DuckDB().aggregate(_cells(), [dialects.uncast_dates(at_position(0)).alias("n")])
    odd = [c for c in CELLS if is_iso(c) and not plain.fullmatch(c)]
    assert odd == [
        "2024-01-05T10:30:00Z", "2024-01-05T10:30:00+02:00", "2024-01-05T10:30:00.1234567",
    ]  # fmt: skip
    assert counted.fetchall() == [(len(odd),)]


def test_a_json_value_gives_its_kind_its_text_and_its_json() -> None:
    rel = duckdb.connect().sql(
        "SELECT * FROM (VALUES ('{\"a\": 1}'::JSON), ('\"it''s\"'::JSON), ('null'::JSON), "
        "(NULL), ('1.5'::JSON)) t(\"#1\")"
    )
    cell = at_position(0)
    got = DuckDB().project(rel, [dialects.json_kind(cell).alias("k"),
                                 dialects.json_text(cell).alias("t"),
                                 dialects.as_text(cell).alias("j")])  # fmt: skip
    assert got.fetchall() == [
        ("OBJECT", '{"a":1}', '{"a": 1}'),  # (the JSON text as it came)
        ("VARCHAR", "it's", '"it\'s"'),
        ("NULL", None, "null"),
        ("NULL", None, None),
        ("DOUBLE", "1.5", "1.5"),
    ]


def test_a_column_by_position_is_its_own_whatever_its_name() -> None:
    # ``a`` and ``A`` in one relation: DuckDB's binder finds ``A`` for the name ``a``
    rel = duckdb.connect().sql('SELECT 1 AS "A", 2 AS "a", 3 AS "#1"')
    assert rel is not None
    assert rel.project(duckdb.ColumnExpression("a")).fetchall() == [(1,)]  # (why by position)
    got = DuckDB().project(rel, [at_position(k).alias(f"c{k}") for k in (2, 1, 0)])
    assert got.columns == ["c2", "c1", "c0"] and got.fetchall() == [(3, 2, 1)]
    for bad in (-1, 1.0, True, "1"):
        with pytest.raises(ChartkitError, match="a column position is a whole number from 0"):
            at_position(bad)  # type: ignore[arg-type]


# --- hostile names through the check and the readers ---------------------------------------

HOSTILE = ['a"b', "#1", "new\nline", "it's", "a\x00b"]
"""Names a tool may send: a quote, a positional reference's spelling, a newline, a NUL."""


def _judged(
    rows: Any, declared: dict[str, Any], tool: str = "t"
) -> tuple[bool, list[dict[str, Any]]]:
    outcome = check_result(ToolResult(tool, rows, result_columns=declared), mode="enforce")
    return outcome.refused, [f.to_dict() for f in outcome.findings]


def test_a_json_lines_file_with_hostile_keys_is_judged_as_its_rows_in_memory(
    tmp_path: Path,
) -> None:
    # per key: a number, a JSON column of mixed values, a date as text, a string
    kinds = ["number", "number", "date", "string", "boolean"]
    values: list[list[Any]] = [[1, 2.5, None], [1, "x", {"o": 1}], ["2024-01-05", "soon", None],
                               ["a", "b", "c"], [True, 1, False]]  # fmt: skip
    rows = [{name: column[r] for name, column in zip(HOSTILE, values, strict=True)}
            for r in range(3)]  # fmt: skip
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    table = open_table(path)
    assert table.columns == HOSTILE
    declared = dict(zip(HOSTILE, kinds, strict=True))
    on_duckdb = _judged(table, declared)
    assert on_duckdb == _judged(rows, declared)
    # a null where none is declared, a JSON column's string and object, a date's text, a 1
    assert [f["column"] for f in on_duckdb[1]] == ['a"b', "#1", "new\nline", "a\x00b"]


def test_a_csv_file_with_hostile_headers_is_judged_as_csvread_judges_it(tmp_path: Path) -> None:
    # (csvread refuses a NUL; DuckDB's CSV sniffer refuses a quoted newline in the header,
    # as it did when the reader was SQL text)
    names = ['a"b', "#1", "it's", "x, y"]
    kinds = ["number", "boolean", "date", "number"]
    cells = [["1", "true", "2024-01-05", "1e999"], ["x", "yes", "2024-01-05T10:30Z", "-3"],
             ["", "FALSE", "2024-02-30", "+7"]]  # fmt: skip
    path = tmp_path / "r.csv"
    with path.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows([names, *cells])
    declared = dict(zip(names, kinds, strict=True))
    text = open_table(path)
    assert text.relation.columns == names
    in_memory = read_csv(path, declared)  # (the tool is named after the file)
    on_duckdb = _judged(text, declared, in_memory.tool)
    assert on_duckdb == _judged(in_memory.rows, declared, in_memory.tool)
    assert [f["column"] for f in on_duckdb[1]] == names


def test_a_relation_with_hostile_names_is_judged_as_its_rows_in_memory() -> None:
    # a DuckDB relation keeps a NUL from a pandas frame; a VARCHAR column declared date is
    # judged by the date pattern, a JSON column by each value's json_type
    frame = pd.DataFrame({
        HOSTILE[0]: [1.0, float("nan"), 3.0], HOSTILE[1]: ["2024-01-05", "later", None],
        HOSTILE[2]: ["x", "y", "z"], HOSTILE[3]: ['{"a": 1}', "2", '"s"'], HOSTILE[4]: [1, 2, 3],
    })  # fmt: skip
    con = duckdb.connect()
    con.register("hostile", frame)
    cast = DuckDB().project(con.table("hostile"), [
        *(at_position(k).alias(n) for k, n in enumerate(HOSTILE) if k != 3),
        dialects.as_text(at_position(3)).cast("JSON").alias(HOSTILE[3]),
    ])  # fmt: skip
    relation = DuckDB().by_position(
        cast,
        cast.columns,
        [
            (k, n)
            for k, n in [
                (0, HOSTILE[0]),
                (1, HOSTILE[1]),
                (2, HOSTILE[2]),
                (4, HOSTILE[3]),
                (3, HOSTILE[4]),
            ]
        ],
    )
    assert relation.columns == HOSTILE and str(relation.types[3]) == "JSON"
    declared = dict(zip(HOSTILE, ["number", "date", "string", "number", "number"], strict=True))
    rows = [dict(zip(HOSTILE, [1.0, "2024-01-05", "x", {"a": 1}, 1], strict=True)),
            dict(zip(HOSTILE, [None, "later", "y", 2, 2], strict=True)),
            dict(zip(HOSTILE, [3.0, None, "z", "s", 3], strict=True))]  # fmt: skip
    on_duckdb = _judged(relation, declared)
    assert on_duckdb == _judged(rows, declared)
    assert [f["column"] for f in on_duckdb[1]] == [HOSTILE[0], HOSTILE[1], HOSTILE[3]]


# --- no SQL text from string formatting -----------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "chartkit"

QUERY_CALLS: Final = frozenset({"sql", "execute", "query", "project", "aggregate", "filter"})
"""The methods that read SQL text where they are handed a string (DuckDB's relation verbs)."""

SQL_WORDS: Final = re.compile(
    r"\b(?:SELECT|FROM|CASE|WHEN|THEN)\b|\bAS \{"
    r"|\b(?:CAST|TRY_CAST|count_if|regexp_\w+|epoch_ms|epoch_us|time_bucket|date_trunc"
    r"|timezone|json_type|json_keys|read_parquet|read_csv|read_json\w*|bit_or|isfinite"
    r"|strlen|row_number|coalesce)\("
    r"|(?:^|[\s(,])#\{"
)
"""What SQL text looks like in the literal parts of a formatted string (a keyword, a function
called, a positional reference ``#{…}``)."""

NAMING_CALLS: Final = frozenset({"alias", "ColumnExpression", "ConstantExpression", "col", "lit"})
"""Calls whose string argument is a name or a value, which DuckDB (or narwhals) quotes itself:
a formatted string handed to one is no SQL text."""

ALLOWED: Final[dict[tuple[str, str], str]] = {}
"""(module, function) → why it still formats SQL text. The list only shrinks: a finding that is
not listed fails, and so does a listed one that no longer occurs (delete its entry)."""


def _formatted(node: ast.AST) -> str | None:
    """The literal parts of a string built by formatting (f-string, ``%``, ``.format``)."""
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if (
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
    ):  # fmt: skip
        return node.left.value
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format" and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ):  # fmt: skip
        return node.func.value.value
    return None


def _walk(node: ast.AST, *, into: type | tuple[type, ...] = ()) -> list[ast.AST]:
    """``ast.walk`` that stops at a nested function (its own scope) and at a naming call."""
    out: list[ast.AST] = []
    todo = [node]
    while todo:
        n = todo.pop()
        out.append(n)
        for child in ast.iter_child_nodes(n):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.Call) and not isinstance(child, into):
                func = child.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in NAMING_CALLS:
                    todo.append(func)  # (what it is called on, not its arguments)
                    continue
            todo.append(child)
    return out


def _holds_formatting(node: ast.AST, tainted: set[str]) -> bool:
    """Whether ``node`` builds a formatted string, or reads a name assigned one."""
    return any(
        _formatted(n) is not None or (isinstance(n, ast.Name) and n.id in tainted)
        for n in _walk(node)
    )


def _target_names(node: ast.AST) -> list[str]:
    """The names a statement stores a value into (``x = …``, ``x[k] = …``, ``x.append(…)``)."""
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [
            n.id for t in targets for n in ast.walk(t)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Load)
        ]  # fmt: skip
    if (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
        and isinstance(node.func.value, ast.Name)
    ):  # fmt: skip
        return [node.func.value.id]
    return []


def _sql_formatting(source: str) -> list[tuple[str, int]]:
    """(function, line) of each string formatting that builds SQL text in one module: literal
    parts that read as SQL, or any formatted string that reaches a query call (directly, or
    through a name it was stored in)."""
    tree = ast.parse(source)
    scopes: list[tuple[str, ast.AST]] = [("<module>", tree)]
    scopes += [(f.name, f) for f in ast.walk(tree)
               if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]  # fmt: skip
    found: set[tuple[str, int]] = set()
    for name, scope in scopes:
        nodes = [
            n for child in ast.iter_child_nodes(scope)
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            for n in _walk(child, into=ast.Call)
        ]  # fmt: skip
        for n in nodes:
            text = _formatted(n)
            if text is not None and SQL_WORDS.search(text):
                found.add((name, n.lineno))  # type: ignore[attr-defined]
        stores = [(n, names) for n in nodes if (names := _target_names(n))]
        tainted: set[str] = set()
        for _ in range(3):  # (a name stored from a name stored from a formatted string)
            for n, names in stores:
                value = n.value if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign) else n
                if value is not None and _holds_formatting(value, tainted):
                    tainted.update(names)
        for n in nodes:
            if (
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in QUERY_CALLS
                and any(_holds_formatting(a, tainted) for a in [*n.args, *n.keywords])
            ):  # fmt: skip
                found.add((name, n.lineno))
    return sorted(found)


def _findings() -> dict[tuple[str, str], list[int]]:
    out: dict[tuple[str, str], list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = str(path.relative_to(PACKAGE.parent))
        for fn, line in _sql_formatting(path.read_text(encoding="utf-8")):
            out.setdefault((module, fn), []).append(line)
    return out


def test_no_string_formatting_builds_sql_text_in_the_package() -> None:
    found = _findings()
    unlisted = {k: v for k, v in found.items() if k not in ALLOWED}
    assert unlisted == {}, "SQL text built by string formatting: build it of DuckDB expressions"
    gone = sorted(set(ALLOWED) - set(found))
    assert gone == [], f"no longer formats SQL text (delete its entry from ALLOWED): {gone}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('def f(r, q):\n    return r.project(f"CAST({q} AS DOUBLE)")\n', [("f", 2)]),
        ('def f(r, q):\n    s = "count_if(%s)" % q\n    return r.aggregate(s)\n',
         [("f", 2), ("f", 3)]),
        ('def f(r, n):\n    s = "{} AS x".format(n)\n    return r.project(s)\n', [("f", 3)]),
        ('def f(r, n):\n    e = []\n    e.append((f"#{n}", n))\n    return r.project(e)\n',
         [("f", 3), ("f", 4)]),
        ('def f(r, k):\n    h = {}\n    h[k] = f"{k} + 1"\n    t = ", ".join(h.values())\n'
         '    return r.project(t)\n', [("f", 5)]),
        ('def f(n):\n    raise ValueError(f"column {n!r} is not a number; cast it")\n', []),
        ('def f(r, k):\n    return r.project(f"c{k}")\n', [("f", 2)]),
    ],
)  # fmt: skip
def test_the_scan_finds_sql_text_however_it_is_formatted(
    source: str, expected: list[tuple[str, int]]
) -> None:
    assert _sql_formatting(source) == expected


def test_sql_text_is_written_by_the_dialects_only() -> None:
    """DuckDB's text door (``SQLExpression``, ``sql_expr``) is called in read/dialects.py only."""
    doors = {"SQLExpression", "sql_expr"}
    calls = [
        f"{path.relative_to(PACKAGE.parent)}:{n.lineno}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(n, ast.Call)
        and (getattr(n.func, "attr", None) in doors or getattr(n.func, "id", None) in doors)
    ]
    assert calls and all(c.startswith("chartkit/read/dialects.py:") for c in calls), calls
