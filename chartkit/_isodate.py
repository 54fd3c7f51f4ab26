"""What a date string is, written once: RFC 3339, nothing else, on every Python version.

A string in a column declared date is a date when it is

    YYYY-MM-DD
    YYYY-MM-DD, then T or a space, then HH:MM[:SS[.fraction]], then optionally Z or ±HH:MM

(``DATE_FORM`` says it in words, for the findings). Upper-case ``T`` and ``Z`` only; one space
or ``T`` between date and time; a fraction of one or more digits, after the seconds only; an
offset only after a time. Every field is held to its range: the year 0001-9999 (a Python
``datetime`` holds no year 0), the month 01-12, the day valid for its month (February 29 only
in leap years), the hour 00-23, minutes and seconds 00-59, an offset's hours 00-23 and its
minutes 00-59. A leap second (``:60``) is refused: no ``datetime`` or timestamp a chart is
drawn from can hold it, and placing it at the next second would invent a value. ``-00:00``
(RFC 3339's "offset unknown") reads as UTC.

The grammar is one regular expression, built here from its fields (``ISO_PATTERN``), in the
syntax every engine runs — RE2 (DuckDB, pyarrow), Rust's regex (polars) and
``java.util.regex`` (Spark) — only classes, alternation, counted repeats and non-capturing
groups, ``[0-9]`` for a digit (``\\d`` means any Unicode digit in Rust). ``engine_pattern``
anchors it for search-style functions (``\\z``: Java's ``$`` also matches before a final
newline); Python matches the same text with ``fullmatch``. ``parse_iso`` reads an accepted
string into the ``datetime`` the chart plots (a fraction's digits past the sixth dropped, ``Z``
and offsets as fixed zones, naive text naive), without ``datetime.fromisoformat``, whose set
differs between Python versions. The compiled reader (``chartkit/_speedups.c``) implements the
same grammar by hand; ``tests/test_isodate.py`` and ``tests/test_speedups.py`` hold it, CSV
parsing and every engine to this pattern on listed and generated strings.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache
from typing import Final

__all__ = [
    "DATE_FORM",
    "ISO_PATTERN",
    "ISO_RE",
    "PLAIN_DATE",
    "engine_pattern",
    "is_iso",
    "parse_iso",
]

DATE_FORM: Final = (
    "YYYY-MM-DD, optionally followed by T or a space and HH:MM[:SS[.fraction]], "
    "then optionally Z or ±HH:MM (RFC 3339)"
)
"""The accepted form in words: what a finding about a date column says is expected."""

_D: Final = "[0-9]"


def _alt(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"


# --- the fields ---------------------------------------------------------------------------

_YEAR: Final = _alt("000[1-9]", "00[1-9][0-9]", "0[1-9][0-9]{2}", "[1-9][0-9]{3}")
"""0001-9999."""
_LEAP_YEAR: Final = _alt(
    f"{_D}{{2}}(?:0[48]|[2468][048]|[13579][26])",  # divisible by 4, not a century
    "(?:0[48]|[2468][048]|[13579][26])00",  # a century divisible by 400 (0000 is no year)
)
_MONTH_DAY: Final = _alt(
    "(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])",  # 31 days
    "(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)",  # 30 days
    "02-(?:0[1-9]|1[0-9]|2[0-8])",  # February, any year
)
_DATE: Final = _alt(f"{_YEAR}-{_MONTH_DAY}", f"{_LEAP_YEAR}-02-29")
_HOUR: Final = "(?:[01][0-9]|2[0-3])"
_MINUTE: Final = "[0-5][0-9]"
_SECOND: Final = "[0-5][0-9]"  # no leap second: see the module's docstring
_FRACTION: Final = f"{_D}+"
_OFFSET: Final = _alt("Z", f"[+-]{_HOUR}:{_MINUTE}")
_TIME: Final = f"{_HOUR}:{_MINUTE}(?::{_SECOND}(?:\\.{_FRACTION})?)?"

ISO_PATTERN: Final = f"{_DATE}(?:[T ]{_TIME}{_OFFSET}?)?"
"""The grammar as one regex body; match it against the whole string (``fullmatch``)."""

PLAIN_DATE: Final = f"{_DATE}(?:[T ]{_HOUR}:{_MINUTE}(?::{_SECOND}(?:\\.{_D}{{1,6}})?)?)?"
"""The naive dates, to the microsecond at most: the accepted strings a SQL engine casts to
TIMESTAMP as the very ``datetime`` ``parse_iso`` gives (no offset to apply, no digit to drop)."""

ISO_RE: Final = re.compile(ISO_PATTERN)
"""``ISO_PATTERN`` compiled: ``ISO_RE.fullmatch(text)`` is a match exactly for a date string."""

# The parse: where the fields of an accepted string are. The date and HH:MM stand at fixed
# places; only the seconds, the fraction and the zone may be absent.
_PARTS: Final = re.compile(r".{16}(?::(..)(?:\.([0-9]+))?)?(Z|[+-]..:..)?", re.DOTALL)


def engine_pattern() -> str:
    """``ISO_PATTERN`` anchored for a search-style regex function (RE2, Rust, Java).

    >>> engine_pattern().startswith("^") and engine_pattern().endswith("\\\\z")
    True
    """
    return f"^{ISO_PATTERN}\\z"


def is_iso(text: str) -> bool:
    """Whether ``text`` is a date string (RFC 3339, see the module's docstring).

    >>> is_iso("2024-01-05T10:30Z"), is_iso("2024-02-30"), is_iso("20230808120000Z")
    (True, False, False)
    """
    return ISO_RE.fullmatch(text) is not None


def parse_iso(text: str) -> dt.datetime | None:
    """The ``datetime`` a date string stands for, or None when ``is_iso`` refuses it.

    Aware (a fixed zone) when it carries ``Z`` or an offset, naive otherwise; digits of a
    fraction past the microsecond are dropped.

    >>> parse_iso("2024-01-05T10:30:00.1234567+05:30").isoformat()
    '2024-01-05T10:30:00.123456+05:30'
    >>> parse_iso("2024-01-05"), parse_iso("20230808120000Z")
    (datetime.datetime(2024, 1, 5, 0, 0), None)
    """
    if ISO_RE.fullmatch(text) is None:
        return None
    day = dt.date(int(text[:4]), int(text[5:7]), int(text[8:10]))
    if len(text) == 10:
        return dt.datetime(day.year, day.month, day.day)
    parts = _PARTS.fullmatch(text)
    assert parts is not None  # every accepted string with a time has this shape
    second, fraction, zone = parts.groups()
    micros = int((fraction or "")[:6].ljust(6, "0"))
    return dt.datetime(
        day.year, day.month, day.day, int(text[11:13]), int(text[14:16]),
        int(second or 0), micros, _zone(zone),
    )  # fmt: skip


@cache
def _zone(zone: str | None) -> dt.tzinfo | None:
    if zone is None:
        return None
    if zone == "Z":
        return dt.UTC
    sign = -1 if zone[0] == "-" else 1
    offset = dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return dt.UTC if not offset else dt.timezone(sign * offset)
