"""The built page, ``chartkit/web/view.html``: package data, read without any optional extra.

One renderer, two doors: ``chartkit.apps`` serves it as ``ui://chartkit/view.html`` to MCP
Apps hosts, and ``examples/build_agent_ui.py`` writes it as a page of its own with View
payloads embedded. It is built from ``web/`` by ``make web``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from chartkit.errors import ChartkitError

__all__ = ["page_with_payloads", "script_json", "view_html"]

_PAYLOAD_ELEMENT = re.compile(r'(<script type="application/json" id="payload">)([^<]*)(</script>)')


@functools.cache
def view_html() -> str:
    """The page: one self-contained HTML document (Vega and its interpreter inlined)."""
    page = resources.files("chartkit").joinpath("web", "view.html")
    try:
        return page.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ChartkitError(
            "chartkit/web/view.html is missing from this installation; reinstall chartkit, or "
            "in a checkout build it with `make web`"
        ) from None


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` left bare.

    >>> script_json({"reason": "</script>"})
    '{"reason": "\\\\u003c/script\\\\u003e"}'
    """
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_with_payloads(payloads: Sequence[dict[str, Any]] | dict[str, Any] | None) -> str:
    """The page on its own, rendering ``payloads`` (one View payload, a list, or None: empty)."""
    page = view_html()
    if len(_PAYLOAD_ELEMENT.findall(page)) != 1:
        raise ChartkitError("chartkit/web/view.html must hold exactly one payload element")
    body = script_json(payloads)
    return _PAYLOAD_ELEMENT.sub(lambda m: m.group(1) + body + m.group(3), page)
