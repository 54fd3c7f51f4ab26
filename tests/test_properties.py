"""Property-based tests: generated rowsets, declarations and picks, hostile at every turn.

Whatever a tool returns — every value kind (huge and deep values, NaN, NaT, pd.NA, signalling
NaNs, timedeltas, numpy scalars, control characters, lone surrogates), hostile column names,
absent keys, frames of every kind — these hold:

- nothing is mutated, and ``off`` and ``warn`` deliver the very rows object;
- ``enforce`` delivers the refusal sentence and nothing beyond it (no spec, bounded samples);
- ``view()`` raises only ``ChartkitError``, and never the last-resort "bug" one;
- every payload validates against the schema and is strict JSON (no NaN, no Infinity);
- a list of dicts and a dataframe (pandas, polars, pyarrow) of the same rows give the same
  violations.

Profiles: ``ci`` (the default, a few thousand examples in all) and ``soak`` (``make soak``,
over 100,000), chosen by ``CHARTKIT_HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jsonschema
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chartkit import (
    CHECK_MODES,
    COLUMN_TYPES,
    ChartkitError,
    ToolResult,
    check_columns,
    check_result,
    view,
    view_payload_schema,
)
from chartkit._safe import SAMPLE_MAX_TEXT, cap_sample, sample_text
from chartkit.messages import NAME_MAX_CHARS

_COMMON = {"deadline": None, "database": None, "suppress_health_check": list(HealthCheck)}
# examples per test: (view, check, list vs frames, samples)
_SIZES = {"ci": (250, 1000, 300, 1000), "soak": (4_000, 20_000, 1_500, 76_000)}
PROFILE = os.environ.get("CHARTKIT_HYPOTHESIS_PROFILE", "ci")
VIEWS, CHECKS, FRAMES, SAMPLES = _SIZES.get(PROFILE, _SIZES["ci"])
# CI draws the same examples every run, so a red build is a regression, never the luck of the
# draw; the soak draws fresh ones each time.
_COMMON["derandomize"] = PROFILE != "soak"
RUNS: Counter[str] = Counter()  # examples run, per test
PROGRESS = os.environ.get("CHARTKIT_HYPOTHESIS_PROGRESS")  # a file the soak's count goes to


def _ran(test: str) -> None:
    """Count one example (and, in a soak, write the count down every 1,000)."""
    RUNS[test] += 1
    if PROGRESS and sum(RUNS.values()) % 1000 == 0:
        with open(PROGRESS, "w", encoding="utf-8") as out:
            out.write(f"{sum(RUNS.values())} {dict(RUNS)}\n")
OUTCOMES: Counter[str] = Counter()  # what view() made of them


@pytest.fixture(scope="module", autouse=True)
def _report_the_count() -> Iterator[None]:
    """Say how many examples ran (``make soak`` prints it)."""
    yield
    if os.environ.get("CHARTKIT_HYPOTHESIS_REPORT"):
        print(f"\nproperty examples run: {sum(RUNS.values()):,} ({dict(RUNS)})")
        print(f"view() outcomes: {dict(OUTCOMES)}")


# --- strategies -----------------------------------------------------------------------------------

HOSTILE = "\x00\x05\x08\x0c\n\r\t\x1b\x7f\x85\u2028\u2029\u202e\ufffe\uffff\"'\\<>&`*_$[]{}.:"
NAME_CHARS = st.characters(codec="utf-8") | st.sampled_from(list(HOSTILE))
names = st.one_of(
    st.sampled_from(["lun", "host_group", "when", "v", "k", "count", "x_end", "a.b", "a[0]"]),
    st.text(NAME_CHARS, min_size=1, max_size=12),
    st.sampled_from(["\ud800", "a\ud800b", "<img src=x onerror=alert(1)>", "a\\", 'x"y']),
)


def _deep(levels: int) -> list[Any]:
    top: list[Any] = []
    cur = top
    for _ in range(levels):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return top


class _Deep(list):  # type: ignore[type-arg]
    """A list nested 20,000 deep whose repr is short (hypothesis prints what it drew)."""

    def __repr__(self) -> str:
        return "<a list nested 20,000 deep>"


DEEP = _Deep(_deep(20_000))
BIG_TEXT = "x" * 200_000
WIDE = {f"k{i}": i for i in range(5_000)}

texts = st.one_of(
    st.text(st.characters(codec="utf-8") | st.sampled_from(list(HOSTILE)), max_size=20),
    st.sampled_from(["", "1240", "0", "n/a", "2024-01-02", "2024-01-02T03:04:05+02:00", "\ud800"]),
)
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.7976931348623157e308, -1.7976931348623157e308, 5e-324, 0.0, -0.0]),
)
integers = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**63, -(2**63), 2**64, 10**30, 10**400]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    integers,
    floats,
    texts,
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([decimal.Decimal("sNaN"), decimal.Decimal("-NaN"), decimal.Decimal("1e999")]),
    st.dates(),
    st.datetimes(timezones=st.none() | st.just(dt.UTC)),
    st.sampled_from([pd.NA, pd.NaT, pd.Timestamp("2024-01-02"), np.datetime64("NaT")]),
    st.sampled_from([np.timedelta64(5, "s"), np.timedelta64("NaT"), dt.timedelta(1)]),
    st.sampled_from([np.int64(3), np.float32("nan"), np.float64(1e308), np.bool_(True)]),
    st.sampled_from([DEEP, BIG_TEXT, WIDE, b"bytes", 1 + 2j, object()]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
ABSENT = object()  # a row without the key
cells = st.one_of(values, st.just(ABSENT))
declared_types = st.sampled_from(COLUMN_TYPES)
spelling = st.tuples(declared_types, st.booleans(), st.booleans()).map(
    lambda t: {"type": t[0], "nullable": t[1]} if t[2] or t[1] else t[0]
)


TAME = {
    "number": st.integers(-1000, 1000) | st.floats(-1e6, 1e6, allow_nan=False),
    "string": st.sampled_from(["vdi-a", "vdi-b", "vdi-c", "<b>x</b>", "a\x05", "é"]),
    "date": st.sampled_from(["2024-01-02", "2024-01-03T04:05:06", "2024-02-01T00:00:00Z"])
    | st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2030, 1, 1)),
    "boolean": st.booleans(),
}


@st.composite
def column_cells(draw: st.DrawFn) -> st.SearchStrategy[Any]:
    """How one column's cells are drawn: anything at all, or mostly one type with strays."""
    style = draw(st.sampled_from(["hostile", *TAME]))
    if style == "hostile":
        return cells
    tame = TAME[style]
    return st.one_of(tame, tame, tame, tame, tame, tame, cells)


