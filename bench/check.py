"""How fast is the column check? ``check_columns`` against the floor and two peers.

1,000,000 rows x 4 declared columns as a list of dicts — the spec's worked example at scale:
``logical_unit_number`` (number, 0.1% of rows hold ``''``), ``host_group`` (string),
``mapped`` (boolean), ``seen_on`` (ISO date string). Each contender is timed a few times and
the median is printed, with what it found: they must agree on the offending count.

- floor: ``collections.deque(map(operator.itemgetter(a, b, c, d), rows), 0)`` — the fastest
  honest pass over every cell (one C call per row), judging nothing.
- check_columns: chartkit's check on the list of dicts. With the compiled reader
  (``chartkit._speedups``, built at install where there is a C compiler) the rows are read
  once, row-major, in C: every declared key of each row looked up once, each column's values
  listed and counted per exact type (int, float, NaN, str, bool, None, absent) with the first
  of each, and strings ISO-validated (and parsed, for the chart) on the way; the check then
  judges each column from those counts. ``(pure Python)`` is the same check with the
  extension switched off (``CHARTKIT_PURE_PYTHON=1`` does it for a whole process): columns
  read with ``itemgetter`` and judged by value type with ``map(type, ...)``, NaN with
  ``v != v``, dates with ``datetime.fromisoformat``.
- pydantic: ``TypeAdapter(list[TypedDict])`` in strict mode (the date field lax, since strict
  pydantic refuses ISO strings for a ``date``).
- pandas + pandera: ``pd.DataFrame(rows)`` then lazy validation of a schema that says the same.
- frame paths: the same data as a typed frame (float64 with NaN where the rows hold ``''``,
  str, bool, datetime64) as pandas, polars and pyarrow, through ``check_columns`` — whatever
  path chartkit takes for each kind.

Every contender must report the same offending rows and the same first offender (the frames
hold a missing value where the rows hold ``''``), or the script exits with an error.

A second data set makes the check work harder: the number column holds floats (each one must
be asked whether it is NaN) and the date column timestamps to the second (nearly every string
distinct, so each is parsed).

Run: ``make bench`` or ``.venv/bin/python bench/check.py [--rows N] [--repeat K]``.
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import operator
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from typing import Annotated, Any, Final

import pandas as pd
import polars as pl
import pyarrow as pa
from pydantic import ConfigDict, Strict, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

import chartkit.read.columnar
from chartkit import check_columns

NUMBER, STRING, BOOLEAN, DATE = "logical_unit_number", "host_group", "mapped", "seen_on"
DECLARED = {NUMBER: "number", STRING: "string", BOOLEAN: "boolean", DATE: "date"}
COLUMNS = list(DECLARED)


def make_rows(n: int, *, hard: bool, seed: int = 20240611) -> tuple[list[dict[str, Any]], int]:
    """``n`` rows, 0.1% of them with ``''`` in the number column; answers (rows, that count)."""
    rng = random.Random(seed)
    day0, t0 = dt.date(2022, 1, 1), dt.datetime(2024, 1, 1)
    groups = [f"vdi-{i}" for i in range(500)]
    rows: list[dict[str, Any]] = []
    broken = 0
    for i in range(n):
        number: Any
        if rng.random() < 0.001:
            number, broken = "", broken + 1  # the field bug: LUN 0 stored as ''
        elif hard:
            number = round(rng.random() * 2048, 1)
        else:
            number = rng.randrange(256)
        when = (
            (t0 + dt.timedelta(seconds=rng.randrange(90 * 86400))).isoformat()
            if hard
            else (day0 + dt.timedelta(days=rng.randrange(1000))).isoformat()
        )
        rows.append({NUMBER: number, STRING: groups[i % 500], BOOLEAN: i % 3 == 0, DATE: when})
    return rows, broken


# --- the contenders: each answers {column: (offending row count, first offender)} --------

Found = dict[str, tuple[int, str]]


_EVERY_CELL = operator.itemgetter(*COLUMNS)


def floor(rows: list[dict[str, Any]]) -> Found:
    """The fastest honest pass over every cell: one C-level ``itemgetter`` per row, no judging."""
    collections.deque(map(_EVERY_CELL, rows), 0)
    return {}


def chartkit_check(rows: Any) -> Found:
    return {v.column: (v.affected, repr(v.sample)) for v in check_columns(rows, DECLARED)}


def chartkit_pure_python(rows: Any) -> Found:
    """``check_columns`` with the compiled reader switched off (its pure-Python fallback)."""
    saved, chartkit.read.columnar.SPEEDUPS = chartkit.read.columnar.SPEEDUPS, None
    try:
        return chartkit_check(rows)
    finally:
        chartkit.read.columnar.SPEEDUPS = saved


class IntRow(TypedDict):
    __pydantic_config__ = ConfigDict(strict=True)  # type: ignore[misc]
    logical_unit_number: int
    host_group: str
    mapped: bool
    seen_on: Annotated[dt.date, Strict(False)]  # strict pydantic refuses ISO strings


class FloatRow(TypedDict):
    __pydantic_config__ = ConfigDict(strict=True)  # type: ignore[misc]
    logical_unit_number: float
    host_group: str
    mapped: bool
    seen_on: Annotated[dt.datetime, Strict(False)]


def pydantic_strict(hard: bool) -> Callable[[list[dict[str, Any]]], Found]:
    adapter: TypeAdapter[Any] = TypeAdapter(list[FloatRow] if hard else list[IntRow])

    def validate(rows: list[dict[str, Any]]) -> Found:
        try:
            adapter.validate_python(rows)
        except ValidationError as exc:
            bad: dict[str, dict[int, Any]] = {}
            for err in exc.errors():
                row, column = err["loc"][0], err["loc"][1]
                bad.setdefault(str(column), {}).setdefault(int(row), err["input"])
            return {c: (len(r), repr(r[min(r)])) for c, r in bad.items()}
        return {}

    return validate


def pandas_pandera(rows: list[dict[str, Any]]) -> Found:
    import pandera.pandas as pa

    frame = pd.DataFrame(rows)

    def is_number(s: pd.Series) -> pd.Series:
        return s.map(type).isin([int, float])

    def is_iso(s: pd.Series) -> pd.Series:
        return pd.to_datetime(s, format="ISO8601", errors="coerce").notna()

    schema = pa.DataFrameSchema(
        {
            NUMBER: pa.Column(checks=pa.Check(is_number)),
            STRING: pa.Column(checks=pa.Check(lambda s: s.map(type).isin([str]))),
            BOOLEAN: pa.Column(bool),
            DATE: pa.Column(checks=pa.Check(is_iso)),
        }
    )
    try:
        schema.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as exc:
        cases = exc.failure_cases
        cases = cases[cases["index"].notna()]
        first = cases.sort_values("index").groupby("column")["failure_case"].first()
        return {
            str(c): (int(g["index"].nunique()), repr(first[c])) for c, g in cases.groupby("column")
        }
    return {}


def typed_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The same data as a typed frame: '' becomes NaN in a float64 column, dates datetime64."""
    frame = pd.DataFrame(rows)
    return pd.DataFrame(
        {
            NUMBER: pd.to_numeric(frame[NUMBER], errors="coerce").astype("float64"),
            STRING: frame[STRING].astype("str"),
            BOOLEAN: frame[BOOLEAN].astype(bool),
            DATE: pd.to_datetime(frame[DATE], format="ISO8601"),
        }
    )


