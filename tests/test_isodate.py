"""What a date string is: RFC 3339, one grammar, the same answer everywhere it is asked.

``chartkit._isodate`` writes the grammar once as a regex. These tests hold it to the decision
(listed strings it accepts and refuses, the whole calendar's leap days, generated strings
against an independent reading of the RFC built on ``datetime``'s own range checks), and hold
every other place that asks to the same answer: the C validator, the check on a list of dicts
(compiled and pure Python), CSV parsing, and the engines (DuckDB, polars, pyarrow; Spark in
``tests/test_spark.py``). ``parse_iso`` gives the moment the chart plots.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chartkit.read.columnar as columnar
from chartkit import check_columns
from chartkit._isodate import (
    DATE_FORM,
    ISO_PATTERN,
    PLAIN_DATE,
    engine_pattern,
    is_iso,
    parse_iso,
)
from chartkit.read.csvread import DATE, parse_cell

ACCEPTED = [
    "2024-01-05", "2024-01-05T10:30", "2024-01-05 10:30", "2024-01-05T10:30:00",
    "2024-01-05 10:30:59.5", "2024-01-05T10:30:00.123456", "2024-01-05T10:30:00.1234567891",
    "2024-01-05T10:30Z", "2024-01-05T10:30:00Z", "2024-01-05T10:30:00.5Z",
    "2024-01-05T10:30+05:30", "2024-01-05T10:30:00-08:00", "2024-01-05 10:30:00.25+23:59",
    "2024-01-05T10:30-00:00", "2024-02-29", "2000-02-29", "1600-02-29", "0004-02-29",
    "0001-01-01", "9999-12-31T23:59:59.999999", "2024-12-31T00:00", "2024-04-30",
    "2024-01-31T23:59:59",
]  # fmt: skip

REFUSED = [
    # CPython's fromisoformat takes these; the grammar does not
    "20230808120000Z", "2024-01-05x10:30", "20240105", "2024-W01", "2024-W01-1", "2024-005",
    "2024-01-05T10", "2024-01-05T1030", "2024-01-05T10:30:00,5", "2024-01-05T10.5",
    "2024-01-05T10:30.5", "2024-01-05T10:30+01", "2024-01-05T10:30+0130",
    "2024-01-05T10:30+01:30:15", "2024-01-05t10:30", "2024-01-05T10:30z", "2024-01-05é10:30",
    "2024-01-05\n10:30", "2024-01-05T10:", "2024-01-05T10:30:",
    # out of range
    "2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32", "2024-04-31", "2023-02-29",
    "1900-02-29", "2100-02-29", "0000-01-01", "2024-01-05T24:00", "2024-01-05T10:60",
    "2024-01-05T10:30:60", "2024-01-05T23:59:60Z", "2024-01-05T10:30+24:00",
    "2024-01-05T10:30+01:60",
    # other text
    "", "1240", "vdi-a", "2024", "2024-01", "2024-1-5", " 2024-01-05", "2024-01-05 ",
    "2024-01-05\n", "2024-01-05T10:30Z ", "2024-01-05T10:30:00.", "2024-01-05T10:30:00.Z",
    "２０２４-01-05", "2024-01-05T1０:30", "2024-01-05T10:30\x00", "\x002024-01-05",
    "2024-01-05T10:30Z+01:00", "2024-01-05T10:30:00.5.5", "+2024-01-05", "12024-01-05",
    "2024-01-05T10:30:00+05:30Z", "2024-01-05 T10:30", "2024-01-05  10:30", "2024/01/05",
    "2024-01-05T", "2024-01-05Z", "2024-01-05+01:00", "\ud800", "2024-01-05\ud800",
]  # fmt: skip

EDGE_CASES = ACCEPTED + REFUSED


def rfc3339(text: str) -> bool:
    """An independent reading of the decision: the shape by plain string tests, the ranges by
    ``datetime``'s own constructor (which knows the calendar and refuses a 60th second)."""
    if len(text) < 10 or not text.isascii():
        return False

    def number(part: str, width: int) -> int | None:
        return int(part) if len(part) == width and part.isdigit() else None

    y, m, d = number(text[0:4], 4), number(text[5:7], 2), number(text[8:10], 2)
    if None in (y, m, d) or text[4] != "-" or text[7] != "-":
        return False
    rest = text[10:]
    time, zone = "", ""
    if rest:
        if rest[0] not in "T ":
            return False
        time = rest[1:]
        if time.endswith("Z"):
            time, zone = time[:-1], "Z"
        elif len(time) > 6 and time[-6] in "+-":
            time, zone = time[:-6], time[-6:]
    hh = mm = ss = 0
    if rest:
        hh_, mm_ = number(time[0:2], 2), number(time[3:5], 2)
        if hh_ is None or mm_ is None or time[2:3] != ":":
            return False
        hh, mm = hh_, mm_
        tail = time[5:]
        if tail:
            ss_ = number(tail[1:3], 2)
            if tail[0] != ":" or ss_ is None:
                return False
            ss, fraction = ss_, tail[3:]
            if fraction and not (fraction[0] == "." and number(fraction[1:], len(fraction) - 1)
                                 is not None and len(fraction) > 1):  # fmt: skip
                return False
    if zone and zone != "Z":
        oh, om = number(zone[1:3], 2), number(zone[4:6], 2)
        if oh is None or om is None or zone[3] != ":" or oh > 23 or om > 59:
            return False
    try:
        dt.datetime(y, m, d, hh, mm, ss)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


