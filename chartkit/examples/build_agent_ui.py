"""Write the agent UI: chartkit's one View renderer as a page of its own, payloads embedded.

    python -m chartkit.examples.build_agent_ui host_group_mappings.json -o lun.html
        views each tool result in the file (.json or .jsonl) under --mode (default warn) and
        writes lun.html with those payloads embedded. A file that already holds View payloads
        (View.to_json()) is embedded as it is.

    python -m chartkit.examples.build_agent_ui -o page.html
        writes the page with no payload: it opens the View payloads (View.to_json()) you pick
        or drop. In a checkout, examples/agent_ui.html is that page already (a link to it).

``chartkit examples --copy DIR`` gives bundled results to try it on. In a checkout,
``python examples/build_agent_ui.py`` is the same file.

The page is chartkit/web/view.html — the very page MCP Apps hosts load as
ui://chartkit/view.html (one renderer, two doors), built from web/ by `make web` and shipped
in the package. It is one file: Vega, Vega-Lite, vega-embed and vega-interpreter are inlined,
so it opens offline from file:// and fetches nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from chartkit.page import page_with_payloads, script_json

__all__ = [
    "PAGE",
    "build_page",
    "main",
    "page_with_payloads",
    "payloads_from_file",
    "script_json",
]

PAGE = Path(__file__).resolve().parent.parent / "web" / "view.html"
"""The shipped page itself (``examples/agent_ui.html`` in a checkout links to it)."""


def build_page(out: Path, payloads: Sequence[dict[str, Any]] | dict[str, Any] | None) -> Path:
    """Write the page with ``payloads`` embedded (None: the empty page with its picker)."""
    if out.resolve() == PAGE.resolve():
        raise ValueError(f"{out} is the shipped page itself; write the built page elsewhere")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page_with_payloads(payloads), encoding="utf-8")
    return out


def payloads_from_file(
    path: Path,
    *,
    mode: str = "warn",
    x: str | None = None,
    y: str | None = None,
    color: str | None = None,
) -> list[dict[str, Any]]:
    """View payloads for a file of tool results, or the payloads a file already holds."""
    from chartkit import read_results, view

    loaded = _json_or_none(path)
    items = loaded if isinstance(loaded, list) else [loaded]
    if loaded is not None and items and all(_is_payload(p) for p in items):
        return list(items)
    return [
        view(result, mode=mode, x=x, y=y, color=color).to_dict()  # type: ignore[arg-type]
        for result in read_results(path)
    ]


def _json_or_none(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None  # .jsonl: tool results, one a line


def _is_payload(value: object) -> bool:
    return isinstance(value, dict) and {"version", "kind", "reason", "spec"} <= value.keys()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, help="tool results or View payloads")
    parser.add_argument("-o", "--out", type=Path, help="the page to write")
    parser.add_argument("--mode", choices=("off", "warn", "enforce"), default="warn")
    parser.add_argument("--x")
    parser.add_argument("--y")
    parser.add_argument("--color")
    args = parser.parse_args(argv)
    if args.out is None:
        parser.error("give the page to write: -o PAGE.html")
    if args.file is None:
        print(f"wrote {build_page(args.out, None)}")
        return 0
    payloads = payloads_from_file(args.file, mode=args.mode, x=args.x, y=args.y, color=args.color)
    page = build_page(args.out, payloads)
    print(f"wrote {page} ({len(payloads)} payloads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
