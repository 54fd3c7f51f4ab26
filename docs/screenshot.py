"""The explorer's screenshots for the docs: ``make screenshots`` (or ``python docs/screenshot.py``).

Starts ``streamlit run app/explorer.py`` on a free localhost port and opens it in headless
Chromium (Debian's ``/usr/bin/chromium``, through Playwright). Writes the opening page as
``docs/explorer.png`` (1400×1000) and ``docs/screenshots/explorer-phone.png`` (390×844), and
every bundled example as ``docs/screenshots/<example>.png`` (1400×1000), each once Vega has
drawn the chart; then ``docs/screenshots/rows-behind.png``: the LUN incident's bar of sql-prod
clicked, the rows behind it shown under the chart with their empty LUNs highlighted.
``tests/test_browser_explorer.py`` takes the same pictures, clicks the same way and checks them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from _browser import browser_page, settle, streamlit_server  # noqa: E402

DESKTOP = (1400, 1000)
PHONE = (390, 844)


def shoot(page: object, url: str, path: Path, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})  # type: ignore[attr-defined]
    page.goto(url)  # type: ignore[attr-defined]
    settle(page)
    page.wait_for_timeout(2500)  # type: ignore[attr-defined]  # Vega draws, fades finish
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    print(f"wrote {path.relative_to(REPO)}")  # noqa: T201 - a script says what it wrote


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=REPO / "docs")
    args = parser.parse_args()
    from chartkit.explorer._logic import examples

    folder = args.output / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    env = {"CHARTKIT_EXPLORE_FILE": "", "CHARTKIT_EXPLORE_MAX_MB": ""}
    with (
        streamlit_server(env=env) as url,
        browser_page(width=DESKTOP[0], height=DESKTOP[1]) as page,
    ):
        shoot(page, url, args.output / "explorer.png", DESKTOP)
        shoot(page, url, folder / "explorer-phone.png", PHONE)
        for example in examples():
            shoot(page, f"{url}/?example={example.name}", folder / f"{example.name}.png", DESKTOP)
        drill(page, f"{url}/?example=host_group_mappings", folder / "rows-behind.png")


def drill(page: Any, url: str, path: Path) -> None:
    """Click one bar of the LUN chart and picture the chart with the rows behind it."""
    page.set_viewport_size({"width": DESKTOP[0], "height": 1400})
    page.goto(url)
    settle(page)
    page.locator(".vega-embed svg g.mark-rect path[aria-label*='host_group: sql-prod']").click()
    page.get_by_text("The rows behind host_group").wait_for(timeout=60_000)
    settle(page)
    page.wait_for_timeout(1500)  # the table's cells are drawn
    page.locator('[data-testid="stVegaLiteChart"]').first.scroll_into_view_if_needed()
    page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(REPO)}")  # noqa: T201 - a script says what it wrote


if __name__ == "__main__":
    main()
