"""Untrusted text made safe: samples capped, unsafe characters shown, specs made renderable.

Everything a tool returns is untrusted. Three rules, each in one place here:

- **A quoted sample is bounded** (``cap_sample``, ``sample_text``): at most
  ``SAMPLE_MAX_CHARS`` characters of any one string, ``SAMPLE_MAX_ITEMS`` items of a list or
  keys of an object, ``SAMPLE_MAX_DEPTH`` levels of nesting and about ``SAMPLE_MAX_TEXT``
  characters in all. Whatever is cut ends in a visible ``…`` that says how much there was,
  and the sample keeps its type (a cut string is still a string, a cut object an object).
- **Unsafe characters are shown, never dropped** (``visible``): control characters, line and
  paragraph separators, bidirectional overrides, lone surrogates and the noncharacters
  U+FFFE/U+FFFF become escapes such as ``\\x05`` or ``\\u2028``.
- **A spec reaches the renderer only as text it can draw** (``renderable``): every string,
  key or value, passes ``visible`` (vl-convert aborts the process on a control character),
  and every encoding title is escaped for the Vega expression Vega-Lite builds from it.

Two helpers serve the same end: ``script_json`` (a spec inside an HTML ``<script>`` stays
data) and ``workable_frame`` (the chart's copy of the rows holds only values pandas can work
on: a lone surrogate escaped, a signalling ``Decimal`` NaN made quiet).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, Final

from chartkit._lazy import lazy_module
from chartkit._literal import UNSAFE_CHARACTERS, visible_controls

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd
else:  # imported on first use (chartkit._lazy): a check of rows needs neither
    np = lazy_module("numpy")
    pd = lazy_module("pandas")

__all__ = [
    "NAMES_MAX_LISTED",
    "NAME_MAX_CHARS",
    "SAMPLE_MAX_CHARS",
    "SAMPLE_MAX_DEPTH",
    "SAMPLE_MAX_ITEMS",
    "SAMPLE_MAX_TEXT",
    "cap_names",
    "cap_sample",
    "cap_text",
    "name_list",
    "renderable",
    "sample_text",
    "script_json",
    "visible",
    "workable_frame",
]

SAMPLE_MAX_CHARS: Final = 120
"""Characters of any one string quoted in a sample (a name, a value, a key)."""
SAMPLE_MAX_ITEMS: Final = 8
"""Items of a list, or keys of an object, quoted in a sample."""
SAMPLE_MAX_DEPTH: Final = 3
"""Levels of nesting quoted in a sample; deeper containers are summarized."""
SAMPLE_MAX_TEXT: Final = 400
"""About how many characters a whole quoted sample may take."""

_ELLIPSIS: Final = "…"
_INT_DIGITS: Final = 40  # digits of an integer quoted before it is cut

# Characters a renderer, a terminal or a Vega expression must never receive raw.
_UNSAFE: Final = re.compile(f"[{UNSAFE_CHARACTERS}]")  # the one list, in chartkit._literal


def visible(text: str) -> str:
    """``text`` with every unsafe character shown as an escape (``\\x05``, ``\\n``, ``\\u2028``).

    Unsafe: control characters, line and paragraph separators, bidirectional overrides, lone
    surrogates and U+FFFE/U+FFFF. Nothing is dropped; safe text comes back as it was.

    >>> visible("a\\x05b"), visible("vdi-a")
    ('a\\\\x05b', 'vdi-a')
    """
    if _UNSAFE.search(text) is None:
        return text
    return visible_controls(text, newlines=True)  # the one escape, in chartkit._literal


def cap_text(text: str, limit: int = SAMPLE_MAX_CHARS) -> str:
    """``text`` cut to ``limit`` characters with ``… (N characters)`` when longer.

    >>> cap_text("abcdef", 3)
    'abc… (6 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}{_ELLIPSIS} ({len(text):,} characters)"


NAME_MAX_CHARS: Final = 200
"""Characters of a tool or column name quoted in a sentence before it is cut with ``…``."""


def cap_names(text: str, names: Iterable[object]) -> str:
    """``text`` with every name longer than ``NAME_MAX_CHARS`` cut as ``cap_text`` cuts it.

    A sentence is written with the column names as they are; this is the one pass that keeps
    it bounded, so a name of a few characters reads exactly as before and a 5 MB one is quoted
    as its first ``NAME_MAX_CHARS`` characters and ``… (N characters)``.

    >>> cap_names("bars per " + "n" * 300 + ".", ["n" * 300])[-23:]
    'nnnn… (300 characters).'
    """
    long = sorted({n for n in map(str, names) if len(n) > NAME_MAX_CHARS}, key=len, reverse=True)
    for name in long:  # longest first: a long name that contains another is cut whole
        quoted = repr(name)  # a name quoted with repr shows its escapes, not the raw name
        if quoted in text:
            text = text.replace(quoted, repr(cap_text(name, NAME_MAX_CHARS)))
        if name in text:
            text = text.replace(name, cap_text(name, NAME_MAX_CHARS))
    return text


