"""Take the README's screenshot of the explorer: ``python docs/screenshot.py``.

Starts ``streamlit run app/explorer.py`` on a free localhost port, opens it in headless
Chromium (Debian's ``/usr/bin/chromium``, through Playwright) on the LUN example, waits until
Vega has drawn the chart, and writes ``docs/explorer.png``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from _browser import browser_page, settle, streamlit_server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=REPO / "docs" / "explorer.png")
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=1900)
    args = parser.parse_args()
    env = {"CHARTKIT_EXPLORE_FILE": "", "CHARTKIT_EXPLORE_MAX_MB": ""}
    with (
        streamlit_server(env=env) as url,
        browser_page(width=args.width, height=args.height) as page,
    ):
        page.goto(url)
        page.wait_for_selector(".vega-embed svg g.mark-rect path", timeout=60_000)
        settle(page)
        page.wait_for_timeout(500)  # let the last fade-in finish
        page.screenshot(path=str(args.output))
    print(f"wrote {args.output}")  # noqa: T201 - a script says what it wrote


if __name__ == "__main__":
    main()
