"""Build the offline agent UI: the vega-embed bundle, and pages with View payloads embedded.

    python examples/build_agent_ui.py
        writes examples/vendor/vega-bundle.js (vega + vega-lite + vega-embed, from the
        installed vl-convert-python), so examples/agent_ui.html can draw charts offline.

    python examples/build_agent_ui.py app/examples/host_group_mappings.json -o lun.html
        views each tool result in the file (.json or .jsonl) under --mode (default warn) and
        writes lun.html — the agent UI with those payloads embedded — plus vendor/ next to it.
        A file that already holds View payloads (View.to_json()) is embedded as it is.

The bundle is generated, not checked in: it is about 900 kB of third-party JavaScript whose
exact version follows the installed vl-convert-python (and the Vega-Lite version Altair writes).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PAGE = HERE / "agent_ui.html"
BUNDLE = Path("vendor") / "vega-bundle.js"  # relative to the page, as the page loads it
_PAYLOAD_ELEMENT = re.compile(r'(<script type="application/json" id="payload">)([^<]*)(</script>)')


def vegalite_version() -> str | None:
    """The Vega-Lite version Altair writes specs for, if vl-convert ships it (e.g. ``"6.4"``)."""
    import altair as alt
    import vl_convert as vlc

    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return major_minor if major_minor in vlc.get_vegalite_versions() else None


def bundle_text() -> str:
    """vega, vega-lite and vega-embed in one classic script that defines ``window.vegaEmbed``."""
    import vl_convert as vlc

    version = vegalite_version()
    # The stub marks ``snippet`` as required; at run time it is optional (the default snippet
    # sets window.vegaEmbed, window.vegaLite and window.vega), and None means the latest.
    code = vlc.javascript_bundle(vl_version=version)  # type: ignore[call-arg]
    header = (
        "/* vega " + vlc.get_vega_version() + ", vega-lite " + (version or "latest") + ", "
        "vega-embed " + vlc.get_vega_embed_version() + " (BSD-3-Clause, the Vega project), "
        "bundled by vl-convert-python and written by examples/build_agent_ui.py. Generated: "
        "do not edit. */\n"
    )
    # One function scope, so the bundle's top-level names do not become globals of the page.
    return header + "(function () {\n" + code + "\n})();\n"


def write_bundle(directory: Path = HERE) -> Path:
    """Write ``vendor/vega-bundle.js`` under ``directory`` (next to the page); return its path."""
    target = directory / BUNDLE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(bundle_text(), encoding="utf-8")
    return target


def script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` left bare."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_with_payloads(payloads: Sequence[dict[str, Any]] | dict[str, Any]) -> str:
    """The agent UI page with ``payloads`` (one View payload or a list) embedded."""
    page = PAGE.read_text(encoding="utf-8")
    if len(_PAYLOAD_ELEMENT.findall(page)) != 1:
        raise RuntimeError(f"{PAGE} must hold exactly one payload element to fill in")
    body = script_json(payloads)
    return _PAYLOAD_ELEMENT.sub(lambda m: m.group(1) + body + m.group(3), page)


def build_page(
    out: Path, payloads: Sequence[dict[str, Any]] | dict[str, Any], *, bundle: bool = True
) -> Path:
    """Write the page with ``payloads`` embedded to ``out``, and the bundle next to it."""
    out = out.resolve()
    if out == PAGE:
        raise ValueError(f"{out} is the page template itself; write the built page elsewhere")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page_with_payloads(payloads), encoding="utf-8")
    if bundle:
        write_bundle(out.parent)
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
    parser.add_argument("-o", "--out", type=Path, help="the page to write (with FILE)")
    parser.add_argument("--mode", choices=("off", "warn", "enforce"), default="warn")
    parser.add_argument("--x")
    parser.add_argument("--y")
    parser.add_argument("--color")
    args = parser.parse_args(argv)
    if args.file is None:
        print(f"wrote {write_bundle()}")
        return 0
    if args.out is None:
        parser.error("with FILE, give the page to write: -o PAGE.html")
    payloads = payloads_from_file(args.file, mode=args.mode, x=args.x, y=args.y, color=args.color)
    page = build_page(args.out, payloads)
    print(f"wrote {page} ({len(payloads)} payloads) and {page.parent / BUNDLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