ALPHABET = "0123456789-:.,+ZTzt W\n\x00é２"


def mutate(rng: random.Random, s: str, times: int) -> str:
    for _ in range(times):
        op, at = rng.random(), rng.randrange(len(s) + 1)
        if op < 0.35:
            s = s[:at] + rng.choice(ALPHABET) + s[at:]
        elif op < 0.7:
            s = s[:at] + s[at + 1 :]
        else:
            s = s[:at] + rng.choice(ALPHABET) + s[at + 1 :]
    return s


def spelled(rng: random.Random) -> str:
    """A date-time spelled field by field, each field now and then out of its range."""
    y, m, d = rng.randrange(0, 10_000), rng.randrange(0, 14), rng.randrange(0, 33)
    s = f"{y:04d}-{m:02d}-{d:02d}"
    if rng.random() < 0.75:
        s += rng.choice("T T ") + f"{rng.randrange(0, 26):02d}:{rng.randrange(0, 62):02d}"
        if rng.random() < 0.6:
            s += f":{rng.randrange(0, 62):02d}"
            if rng.random() < 0.5:
                s += "." + "".join(rng.choice("0123456789") for _ in range(rng.randrange(1, 12)))
        zone = rng.random()
        if zone < 0.3:
            s += "Z"
        elif zone < 0.6:
            s += f"{rng.choice('+-')}{rng.randrange(0, 26):02d}:{rng.randrange(0, 62):02d}"
    return s


def corpus(seed: int, n: int) -> list[str]:
    """Spelled date-times, then zero to three random insertions, deletions or replacements
    (seeded, so a failure reproduces)."""
    rng = random.Random(seed)
    return [mutate(rng, spelled(rng), rng.choice([0, 0, 1, 1, 2, 3])) for _ in range(n)]


def test_the_listed_strings_are_accepted_and_refused() -> None:
    assert [s for s in ACCEPTED if not is_iso(s)] == []
    assert [s for s in REFUSED if is_iso(s)] == []


def test_the_reference_reading_agrees_on_the_lists() -> None:
    """The oracle of the generated tests is itself right on the lists."""
    assert {s: rfc3339(s) for s in EDGE_CASES} == {s: s in ACCEPTED for s in EDGE_CASES}


@pytest.mark.parametrize("seed", range(3))
def test_generated_strings_are_judged_as_the_rfc_reads_them(seed: int) -> None:
    texts = corpus(seed, 15_000)
    assert [s for s in texts if is_iso(s) != rfc3339(s)] == []
    assert 2_000 < sum(map(is_iso, texts)) < 13_000  # both verdicts are exercised


@settings(max_examples=2000, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(
    st.text(alphabet="0123456789-:.+ZT ", max_size=40)
    | st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 3)).map(
        lambda a: mutate(random.Random(a[0]), spelled(random.Random(a[0])), a[1])
    )
)
def test_hypothesis_strings_are_judged_as_the_rfc_reads_them(text: str) -> None:
    assert is_iso(text) == rfc3339(text)
    parsed = parse_iso(text)
    assert (parsed is not None) == is_iso(text)