@st.composite
def results(draw: st.DrawFn) -> tuple[Any, Any, list[str]]:
    """Rows (a list of dicts with absent keys), a declaration over some of their columns (and
    maybe one they lack), and the column names."""
    cols = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    how = {c: draw(column_cells()) for c in cols}
    n = draw(st.integers(1, 12))
    rows = []
    for _ in range(n):
        row = {}
        for c in cols:
            v = draw(how[c])
            if v is not ABSENT:
                row[c] = v
        rows.append(row)
    declared = draw(st.lists(st.sampled_from(cols) | names, max_size=4, unique=True))
    return rows, {c: draw(spelling) for c in declared}, cols


def _snapshot(rows: list[dict[str, Any]]) -> list[tuple[int, list[tuple[str, int]]]]:
    """What the rows are, by identity: each row and each value as the tool returned it."""
    return [(id(r), [(k, id(v)) for k, v in r.items()]) for r in rows]


_VALIDATOR = jsonschema.Draft202012Validator(view_payload_schema())


def _bound(result: ToolResult, n_violations: int) -> int:
    """The most a refusal may say: fixed words plus, per violation, a capped name and sample."""
    per = 2 * NAME_MAX_CHARS + SAMPLE_MAX_TEXT + 500
    return 400 + NAME_MAX_CHARS + n_violations * per


# --- view() ---------------------------------------------------------------------------------------


