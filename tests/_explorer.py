"""The explorer page run in Streamlit's ``AppTest``, and how its tests read it.

The ``explorer`` fixture (tests/conftest.py) opens the page as a fresh session with no file
given; these helpers hand it a result and read what it says as the reader sees it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import chartkit.explorer._logic as ex
from chartkit.result import ToolResult

__all__ = ["APP", "blocks", "example", "ok", "open_explorer", "paste", "seen", "texts"]

APP = Path(__file__).resolve().parent.parent / "app" / "explorer.py"


def open_explorer(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The explorer's first run, with no file named at launch (``CHARTKIT_EXPLORE_FILE``)."""
    monkeypatch.delenv(ex.ENV_FILE, raising=False)
    return ok(AppTest.from_file(str(APP), default_timeout=120).run())


def ok(at: AppTest) -> AppTest:
    """The page ran without an exception; answer it for chaining."""
    assert [e.value for e in at.exception] == []
    return at


def paste(at: AppTest, result: dict[str, Any]) -> AppTest:
    """Hand the page a tool result through the sidebar's Paste JSON box."""
    at.radio(key="source").set_value("Paste JSON")
    at = ok(at.run())
    at.text_area(key="paste").input(json.dumps(result))
    return ok(at.run())


def seen(markdown: str) -> str:
    """Markdown the page wrote, as the reader sees it: escapes and word joiners removed."""
    return re.sub(r"\\([!-/:-@\[-`{-~\n])", r"\1", markdown).replace("\u2060", "")


def texts(at: AppTest, kind: str) -> list[str]:
    """Every element of ``kind`` (markdown, caption, warning, …) in the main area, as seen."""
    return [seen(e.value) for e in getattr(at.main, kind)]


def blocks(at: AppTest) -> dict[str, str]:
    """The check's block of each column, by column name: what follows its bold heading."""
    out = {}
    for element in at.markdown:
        text = seen(element.value)
        found = re.match(r"^\*\*Column '(.*?)'\*\*\n\n", text)
        if found:
            out[found.group(1)] = text[found.end() :]
    return out


def example(name: str) -> ToolResult:
    """The first result of a bundled example."""
    return ex.load_path(ex.EXAMPLES_DIR / f"{name}.json").results[0]