def test_every_leap_day_of_the_calendar() -> None:
    for year in range(1, 10_000):
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        assert is_iso(f"{year:04d}-02-29") == leap, year
        assert is_iso(f"{year:04d}-02-28T00:00Z"), year


def test_the_engine_pattern_is_anchored_for_search_style_functions() -> None:
    assert engine_pattern() == f"^{ISO_PATTERN}\\z"
    assert DATE.pattern == ISO_PATTERN  # CSV parsing reads the very same grammar


def test_the_pattern_is_written_in_the_syntax_every_engine_runs() -> None:
    """No capturing or named group, no look-around, no back-reference, no \\d (Unicode in
    Rust), no $ (Java's also matches before a final newline)."""
    assert "(?P" not in ISO_PATTERN and "(?=" not in ISO_PATTERN and "(?<" not in ISO_PATTERN
    assert re.search(r"\((?!\?:)", ISO_PATTERN) is None
    assert "\\d" not in ISO_PATTERN and "$" not in ISO_PATTERN and "\\1" not in ISO_PATTERN


def test_parse_reads_the_fields_the_grammar_accepted() -> None:
    utc = dt.UTC
    assert parse_iso("2024-01-05") == dt.datetime(2024, 1, 5)
    assert parse_iso("2024-01-05 10:30") == dt.datetime(2024, 1, 5, 10, 30)
    assert parse_iso("2024-01-05T10:30:07.5") == dt.datetime(2024, 1, 5, 10, 30, 7, 500_000)
    assert parse_iso("2024-01-05T10:30:07.1234567891Z") == dt.datetime(
        2024, 1, 5, 10, 30, 7, 123_456, utc
    )
    assert parse_iso("2024-01-05T10:30-00:00") == dt.datetime(2024, 1, 5, 10, 30, tzinfo=utc)
    east = parse_iso("2024-01-05T10:30+05:30")
    assert east == dt.datetime(2024, 1, 5, 5, 0, tzinfo=utc)
    assert east is not None and east.utcoffset() == dt.timedelta(hours=5, minutes=30)
    west = parse_iso("2024-01-05T23:30:00-08:00")
    assert west is not None and west.astimezone(utc) == dt.datetime(2024, 1, 6, 7, 30, tzinfo=utc)
    # CPython bug 107779 read this as 20:00 UTC; here it is no date at all
    assert parse_iso("20230808120000Z") is None and parse_iso("2024-01-05x10:30") is None


def test_parse_agrees_with_fromisoformat_on_every_accepted_string() -> None:
    """Python 3.11+ reads every string of the grammar the same way (and more besides)."""
    texts = ACCEPTED + [s for s in corpus(5, 5_000) if is_iso(s)]
    pairs = [(s, parse_iso(s), dt.datetime.fromisoformat(s)) for s in texts]
    assert [s for s, ours, theirs in pairs if ours != theirs] == []  # naive != aware, too
    assert [s for s, ours, theirs in pairs if ours and ours.utcoffset() != theirs.utcoffset()] == []


def test_plain_date_is_the_naive_microsecond_part_of_the_grammar() -> None:
    plain = re.compile(PLAIN_DATE)
    texts = EDGE_CASES + corpus(7, 5_000)
    for s in texts:
        if plain.fullmatch(s):
            got = parse_iso(s)
            assert got is not None and got.tzinfo is None, s
            assert len(s.partition(".")[2]) <= 6, s


def test_the_form_named_in_findings_is_the_grammar() -> None:
    assert DATE_FORM == (
        "YYYY-MM-DD, optionally followed by T or a space and HH:MM[:SS[.fraction]], then "
        "optionally Z or ±HH:MM (RFC 3339)"
    )


# --- the same answer everywhere --------------------------------------------------------------

TEXTS = EDGE_CASES + corpus(11, 4_000)


def _engine_texts() -> list[str]:
    """The strings an engine column can hold (no lone surrogate)."""
    return [s for s in TEXTS if not any(0xD800 <= ord(c) < 0xE000 for c in s)]