def _as_pandas(rows: list[dict[str, Any]]) -> pd.DataFrame | None:
    """The rows as an object-typed pandas frame, or None when pandas cannot build one."""
    try:
        columns = pd.Index(list(dict.fromkeys(k for r in rows for k in r)), dtype=object)
        return pd.DataFrame(
            [[r.get(c) for c in columns] for r in rows], columns=columns, dtype=object
        )
    except Exception:
        return None


@settings(max_examples=VIEWS, **_COMMON)
@given(results(), st.sampled_from(CHECK_MODES), st.booleans(), st.data())
def test_view_raises_only_chartkit_errors_and_every_payload_is_strict_valid_json(
    result: tuple[Any, Any, list[str]], mode: Any, as_frame: bool, more: st.DataObject
) -> None:
    rows, declaration, cols = result
    pick = st.one_of(st.none(), st.none(), st.sampled_from(cols), st.sampled_from(cols), names)
    x, y, color = more.draw(pick), more.draw(pick), more.draw(st.none() | pick)
    data: Any = rows
    if as_frame:
        data = _as_pandas(rows)
        if data is None:
            return
    _ran("view")
    _assert_view_holds(data, declaration, mode=mode, x=x, y=y, color=color)


def _assert_view_holds(data: Any, declaration: Any, **picks: Any) -> None:
    """view() raises only a ChartkitError (never the "bug" one), mutates nothing, and gives a
    payload that is strict JSON, valid against the schema, and bounded when refused."""
    mode = picks.get("mode", "warn")
    before = _snapshot(data) if isinstance(data, list) else None
    try:
        v = view(data, declaration, tool="t", **picks)
    except ChartkitError as exc:
        assert "this is a bug in chartkit" not in str(exc), str(exc)
        assert before is None or _snapshot(data) == before
        OUTCOMES[
            f"error: {str(exc)[:60]}" if os.environ.get("CHARTKIT_HYPOTHESIS_ERRORS") else "error"
        ] += 1
        return
    OUTCOMES[v.kind] += 1
    assert before is None or _snapshot(data) == before
    payload = v.to_dict()
    text = json.dumps(payload, allow_nan=False)  # strict JSON: no NaN, no Infinity
    _VALIDATOR.validate(json.loads(text))
    if v.kind == "refused":
        assert mode == "enforce"
        assert v.check.delivered == v.reason and v.spec is None
        assert v.reason.endswith("No data was returned.")
        assert len(v.reason) <= _bound(v.result, len(v.check.violations))
    else:
        assert v.check.delivered is data  # off and warn (and clean enforce): the very object
    for f in v.check.findings:
        assert len(json.dumps(f.violation.to_dict()["sample"])) <= SAMPLE_MAX_TEXT + 400
    if v.kind == "chart":
        assert v.spec is not None
        json.dumps(v.spec, ensure_ascii=False).encode("utf-8")  # encodable: no lone surrogate
        _assert_something_is_drawn_or_said(v)


def _assert_something_is_drawn_or_said(v: Any) -> None:
    """A chart is never empty, and a measure it cannot draw at all is noted."""
    (records,) = v.spec["datasets"].values()
    assert records, "an empty chart"
    for enc in v.encodings.values():
        if enc.type == "quantitative" and enc.field and any(enc.field in r for r in records):
            if all(r.get(enc.field) is None for r in records):
                assert v.notes, f"every {enc.field} is null and no note says why"


# --- the dial -------------------------------------------------------------------------------------


@settings(max_examples=CHECKS, **_COMMON)
@given(results(), st.sampled_from(CHECK_MODES))
def test_the_dial_delivers_the_very_rows_or_only_the_bounded_refusal(
    result: tuple[Any, Any, list[str]], mode: Any
) -> None:
    _ran("check")
    rows, declaration, _ = result
    before = _snapshot(rows)
    try:
        tool = ToolResult("t", rows, result_columns=declaration or None)
    except ChartkitError:
        return  # an empty declaration is refused at the door
    outcome = check_result(tool, mode=mode)
    assert _snapshot(rows) == before
    if mode == "off" or not outcome.violations:
        assert outcome.delivered is rows and not outcome.refused
    elif mode == "warn":
        assert outcome.delivered is rows and len(outcome.findings) == len(outcome.violations)
    else:
        assert outcome.refused and outcome.delivered == outcome.refusal
        assert isinstance(outcome.delivered, str)
        assert outcome.delivered.endswith("No data was returned.")
        assert len(outcome.delivered) <= _bound(tool, len(outcome.violations))
    for f in outcome.findings:
        json.dumps(f.to_dict(), allow_nan=False)


