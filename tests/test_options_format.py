"""``format=`` reaches Vega expressions (tooltips, accessibility labels): a fill character that
would end or escape the expression's string is refused; every accepted format exports."""

from __future__ import annotations

import json
import string
import subprocess
import sys
import textwrap

import pytest

from chartkit import ChartkitError, view
from chartkit.options import is_d3_format

UNSAFE_FILLS = ['"', "'", "`", "\\", "\x00", "\r", "\x1b", "\u2028", "\u202e", "\x85", "😀"]
# every printable ASCII character but the letters and digits, and a few beyond ASCII
SAFE_FILLS = [c for c in string.punctuation if c not in "\"'`\\"] + [" ", "é", "·", "█"]
FORMATS = [f"{fill}{align}12,.2f" for fill in SAFE_FILLS for align in "<>^="][::3] + [
    f"{fill}^9.1%" for fill in SAFE_FILLS
]


@pytest.mark.parametrize("fill", UNSAFE_FILLS)
def test_a_fill_that_could_leave_the_expression_string_is_refused(fill: str) -> None:
    spec = f"{fill}<,.2f"
    assert not is_d3_format(spec)
    with pytest.raises(ChartkitError) as caught:
        view([{"k": "a", "v": 1.5}], {"k": "string", "v": "number"}, format=spec)
    assert str(caught.value) == (
        f"format={spec!r} pads with {fill!r}, which chartkit does not take as a fill character: "
        "the format is written into the chart's tooltip and accessibility expressions; pad with "
        "a printable character up to U+FFFF other than a quote mark (\" ' `) or a backslash, "
        "e.g. "
        "'*>10,.2f', or leave the fill out ('>10,.2f' pads with spaces)"
    )


def test_every_accepted_fill_exports_to_svg_png_and_html() -> None:
    assert all(is_d3_format(f) for f in FORMATS)
    # in a child: vl-convert aborts the whole process on what it cannot parse
    probe = textwrap.dedent(
        """
        import json, sys
        from chartkit import view
        rows = [{"k": "a", "v": 1234.5}, {"k": "b", "v": -0.25}]
        for i, spec in enumerate(json.loads(sys.argv[1])):
            shown = view(rows, {"k": "string", "v": "number"}, format=spec)
            svg = shown.to_svg()
            assert "<svg" in svg and 'aria-label="k: a; v: ' in svg, spec
            if i % 10 == 0:
                assert shown.to_png()[:4] == b"\\x89PNG", spec
                assert "<html" in shown.to_html().lower(), spec
            print("ok", json.dumps(spec))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(FORMATS)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("ok ") == len(FORMATS)