def test_the_c_validator_gives_the_same_answer_and_the_same_moment() -> None:
    speedups = columnar.SPEEDUPS
    if speedups is None:
        pytest.skip("chartkit._speedups is not built")
    for s in TEXTS:
        verdict, wall, aware = speedups.iso_verdict(s)
        assert verdict == (0 if is_iso(s) else 1), s
        parsed = parse_iso(s)
        if parsed is not None:
            offset = parsed.utcoffset() or dt.timedelta(0)
            naive = parsed.replace(tzinfo=None) - offset - dt.datetime(1970, 1, 1)
            assert wall == naive // dt.timedelta(microseconds=1), s
            assert aware == (parsed.tzinfo is not None), s


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "pure-python"])
def test_the_check_on_rows_gives_the_same_answer(compiled: bool) -> None:
    if compiled and columnar.SPEEDUPS is None:
        pytest.skip("chartkit._speedups is not built")
    saved = columnar.SPEEDUPS
    if not compiled:
        columnar.SPEEDUPS = None
    try:
        for s in TEXTS:
            found = check_columns([{"t": s}], {"t": "date"})
            assert (found == ()) == is_iso(s), s
    finally:
        columnar.SPEEDUPS = saved


def test_a_csv_cell_is_read_as_a_date_exactly_when_it_is_one() -> None:
    for s in TEXTS:
        if "\n" in s or "\x00" in s or not s:
            continue
        cell = parse_cell(s, "date")
        assert cell == (parse_iso(s) if is_iso(s) else s), s


def test_duckdb_gives_the_same_answer() -> None:
    duckdb = pytest.importorskip("duckdb")
    texts = [s for s in _engine_texts() if "\x00" not in s]  # DuckDB text holds no NUL
    expected = list(map(is_iso, texts))
    con = duckdb.connect()
    rows = con.execute(
        "SELECT regexp_matches(s, $p), regexp_full_match(s, $b) "
        "FROM (SELECT unnest($t::VARCHAR[]) AS s, generate_subscripts($t::VARCHAR[], 1) AS i) "
        "ORDER BY i",
        {"p": engine_pattern(), "b": ISO_PATTERN, "t": texts},
    ).fetchall()
    assert [r[0] for r in rows] == expected
    assert [r[1] for r in rows] == expected


def test_polars_gives_the_same_answer() -> None:
    pl = pytest.importorskip("polars")
    texts = _engine_texts()
    got = pl.Series(texts, dtype=pl.String).str.contains(engine_pattern()).to_list()
    assert got == list(map(is_iso, texts))


def test_pyarrow_gives_the_same_answer() -> None:
    pa = pytest.importorskip("pyarrow")
    pc = pytest.importorskip("pyarrow.compute")
    texts = _engine_texts()
    got = pc.match_substring_regex(pa.array(texts), engine_pattern()).to_pylist()
    assert got == list(map(is_iso, texts))


@pytest.mark.parametrize("engine", ["duckdb", "polars", "pyarrow"])
def test_the_check_in_each_engine_files_the_same_offenders(engine: str) -> None:
    """``check_columns`` over an engine frame counts and quotes what the rows' check does."""
    texts = [s for s in _engine_texts() if "\x00" not in s]
    rows: list[dict[str, Any]] = [{"t": s} for s in texts]
    frame: Any
    if engine == "duckdb":
        duckdb = pytest.importorskip("duckdb")
        pa = pytest.importorskip("pyarrow")
        table = pa.table({"t": pa.array(texts, pa.string())})
        frame = duckdb.connect().from_arrow(table)
    elif engine == "polars":
        pl = pytest.importorskip("polars")
        frame = pl.DataFrame({"t": texts}, schema={"t": pl.String})
    else:
        pa = pytest.importorskip("pyarrow")
        frame = pa.table({"t": pa.array(texts, pa.string())})
    (expected,) = check_columns(rows, {"t": "date"})
    (got,) = check_columns(frame, {"t": "date"})
    assert (got.affected, got.sample, got.sample_type) == (
        expected.affected, expected.sample, expected.sample_type
    )  # fmt: skip
    assert expected.affected == sum(not is_iso(s) for s in texts)