# --- a list of dicts and a dataframe say the same -------------------------------------------------


def _kinds() -> st.SearchStrategy[tuple[str, list[Any]]]:
    """A typed column's values (with gaps) that every frame library holds as they are."""

    def column(kind: str, cell: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.tuples(st.just(kind), st.lists(cell | st.none(), min_size=5, max_size=5))

    when = st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 1, 1))
    return st.one_of(
        column("int", st.integers(-(2**40), 2**40)),
        column("float", st.floats(allow_infinity=True, allow_nan=False)),
        column("str", st.text(st.characters(codec="utf-8"), max_size=6)),
        column("bool", st.booleans()),
        column("date", when),
    )


_POLARS = {"int": pl.Int64, "float": pl.Float64, "str": pl.String, "bool": pl.Boolean,
           "date": pl.Datetime("us")}  # fmt: skip
_ARROW = {"int": pa.int64(), "float": pa.float64(), "str": pa.string(), "bool": pa.bool_(),
          "date": pa.timestamp("us")}  # fmt: skip


def _shape(violations: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    return [(v.column, v.kind, v.declared, v.affected, v.total, v.absent) for v in violations]


@settings(max_examples=FRAMES, **_COMMON)
@given(
    st.dictionaries(
        st.text(st.characters(codec="utf-8"), min_size=1, max_size=8),
        _kinds(),
        min_size=1,
        max_size=3,
    ),
    st.data(),
)
def test_a_list_of_dicts_and_every_dataframe_give_the_same_violations(
    columns: dict[str, tuple[str, list[Any]]], data: st.DataObject
) -> None:
    _ran("frames")
    declaration = {c: data.draw(spelling) for c in columns}
    declaration.update(data.draw(st.dictionaries(names, spelling, max_size=1)))
    n = 5
    rows = [{c: vals[i] for c, (_, vals) in columns.items()} for i in range(n)]
    expected = _shape(check_columns(rows, declaration))
    typed = [(c, kind, vals) for c, (kind, vals) in columns.items()]
    frames = {
        "pandas": pd.DataFrame({c: pd.Series(v, dtype=_pandas_dtype(k)) for c, k, v in typed}),
        "polars": pl.DataFrame([pl.Series(c, v, dtype=_POLARS[k]) for c, k, v in typed]),
        "pyarrow": pa.table({c: pa.array(v, type=_ARROW[k]) for c, k, v in typed}),
    }
    for library, frame in frames.items():
        assert _shape(check_columns(frame, declaration)) == expected, library
    library = data.draw(st.sampled_from(sorted(frames)))
    mode = data.draw(st.sampled_from(CHECK_MODES))
    _assert_view_holds(frames[library], declaration, mode=mode)


def _pandas_dtype(kind: str) -> Any:
    return {"int": "Int64", "float": "float64", "str": object, "bool": "boolean",
            "date": "datetime64[us]"}[kind]  # fmt: skip


# --- samples --------------------------------------------------------------------------------------


@settings(max_examples=SAMPLES, **_COMMON)
@given(values)
def test_every_sample_is_bounded_strict_json_and_text(value: Any) -> None:
    _ran("samples")
    capped = cap_sample(value)
    assert len(json.dumps(capped, allow_nan=False)) <= SAMPLE_MAX_TEXT + 400
    text = sample_text(value)
    assert len(text) <= SAMPLE_MAX_TEXT + 400
    text.encode("utf-8")  # no lone surrogate
    assert not any(ord(ch) < 0x20 for ch in text)