# --- running ------------------------------------------------------------------------------


def run(
    n: int, repeat: int, *, hard: bool, clock: Callable[[], float]
) -> list[tuple[str, float, float, Found]]:
    """Each contender's median time, median ratio to the floor, and findings.

    Rounds interleave the contenders and each ratio is taken within its round, so a noisy
    neighbour on a shared machine slows a round's contenders alike instead of one of them.
    """
    rows, broken = make_rows(n, hard=hard)
    frame = typed_frame(rows)
    contenders: list[tuple[str, Callable[[Any], Found], Any]] = [
        ("floor: itemgetter(a, b, c, d) per row", floor, rows),
        ("check_columns(list of dicts)", chartkit_check, rows),
        ("check_columns(list of dicts, pure Python)", chartkit_pure_python, rows),
        ("pydantic TypeAdapter, strict", pydantic_strict(hard), rows),
        ("pd.DataFrame(rows) + pandera lazy", pandas_pandera, rows),
        ("check_columns(typed pandas frame)", chartkit_check, frame),
        ("check_columns(polars frame)", chartkit_check, pl.from_pandas(frame)),
        ("check_columns(pyarrow table)", chartkit_check, pa.Table.from_pandas(frame)),
    ]
    times: dict[str, list[float]] = {label: [] for label, _, _ in contenders}
    found: dict[str, Found] = {}
    for _ in range(repeat):
        for label, fn, arg in contenders:
            start = clock()
            found[label] = fn(arg)
            times[label].append(clock() - start)
    # the rows hold '' where the typed frames hold a missing value: same rows, other sample
    for label, arg in ((c[0], c[2]) for c in contenders[1:]):
        expected = {NUMBER: (broken, repr("" if arg is rows else None))}
        if found[label] != expected:
            raise SystemExit(f"{label} found {found[label]}, expected {expected}")
    floors = times[contenders[0][0]]
    return [
        (
            label,
            statistics.median(times[label]),
            statistics.median(t / f for t, f in zip(times[label], floors, strict=True)),
            found[label],
        )
        for label, _, _ in contenders
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu (default): this process's CPU time, steady on a shared machine; wall: elapsed",
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    warnings.simplefilter("ignore")  # pandera's import-time notices are not the benchmark
    print(
        f"{args.rows:,} rows x {len(COLUMNS)} declared columns, median {args.clock} time of "
        f"{args.repeat} runs — "
        f"Python {platform.python_version()}, pandas {pd.__version__}, {os.cpu_count()} cores, "
        f"{dt.date.today().isoformat()}; compiled reader (chartkit._speedups): "
        f"{'used' if chartkit.read.columnar.SPEEDUPS is not None else 'NOT BUILT'}"
    )
    for hard, title in (
        (False, "integers with 0.1% '', 500 strings, booleans, ISO dates"),
        (True, "floats with 0.1% '', 500 strings, booleans, ISO timestamps (nearly all distinct)"),
    ):
        results = run(args.rows, args.repeat, hard=hard, clock=clock)
        print(f"\n{title}\n")
        head = "offending rows found (first)"
        print(f"| {'contender':<42} | {'median':>9} | {'x floor':>7} | {head:<34} |")
        print(f"|{'-' * 44}|{'-' * 10}:|{'-' * 8}:|{'-' * 36}|")
        for label, seconds, ratio_to_floor, found in results:
            shown = ", ".join(f"{c} {k:,} ({first})" for c, (k, first) in found.items()) or "—"
            ms, ratio = f"{seconds * 1000:6.1f} ms", f"{ratio_to_floor:6.2f}x"
            print(f"| {label:<42} | {ms} | {ratio} | {shown:<34} |")


    cold = [import_and_check() for _ in range(args.repeat)]
    print(
        "\nimport chartkit + a 1,000-row check in a fresh process (CPU time, parent and child; "
        f"target under 0.5 s): median {statistics.median(cold):.2f} s of {len(cold)} runs"
    )


_COLD: Final = (
    "import chartkit\n"
    "rows = [{'lun': i % 7, 'host': 'vdi-a', 'seen': '2024-01-05'} for i in range(1000)]\n"
    "chartkit.check_columns(rows, {'lun': 'number', 'host': 'string', 'seen': 'date'})\n"
)


def import_and_check() -> float:
    """CPU seconds a fresh interpreter spends importing chartkit and checking 1,000 rows."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", _COLD], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


if __name__ == "__main__":
    main()
