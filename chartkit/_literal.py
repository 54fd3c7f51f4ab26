"""Data shown as text, never as markup or control sequences.

Tool names, column names, descriptions and values come from tools nobody here controls. Where
they reach Markdown (Streamlit's alerts, captions, titles and widget labels) or a terminal,
they pass through one of these functions first:

- ``markdown_literal`` backslash-escapes every ASCII punctuation character, so no emphasis,
  link, image, HTML tag, KaTeX ``$…$``, code span, heading, list, table or autolink can form,
  and the reader sees the characters as the tool sent them;
- ``terminal_literal`` writes control characters (ESC and the rest of C0 and C1, the line and
  paragraph separators, the bidirectional overrides) and lone surrogates as visible escapes,
  so output cannot move the cursor, recolour, retitle or reorder a terminal.

Both show an invisible character visibly (``\\x1b``, ``\\u202e``) rather than drop it.
"""

from __future__ import annotations

import re
import string
from typing import Any, Final

__all__ = [
    "UNSAFE_CHARACTERS",
    "file_stem",
    "json_literal",
    "markdown_literal",
    "terminal_literal",
    "visible_controls",
    "visible_frame",
]

# DEL, C1, line/paragraph separators, bidi embeddings/overrides/isolates, lone surrogates and
# the two noncharacters U+FFFE/U+FFFF: characters that act (or break a reader) instead of showing.
_ACTING: Final = "\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff"
UNSAFE_CHARACTERS: Final = "\x00-\x1f" + _ACTING
"""The one list of characters no renderer, terminal, Vega expression or reader may receive
raw: C0 controls (newline included), then ``_ACTING``; a regex character-class body.
``chartkit._safe`` escapes these too."""
_CONTROLS = re.compile(f"[\x00-\x09\x0b-\x1f{_ACTING}]")  # all of them but the newline
_CONTROLS_AND_NEWLINE = re.compile(f"[{UNSAFE_CHARACTERS}]")
_PUNCTUATION = re.compile("([" + re.escape(string.punctuation) + "])")
_LEADING_SPACE = re.compile(r"^[ ]+", re.MULTILINE)
_AUTOLINK = re.compile(r":(?=//)|(?<![\w])www(?=\.)|@", re.IGNORECASE)
_WORD_JOINER = "\u2060"


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str, *, newlines: bool = False) -> str:
    r"""``text`` with each control character written as its escape (newlines kept unless asked).

    >>> visible_controls("a\x05b\u202ec\ud800")
    'a\\x05b\\u202ec\\ud800'
    """
    return (_CONTROLS_AND_NEWLINE if newlines else _CONTROLS).sub(_escape, text)


def markdown_literal(value: object, *, one_line: bool = False) -> str:
    r"""``value`` as Markdown that renders exactly its characters.

    Every ASCII punctuation character is backslash-escaped, and a word joiner (U+2060) follows
    the colon of ``://``, a ``www`` and an ``@``, so no autolink forms; control characters are
    written as escapes; a newline stays a line break (``one_line``: shown as ``\n``), and a
    line's leading spaces become no-break spaces, so indentation cannot make a code block.

    >>> markdown_literal("![x](http://e.test/b.png) **b** $x$ `c`")
    '\\!\\[x\\]\\(http\\:\u2060\\/\\/e\\.test\\/b\\.png\\) \\*\\*b\\*\\* \\$x\\$ \\`c\\`'
    """
    text = visible_controls(str(value), newlines=one_line)
    # GFM turns bare addresses in text (http://…, www.…, a@b.c) into links after escapes are
    # read; a word joiner (U+2060, invisible) inside each keeps them text.
    text = _AUTOLINK.sub(lambda m: m.group() + _WORD_JOINER, text)
    text = _PUNCTUATION.sub(r"\\\1", text)
    if one_line or "\n" not in text:
        return text
    text = _LEADING_SPACE.sub(lambda m: "\u00a0" * len(m.group()), text)
    return "\\\n".join(text.split("\n"))


def visible_frame(frame: Any) -> Any:
    """A pandas frame whose column names and text cells show their control characters.

    Answers ``frame`` itself when nothing needs it (the common case costs one scan of the text
    columns); otherwise a copy with those strings written through ``visible_controls``.
    """

    def fix(value: Any) -> Any:
        return visible_controls(value) if isinstance(value, str) else value

    def needs(value: Any) -> bool:
        return isinstance(value, str) and _CONTROLS.search(value) is not None

    names = [str(c) for c in frame.columns]
    bad_names = any(_CONTROLS.search(n) for n in names)
    from pandas.api.types import is_object_dtype, is_string_dtype

    text = [c for c in frame.columns if is_object_dtype(frame[c]) or is_string_dtype(frame[c])]
    bad_cells = [c for c in text if any(needs(v) for v in frame[c])]
    if not bad_names and not bad_cells:
        return frame
    out = frame.copy()
    for column in bad_cells:
        out[column] = [fix(v) for v in out[column]]
    if bad_names:
        out.columns = [visible_controls(n) for n in names]
    return out


def json_literal(text: str) -> str:
    r"""JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every acting character as
    a ``\u`` escape: the same JSON, safe to show, print or copy.

    >>> json_literal('{"t": "a\x9bb\ud800"}')
    '{"t": "a\\u009bb\\ud800"}'
    """
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def file_stem(name: str, *, default: str = "result") -> str:
    """A tool name made safe to suggest as a file name (letters, digits, ``.``, ``_``, ``-``).

    >>> file_stem("host_group_mappings"), file_stem("../a b/\x1b"), file_stem("")
    ('host_group_mappings', 'a_b', 'result')
    """
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")[:80]
    return stem or default


def terminal_literal(value: object) -> str:
    r"""``value`` safe to print on a terminal: controls (newlines too) written as escapes.

    >>> terminal_literal("t\x1b[31mRED\n")
    't\\x1b[31mRED\\n'
    """
    return visible_controls(str(value), newlines=True)
