"""docs/gallery.md is what ``make gallery`` writes from today's code: each example, each picture."""

from __future__ import annotations

import json
import re
from pathlib import Path

from chartkit import view

REPO = Path(__file__).resolve().parents[1]
GALLERY = REPO / "docs" / "gallery.md"


def _md(text: str) -> str:
    out = text.replace("\\", "\\\\")
    for ch in "`*_[]<>|#":
        out = out.replace(ch, f"\\{ch}")
    return out


def test_the_gallery_shows_every_example_with_its_reasons_as_the_code_says_them() -> None:
    text = GALLERY.read_text(encoding="utf-8")
    for path in sorted((REPO / "chartkit" / "examples").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        shown = view(data["rows"], data.get("resultColumns"), tool=data["tool"])
        assert f"## {path.stem}\n" in text
        assert f"**Opens on** ({shown.kind}): {_md(shown.reason)}" in text, "run make gallery"
        for i, alternative in enumerate(shown.alternatives):
            assert f"`view(..., choose={i})" in text
            assert f"**Why**: {_md(alternative.reason)}" in text, "run make gallery"


def test_every_picture_the_gallery_shows_is_in_the_repository() -> None:
    pictures = re.findall(r"\]\((gallery/[^)]+\.png)\)", GALLERY.read_text(encoding="utf-8"))
    assert len(pictures) > 20
    for picture in pictures:
        assert (REPO / "docs" / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