NAMES_MAX_LISTED: Final = 20
"""Column names a sentence lists one by one; the rest are counted."""


def name_list(names: Iterable[object]) -> str:
    """Names repr-quoted and comma-joined, each cut at ``NAME_MAX_CHARS``, at most 20 of them.

    >>> name_list(["a", "b"]), name_list(map(str, range(22)))[-29:]
    ("'a', 'b'", "'18', '19' and 2 more columns")
    """
    listed: list[str] = []
    more = 0
    for name in names:
        if len(listed) < NAMES_MAX_LISTED:
            listed.append(repr(cap_text(str(name), NAME_MAX_CHARS)))
        else:
            more += 1
    text = ", ".join(listed)
    if more:
        text += f" and {more:,} more column{'s' if more > 1 else ''}"
    return text


class _Budget:
    """What is left of a sample's total length."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self, n: int) -> None:
        self.left -= n


def cap_sample(value: Any) -> Any:
    """A JSON value standing for ``value``, bounded in length and depth.

    Strings, numbers, booleans and null are kept (strings cut with a visible ``…``); lists
    and objects keep their kind and their first items; dates become ISO text; anything else
    its text. Never recurses deeper than ``SAMPLE_MAX_DEPTH``, so a value nested 100,000
    deep is as cheap as a flat one.

    >>> cap_sample({"a": [1, 2, 3]})
    {'a': [1, 2, 3]}
    >>> cap_sample(list(range(100)))[-1]
    '… (100 items)'
    >>> cap_sample([[[[[1]]]]])
    [[['[… 1 item]']]]
    """
    return _cap(value, 0, _Budget(SAMPLE_MAX_TEXT))


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def _cap(value: Any, depth: int, budget: _Budget) -> Any:
    if value is None or isinstance(value, bool):
        budget.take(5)
        return value
    if isinstance(value, int):
        return _cap_int(value, budget)
    if isinstance(value, float):
        budget.take(24)
        return (
            value
            if value == value and value not in (float("inf"), float("-inf"))
            else (repr(value))
        )
    if isinstance(value, str):
        text = cap_text(value, max(0, min(SAMPLE_MAX_CHARS, budget.left)))
        budget.take(len(text) + 2)
        return text
    if isinstance(value, Mapping):
        return _cap_mapping(value, depth, budget)
    if isinstance(value, list | tuple | set | frozenset):
        return _cap_items(value, depth, budget)
    if isinstance(value, Decimal):
        text = _decimal_text(value)
        if value.is_finite() and len(text) <= SAMPLE_MAX_CHARS:
            number = float(value)
            if math.isfinite(number):
                budget.take(len(text))
                return number  # a number in JSON, as it was before it was capped
        return _cap(text, depth, budget)
    if isinstance(value, dt.date | dt.time):
        return _cap(value.isoformat(), depth, budget)
    item = getattr(value, "item", None)  # a numpy scalar: its Python value
    if callable(item) and getattr(value, "ndim", None) == 0:
        try:
            plain = item()
        except Exception:  # an odd scalar is quoted as text instead
            plain = value
        if plain is not value and type(plain) is not type(value):
            if isinstance(plain, int) and hasattr(value, "dtype") and value.dtype.kind in "mM":
                return _cap(_text_of(value), depth, budget)  # a NaT or raw timedelta tick
            return _cap(plain, depth, budget)
    iso = getattr(value, "isoformat", None)
    if callable(iso):
        try:
            return _cap(str(iso()), depth, budget)
        except Exception:  # NaT and friends refuse; their text will do
            pass
    return _cap(_text_of(value), depth, budget)


def _text_of(value: Any) -> str:
    """``str(value)``, or a stand-in naming its type when even that fails."""
    try:
        return str(value)
    except Exception:  # RecursionError, a broken __str__, …
        return f"<{type(value).__name__}>"


def _decimal_text(value: Decimal) -> str:
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__}>"


def _cap_int(value: int, budget: _Budget) -> Any:
    bits = value.bit_length()
    if bits <= 140 and abs(value) < 10**_INT_DIGITS:  # up to 40 digits: quoted whole
        budget.take(_INT_DIGITS)
        return value
    budget.take(_INT_DIGITS + 24)
    sign = "-" if value < 0 else ""
    about = int(bits * 0.30102999566398) + 1  # digits, or one more (str() refuses huge ints)
    if bits > 200_000:  # leading digits would cost a long division: say the size only
        return f"{sign}{_ELLIPSIS} (about {about:,} digits)"
    cut = max(0, about - _INT_DIGITS)
    lead = str(abs(value) // 10**cut)
    return f"{sign}{lead[:_INT_DIGITS]}{_ELLIPSIS} ({len(lead) + cut:,} digits)"


def _cap_mapping(value: Mapping[Any, Any], depth: int, budget: _Budget) -> Any:
    try:
        n = len(value)
    except Exception:
        n = -1
    if depth >= SAMPLE_MAX_DEPTH or budget.left <= 0:
        budget.take(16)
        return "{…}" if n < 0 else f"{{{_ELLIPSIS} {_count(n, 'key')}}}"
    out: dict[str, Any] = {}
    try:
        for key, item in islice(value.items(), SAMPLE_MAX_ITEMS):
            if budget.left <= 0:
                break
            name = key if isinstance(key, str) else _text_of(key)
            name = cap_text(name, max(0, min(SAMPLE_MAX_CHARS, budget.left)))
            budget.take(len(name) + 4)
            out[name] = _cap(item, depth + 1, budget)
    except Exception:  # a mapping that breaks while read: say what was read
        pass
    if n < 0 or len(out) < n:
        out[_ELLIPSIS] = f"({_count(n, 'key')})" if n >= 0 else "(more)"
    return out


def _cap_items(value: Any, depth: int, budget: _Budget) -> Any:
    n = len(value)
    if depth >= SAMPLE_MAX_DEPTH or budget.left <= 0:
        budget.take(16)
        return f"[{_ELLIPSIS} {_count(n, 'item')}]"
    out: list[Any] = []
    for item in islice(value, SAMPLE_MAX_ITEMS):
        if budget.left <= 0:
            break
        out.append(_cap(item, depth + 1, budget))
        budget.take(2)
    if len(out) < n:
        out.append(f"{_ELLIPSIS} ({_count(n, 'item')})")
    return out


def sample_text(value: Any) -> str:
    """A sample as bounded JSON text: ``""``, ``"1240"``, ``17``, ``true``, ``{"a": 1, …}``.

    A finite ``Decimal`` is written unquoted with the digits the tool returned (when short);
    unsafe characters are shown as escapes (see ``visible``).

    >>> sample_text(""), sample_text(3), sample_text(None), sample_text("x" * 200)[-20:]
    ('""', '3', 'null', 'x… (200 characters)"')
    """
    if isinstance(value, Decimal):
        text = _decimal_text(value)
        if value.is_finite() and len(text) <= SAMPLE_MAX_CHARS:
            return text  # a number, so unquoted, with the digits the tool returned
    if isinstance(value, int) and not isinstance(value, bool):
        capped_int = _cap_int(value, _Budget(SAMPLE_MAX_TEXT))
        return str(capped_int)  # a number, so unquoted even when cut: 1000…(401 digits)
    capped = cap_sample(value)
    return visible(json.dumps(capped, ensure_ascii=False))


def script_json(value: Any) -> str:
    """JSON that can sit inside an HTML ``<script>`` element and stay data.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` …, so ``</script>`` in a value cannot end
    the element; U+2028 and U+2029 are escaped for JavaScript.

    >>> script_json({"k": "</script>"})
    '{"k": "\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    for raw, escaped in (
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("&", "\\u0026"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_FLAT: Final = frozenset({str, int, float, bool, type(None)})  # the types JSON calls values


def _unworkable(value: object) -> bool:
    """A lone surrogate in a string, or a signalling Decimal NaN: values pandas trips over."""
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    return isinstance(value, Decimal) and value.is_snan()


def _plainly_workable(values: list[Any]) -> bool:
    """True when no value can be unworkable, told without a call per value: text, numbers,
    booleans and None only (no Decimal, no subclass of str), their text searched as one."""
    kinds = set(map(type, values))
    if not _FLAT.issuperset(kinds):
        return False
    text = "".join(values if kinds == {str} else [v for v in values if type(v) is str])
    return text.isascii() or _SURROGATE.search(text) is None


def _workable(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, Decimal) and value.is_snan():
        return Decimal("NaN")  # an absence either way; a signalling one raises when compared
    return value


def workable_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``, or a copy in which pandas can work on every value (for the chart and table).

    A lone surrogate is no text: pandas' string dtype, pyarrow, JSON encoders and browsers all
    refuse it, so it is shown escaped (``\\ud800``). A signalling ``Decimal`` NaN raises when
    merely compared, so it becomes a quiet one — both are absences to the check, which has
    already judged the values as returned. Only object columns can hold either.
    """
    fixed: dict[int, np.ndarray[Any, Any]] = {}
    for i, dtype in enumerate(frame.dtypes):
        if not (isinstance(dtype, np.dtype) and dtype.kind == "O"):
            continue  # pandas' string dtype (kind "O" too) cannot hold a lone surrogate at all
        values = frame.iloc[:, i].tolist()
        if not _plainly_workable(values) and any(map(_unworkable, values)):
            shown = np.empty(len(values), dtype=object)
            shown[:] = [_workable(v) for v in values]
            fixed[i] = shown
    if not fixed:
        return frame
    out = frame.copy(deep=False)
    for i, column in fixed.items():
        out.isetitem(i, column)
    return out


# --- specs ------------------------------------------------------------------------------------

# Where a channel's title is drawn when its own ``title`` (the one Vega-Lite also writes into
# the tooltip expression) must be escaped for that expression.
_TITLE_HOMES: Final = {
    "x": "axis",
    "y": "axis",
    "color": "legend",
    "fill": "legend",
    "stroke": "legend",
    "size": "legend",
    "shape": "legend",
    "opacity": "legend",
    "row": "header",
    "column": "header",
    "facet": "header",
}


def renderable(spec: Any) -> Any:
    r"""A copy of a Vega-Lite spec that a renderer can draw and no string can break.

    Every string (keys and values, data included) passes ``visible``; every encoding title
    is escaped for the Vega expression Vega-Lite builds from titles for tooltips (it escapes
    the quotes itself, not the backslashes), with the plain title kept for the axis, legend or
    header that shows it.

    >>> spec = {"encoding": {"y": {"field": "v", "title": "a\\b"}},
    ...         "data": {"values": [{"v": "x\x05"}]}}
    >>> out = renderable(spec)
    >>> out["encoding"]["y"], out["data"]["values"][0]["v"]
    ({'field': 'v', 'title': 'a\\\\b', 'axis': {'title': 'a\\b'}}, 'x\\x05')
    """
    out = _visible_tree(spec)
    if isinstance(out, dict):
        _escape_titles(out)
    return out


def _visible_tree(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {visible(k) if isinstance(k, str) else k: _visible_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        records = _safe_records(value)
        return records if records is not None else [_visible_tree(v) for v in value]
    return value


_RECORDS_AT_LEAST: Final = 16  # a shorter list is walked value by value


def _safe_records(rows: list[Any]) -> list[Any] | None:
    """``_visible_tree(rows)`` for a chart's rows when no string in them needs escaping: a list
    of dicts with text keys and flat values (text, numbers, booleans, null), copied as they are.

    Every key and text value is searched at once, joined into one text (an unsafe character is
    a single code point, so the text holds one exactly when a string does). None when the list
    is short or of another shape, or when a string must be escaped: then the walk does it.
    """
    if len(rows) < _RECORDS_AT_LEAST or set(map(type, rows)) != {dict}:
        return None
    keys = list(chain.from_iterable(rows))
    values = list(chain.from_iterable(map(dict.values, rows)))
    if set(map(type, keys)) != {str} or not _FLAT.issuperset(map(type, values)):
        return None
    texts = "".join(keys) + "".join([v for v in values if type(v) is str])
    if _UNSAFE.search(texts) is not None:
        return None
    return list(map(dict, rows))


def _expression_text(title: str) -> str:
    """A title as the body of a double-quoted string in a Vega expression."""
    return title.replace("\\", "\\\\")  # Vega-Lite escapes the quotes itself, not these


def _escape_titles(spec: dict[str, Any]) -> None:
    """Escape the encoding titles of a spec and its layers, facets and concatenations."""
    for key in ("layer", "hconcat", "vconcat", "concat"):
        for part in spec.get(key) or ():
            if isinstance(part, dict):
                _escape_titles(part)
    inner = spec.get("spec")
    if isinstance(inner, dict):
        _escape_titles(inner)
    encoding = spec.get("encoding")
    if not isinstance(encoding, dict):
        return
    for channel, definition in encoding.items():
        for d in definition if isinstance(definition, list) else [definition]:
            if not isinstance(d, dict):
                continue
            title = d.get("title")
            if not isinstance(title, str):
                continue
            escaped = _expression_text(title)
            if escaped == title:
                continue
            d["title"] = escaped
            home = _TITLE_HOMES.get(channel)
            if home is not None and d.get(home, {}) is not None:
                shown = d.get(home) or {}
                if isinstance(shown, dict) and "title" not in shown:
                    d[home] = {**shown, "title": title}
