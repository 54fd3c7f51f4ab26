"""``datetime.fromisoformat``'s acceptance set as one regular expression an engine can run.

The check calls a string in a column declared date an offender when ``fromisoformat``
refuses it. An engine cannot call Python, so it matches this pattern instead — the same set,
written out for RE2 (DuckDB), Rust's regex (polars) and ``java.util.regex`` (Spark) alike:
only classes, alternation, counted repeats and non-capturing groups, ``[0-9]`` for a digit
(``\\d`` means any Unicode digit in Rust), ``(?s)`` so ``.`` takes a newline too, ``\\z`` for
the very end (Java's ``$`` also matches before a final newline).

It follows CPython 3.11's C parser, quirks included (any one character between date and
time; a fraction after the hour or minute; ``,`` for ``.``; digits past the sixth dropped; a
lone trailing character before an offset). The calendar is exact: February 29 only in leap
years, ISO week 53 only in years that have one, nothing past 9999-12-31. Years, months, days,
hours, minutes, seconds and offsets are held to their ranges by the pattern itself, so a
pattern match is a ``fromisoformat`` success. ``tests/test_isodate.py`` holds the two to the
same verdict on edge cases and on generated strings. Not covered: a NUL character inside the
text (CPython stops reading at it in a few places); no engine column holds one in practice.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Final

__all__ = ["ISO_PATTERN", "engine_pattern", "is_iso"]

_D: Final = "[0-9]"


def _alt(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"


def _leap_years() -> str:
    """Four-digit years divisible by 4, except centuries not divisible by 400 (and 0000)."""
    by4 = "(?:0[48]|[2468][048]|[13579][26])"
    return _alt(f"{_D}{{2}}{by4}", f"{by4}00")


def _century_mod4(k: int) -> str:
    """Two digits CC with CC % 4 == k."""
    even = "".join(str(b) for b in range(10) if b % 4 == k)
    odd = "".join(str(b) for b in range(10) if (b + 2) % 4 == k)
    return _alt(f"[02468][{even}]", f"[13579][{odd}]")


@cache
def _years_with_week_53() -> str:
    """The years whose ISO calendar has a week 53, by their remainder modulo 400."""
    by_century: dict[int, list[str]] = {k: [] for k in range(4)}
    for year in range(2000, 2400):  # one full Gregorian cycle; 2000 % 400 == 0
        try:
            dt.date.fromisocalendar(year, 53, 1)
        except ValueError:
            continue
        by_century[(year // 100) % 4].append(f"{year % 100:02d}")
    return _alt(*(_century_mod4(k) + _alt(*yy) for k, yy in by_century.items() if yy))


def _year() -> str:
    return _alt("000[1-9]", "00[1-9][0-9]", "0[1-9][0-9]{2}", "[1-9][0-9]{3}")


def _month_day(dash: str) -> str:
    long = f"(?:0[13578]|1[02]){dash}(?:0[1-9]|[12][0-9]|3[01])"
    short = f"(?:0[469]|11){dash}(?:0[1-9]|[12][0-9]|30)"
    feb = f"02{dash}(?:0[1-9]|1[0-9]|2[0-8])"
    return _alt(long, short, feb)


def _calendar(dash: str) -> str:
    return _alt(_year() + dash + _month_day(dash), _leap_years() + f"{dash}02{dash}29")


def _week(dash: str, day: bool) -> str:
    """YYYY-Www[-D] (or without dashes); week 53 only where the year has one.

    A week date past 9999-12-31 is refused: 9999-W52-6 and -7 fall in the year 10000.
    """
    d = f"{dash}[1-7]" if day else ""
    w52 = "(?:0[1-9]|[1-4][0-9]|5[0-2])"
    common = _alt(
        _alt("000[1-9]", "00[1-9][0-9]", "0[1-9][0-9]{2}", "[1-8][0-9]{3}", "9[0-8][0-9]{2}",
             "99[0-8][0-9]", "999[0-8]") + f"{dash}W{w52}{d}",
        f"9999{dash}W(?:0[1-9]|[1-4][0-9]|5[01]){d}",
        f"9999{dash}W52" + (f"{dash}[1-5]" if day else ""),
        _years_with_week_53() + f"{dash}W53{d}",
    )  # fmt: skip
    return common


# --- time (CPython 3.11 ``parse_hh_mm_ss_ff``) -------------------------------------------------
# S is the text between the separator and the first Z, + or - (or the end). After each two-digit
# field the parser reads one character c: at the end of S (or c ending S) the time is done, with
# "trailing text" flagged when c was a character of S — fatal without an offset, ignored with one.

_HH: Final = "(?:[01][0-9]|2[0-3])"
_MS: Final = "[0-5][0-9]"
_NOT_TZ: Final = "[^Z+-]"
# One ASCII character other than Z, + and -: CPython reads the time as UTF-8 bytes, so a
# character tolerated on its own before an offset must be a single byte.
_ASCII_NOT_TZ: Final = "[\\x00-\\x2a,\\x2e-\\x59\\x5b-\\x7f]"
_ASCII_NOT_TZ_NOR_DIGIT: Final = "[\\x00-\\x2a,\\x2e\\x2f\\x3a-\\x59\\x5b-\\x7f]"


def _time(
    hh: str = _HH, mm: str = _MS, ss: str = _MS, *, offset_follows: bool, even_run: bool = False
) -> str:
    """The text before the offset (``offset_follows``) or before the end of the string.

    ``even_run``: the time's leading run of digits must have an even length (see ``_body``).
    """
    if offset_follows:
        tail = f"{_ASCII_NOT_TZ}?"
        run_tail = f"{_ASCII_NOT_TZ_NOR_DIGIT if even_run else _ASCII_NOT_TZ}?"  # ends the run
        frac = _alt(f"{_D}{{0,5}}", f"{_D}{{6}}{_NOT_TZ}*")
        bare = (
            _alt(f"(?:{_D}{{2}}){{1,2}}", f"{_D}{{6}}(?:{_D}{{2}})*(?:[^0-9Z+-]{_NOT_TZ}*)?")
            if even_run
            else _alt(f"{_D}{{2,5}}", f"{_D}{{6}}{_NOT_TZ}*")
        )
    else:
        tail = run_tail = ""
        frac = f"{_D}+"
        # one digit alone is a trailing character, not a fraction
        bare = f"(?:{_D}{{2}})+" if even_run else f"{_D}{{2,}}"
    extended = f":{mm}" + _alt(tail, f"[.,]{frac}", f":{ss}" + _alt(tail, f"[.,:]{frac}"))
    if offset_follows:
        extended = _alt(":", extended)  # "HH:" with an offset: the ":" is the tolerated tail
    basic = mm + _alt(run_tail, f"[.,]{frac}", ss + _alt(run_tail, f"[.,]{frac}", bare))
    return hh + _alt(run_tail, f"[.,]{frac}", extended, basic)


def _offset() -> str:
    """``Z`` at the very end, or a sign and an offset under 24 hours with nothing after it.

    Only the total is held under 24 hours: minutes and seconds of an offset may read 60-99.
    """
    any2 = f"{_D}{{2}}"
    return _alt(
        "Z",
        "[+-]"
        + _alt(
            _time("(?:[01][0-9]|2[0-2])", any2, any2, offset_follows=False),
            _time("23", "(?:[0-4][0-9]|5[0-8])", any2, offset_follows=False),
            _time("23", "59", _MS, offset_follows=False),
        ),
    )


def _times(*, even_run: bool = False) -> str:
    return _alt(
        _time(offset_follows=False, even_run=even_run),
        _time(offset_follows=True, even_run=even_run) + _offset(),
    )


def _body() -> str:
    """Date, then optionally one separator character and a time.

    Where CPython finds the separator decides a few spellings: after ``YYYY-Www-D`` a digit
    would make it read ``YYYY-Www`` with ``-`` as separator; after ``YYYYWww`` a run of digits
    splits by its parity, so the time's own digit run comes out even.
    """
    sep = "."
    weekless = _alt(_calendar("-"), _calendar(""), _week("-", day=False))
    return _alt(
        weekless + f"(?:{sep}{_times()})?",
        _week("-", day=True) + f"(?:[^0-9]{_times()})?",
        _alt(_week("", day=False), _week("", day=True))
        + _alt("", f"[^0-9]{_times()}", f"[0-9]{_times(even_run=True)}"),
    )


ISO_PATTERN: Final = f"(?s:{_body()})"
"""The pattern body; match it against the whole string (``fullmatch``)."""

_COMPILED: Final = re.compile(ISO_PATTERN)


def engine_pattern() -> str:
    """``ISO_PATTERN`` anchored for a search-style regex function (RE2, Rust, Java)."""
    return f"^{ISO_PATTERN}\\z"


def is_iso(text: str) -> bool:
    """True when the pattern accepts ``text`` — by design, exactly when ``fromisoformat`` does.

    >>> is_iso("2024-01-05T10:30Z"), is_iso("2024-02-30"), is_iso("2020-W53-7")
    (True, False, True)
    """
    return _COMPILED.fullmatch(text) is not None
