"""The engines' ISO pattern accepts exactly what ``datetime.fromisoformat`` accepts.

A string in a column declared date is an offender when ``fromisoformat`` refuses it; in an
engine the check matches ``chartkit._isodate``'s pattern instead, so the two must agree on
every string: named edge cases, the whole calendar's leap days and week 53s, and generated
strings (seeded mutations of valid spellings, so a failure reproduces).
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from chartkit._isodate import ISO_PATTERN, engine_pattern, is_iso

SEEDS = [
    "2024-01-05", "20240105", "2024-W01", "2024-W01-1", "2024W01", "2024W011", "2020-W53-7",
    "2024-02-29", "1900-02-29", "2000-02-29", "9999-12-31", "0001-01-01", "9999-W52-5",
]  # fmt: skip
TIMES = [
    "10", "1030", "103000", "10:30", "10:30:00", "10:30:00.5", "10:30:00,123456789", "10.5",
    "10:30.25", "103000.5", "10:30:00:5", "1030005", "23:59:59.999999", "10:",
]  # fmt: skip
OFFSETS = [
    "", "Z", "+01", "-0130", "+01:30", "+01:30:15.5", "+23:59", "+24", "+0100.5", "-00:00",
    "+01:60", "+01:00:60", "+23:59:60",
]  # fmt: skip
ALPHABET = "0123456789-:.,+ZTW tz\né"

EDGE_CASES = [
    "2024-01-05", "2024-01-05T10:30", "2024-01-05 10:30:00.5", "2024-01-05T10:30:00Z",
    "2024-01-05T10:30+01:00", "2024-01-05t10:30", "2024-01-05é10:30", "2024-01-05\n10:30",
    "2024-01-05T10:00:00.1234567", "2024-01-05T10:00:00,5", "2024-01-05T10.5",
    "2024-01-05T10:+01:00", "2024-01-05T10:00:00:5", "2024-01-05T10:00:00.+01",
    "2024-01-05T10:00:00.", "2024-01-05T24:00", "2024-01-05T10:00:60", "2024-01-05T10:00+24:00",
    "2024-01-05T10:00+23:59", "2024-01-05T10:00z", "2024-01-05T10Z ", "2024-01-05T10:00:00Z+01",
    "2023-02-29", "2024-02-29", "1900-02-29", "2000-02-29", "0000-01-01", "0001-01-01",
    "2024-W53", "2020-W53", "2024-W01-8", "2024-W00-1", "9999-W52-5", "9999-W52-6",
    "2024-W01-10:00", "2024-W01-11", "2024W01100:00", "2024W011000", " 2024-01-05",
    "2024-01-05 ", "2024-1-5", "２０２４-01-05", "2024-01", "2024", "2024-005", "", "1240",
    "vdi-a", "2024-01-05T1", "2024-13-01", "2024-04-31",
]  # fmt: skip


def fromisoformat_accepts(text: str) -> bool:
    try:
        dt.datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def corpus(seed: int, n: int) -> list[str]:
    """Valid date-times, then zero to three random insertions, deletions or replacements."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        s = rng.choice(SEEDS)
        if rng.random() < 0.8:
            s += rng.choice("T T-é\n0") + rng.choice(TIMES) + rng.choice(OFFSETS)
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            op, at = rng.random(), rng.randrange(len(s) + 1)
            if op < 0.35:
                s = s[:at] + rng.choice(ALPHABET) + s[at:]
            elif op < 0.7:
                s = s[:at] + s[at + 1 :]
            else:
                s = s[:at] + rng.choice(ALPHABET) + s[at + 1 :]
        out.append(s)
    return out


def test_the_edge_cases_are_judged_as_fromisoformat_judges_them() -> None:
    assert {s: is_iso(s) for s in EDGE_CASES} == {s: fromisoformat_accepts(s) for s in EDGE_CASES}
    assert sum(map(is_iso, EDGE_CASES)) > 15  # both verdicts are exercised


@pytest.mark.parametrize("seed", range(4))
def test_generated_strings_are_judged_as_fromisoformat_judges_them(seed: int) -> None:
    texts = corpus(seed, 15_000)
    disagree = [s for s in texts if is_iso(s) != fromisoformat_accepts(s)]
    assert disagree == []


def test_every_leap_day_and_week_53_of_the_calendar() -> None:
    for year in range(1, 10_000):
        y = f"{year:04d}"
        for text in (f"{y}-02-29", f"{y}-W53", f"{y}W527", f"{y}-W52-7"):
            assert is_iso(text) == fromisoformat_accepts(text), text


def test_the_engine_pattern_is_anchored_for_search_style_functions() -> None:
    assert engine_pattern() == f"^{ISO_PATTERN}\\z"


def test_duckdb_and_polars_run_the_pattern_with_the_same_verdicts() -> None:
    duckdb = pytest.importorskip("duckdb")
    pl = pytest.importorskip("polars")
    texts = EDGE_CASES + corpus(11, 5_000)
    expected = [fromisoformat_accepts(s) for s in texts]
    assert pl.Series(texts, dtype=pl.String).str.contains(engine_pattern()).to_list() == expected
    con = duckdb.connect()
    rows = con.execute(
        "SELECT regexp_matches(s, $p) FROM (SELECT unnest($t::VARCHAR[]) AS s)",
        {"p": engine_pattern(), "t": texts},
    ).fetchall()
    assert [r[0] for r in rows] == expected
