"""The documentation site: docs/ built by mkdocs-material, strict, offline, and complete.

``make test`` builds it with ``mkdocs build --strict`` (mkdocs.yml); these tests say what that
build promises a reader. Every page under docs/ is in the navigation, and every one is a page
whose code blocks tests/test_readme.py runs from the wheel. The API pages hold an entry for every
public name of the modules they document. A broken link, a missing anchor or an API name that
no longer exists fails the build, and so does a ``chartkit.`` name a page writes that the code
no longer has. Nothing in the site is fetched from elsewhere: it reads offline. The README
keeps its first screen and a short tour, and sends the reader to the site for the rest.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
CONFIG = REPO / "mkdocs.yml"
README = REPO / "README.md"
HOME = "https://github.com/chartkit/chartkit/blob/main/"
API_DIRECTIVE = re.compile(r"^::: ([\w.]+)\s*$", re.MULTILINE)
CHARTKIT_NAME = re.compile(r"`(chartkit(?:\.[A-Za-z_]\w*)+)")
TIMEOUT = 600


def config() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    return loaded


def nav_pages(nav: object) -> list[str]:
    """Every page the navigation lists, in order, at any depth."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    raise AssertionError(f"mkdocs.yml: a nav entry is neither a page nor a section: {nav!r}")


def build(config_file: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(config_file),
            "--site-dir",
            str(site_dir),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from the checkout as ``make test`` builds it."""
    out = tmp_path_factory.mktemp("site")
    done = build(CONFIG, out)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr[-6000:]}"
    return out


def built_page(site: Path, page: str) -> Path:
    """The HTML file mkdocs writes for ``page``: ``a/b.md`` is ``a/b/index.html``."""
    stem = page.removesuffix(".md")
    return site / ("index.html" if stem == "index" else f"{stem}/index.html")


def test_every_page_under_docs_is_in_the_navigation_and_the_site() -> None:
    listed = nav_pages(config()["nav"])
    on_disk = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert len(listed) == len(set(listed)), "mkdocs.yml lists a page twice"
    assert sorted(listed) == on_disk


def test_every_page_of_the_site_is_a_page_whose_blocks_run() -> None:
    spec = importlib.util.spec_from_file_location("readme_blocks", REPO / "tests/test_readme.py")
    assert spec is not None and spec.loader is not None
    readme: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = readme  # its dataclasses look their module up there
    spec.loader.exec_module(readme)
    run = {Path(d).resolve() for d in readme.DOCUMENTS}
    assert {(DOCS / page).resolve() for page in nav_pages(config()["nav"])} <= run
    assert README.resolve() in run


def test_the_site_builds_strict_with_every_page(site: Path) -> None:
    missing = [p for p in nav_pages(config()["nav"]) if not built_page(site, p).is_file()]
    assert missing == []


def api_modules() -> dict[str, str]:
    """Each module an API page documents (``::: module``), with its page."""
    out: dict[str, str] = {}
    for page in sorted(DOCS.rglob("*.md")):
        for module in API_DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            out[module] = str(page.relative_to(DOCS))
    return out


def test_the_api_pages_hold_every_public_name(site: Path) -> None:
    modules = api_modules()
    assert {"chartkit", "chartkit.mcp", "chartkit.agents", "chartkit.selection"} <= set(modules)
    missing: dict[str, list[str]] = {}
    for module, page in modules.items():
        html = built_page(site, page).read_text(encoding="utf-8")
        names = importlib.import_module(module).__all__
        absent = [n for n in names if f'id="{module}.{n}"' not in html]
        if absent:
            missing[module] = absent
    assert missing == {}


def test_doctests_on_the_api_pages_are_code_not_quotes(site: Path) -> None:
    html = built_page(site, "reference/chartkit.md").read_text(encoding="utf-8")
    assert "&gt;&gt;&gt;" in html  # the doctests are there
    assert "<blockquote>" not in html  # … as code, not as ``>``-quotes three deep


def test_the_site_reads_offline(site: Path) -> None:
    settings = config()
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in settings["plugins"]]
    assert set(plugins) <= {"search", "mkdocstrings"}  # never social, privacy or another fetcher
    assert settings["theme"]["font"] is False  # no Google Fonts in the reader's browser
    fetched = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=\"(?:https?:)?//[^\"]*\"")
    outside = {
        str(page.relative_to(site)): fetched.findall(page.read_text(encoding="utf-8"))
        for page in site.rglob("*.html")
    }
    assert {page: found for page, found in outside.items() if found} == {}


@pytest.mark.parametrize(
    ("page", "said"),
    [
        ("[the check](other.md#no-such-section)\n", "no-such-section"),
        ("[the check](no-such-page.md)\n", "no-such-page.md"),
        ("::: chartkit.no_such_name\n", "no_such_name"),
    ],
    ids=["missing anchor", "missing page", "stale API name"],
)
def test_a_broken_link_or_a_stale_name_fails_the_build(
    tmp_path: Path, page: str, said: str
) -> None:
    """The site's own settings (strict, validation, mkdocstrings) over a page that breaks one."""
    settings = config()
    handler = settings["plugins"][1]["mkdocstrings"]["handlers"]["python"]
    handler["paths"] = [str(REPO)]
    handler["options"]["extensions"] = [str(DOCS / "_doctests.py") + ":DoctestsAsCode"]
    settings.update(docs_dir=str(tmp_path / "docs"), nav=["index.md", "other.md"])
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(f"# Index\n\n{page}", encoding="utf-8")
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## A section\n", encoding="utf-8")
    scratch = tmp_path / "mkdocs.yml"
    scratch.write_text(yaml.safe_dump(settings), encoding="utf-8")
    done = build(scratch, tmp_path / "site")
    assert done.returncode != 0
    assert said in done.stderr


def said_by_the_code() -> set[str]:
    """The ``chartkit.`` names that are not Python paths but strings the code says: its loggers,
    the OpenAI Agents span, the LangChain events."""
    import chartkit  # noqa: F401  (its modules make their loggers)
    from chartkit.agents import langchain, openai_agents
    from chartkit.check.events import CONTEXT_ERROR, DISPOSITION

    loggers = {name for name in logging.Logger.manager.loggerDict if name.startswith("chartkit")}
    events = {langchain.EVENT_PREFIX + name for name in (CONTEXT_ERROR, DISPOSITION)}
    return loggers | events | {openai_agents.SPAN_NAME}


def resolves(name: str) -> bool:
    """``name`` is a module, or a module and attributes, that the code has."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def test_every_chartkit_name_the_documents_write_exists() -> None:
    said = said_by_the_code()
    stale = sorted(
        f"{document.relative_to(REPO)}: {name}"
        for document in [README, *sorted(DOCS.rglob("*.md"))]
        for name in set(CHARTKIT_NAME.findall(document.read_text(encoding="utf-8")))
        if name not in said and not resolves(name)
    )
    assert stale == []


def test_the_name_check_knows_a_stale_name_from_a_real_one() -> None:
    assert resolves("chartkit.check.integrity.FINDINGS_MAX")
    assert resolves("chartkit.read.rowset.describe_keys")
    assert not resolves("chartkit.check.integrity.NO_SUCH_NAME")
    assert not resolves("chartkit.no_such_module")
    assert "chartkit.integrity" in said_by_the_code()  # the findings' logger


def readme_parts() -> tuple[str, str]:
    """The README's first screen (before its first ``##`` heading) and the rest."""
    text = README.read_text(encoding="utf-8")
    cut = text.index("\n## ")
    return text[:cut], text[cut:]


def test_the_readme_opens_with_its_first_screen() -> None:
    first, _ = readme_parts()
    assert first.startswith("# chartkit\n\n**chartkit checks an AI tool's rows")
    assert "make explore" in first and "make test" in first
    assert re.search(r"```python\n(?:.*\n){5,20}```\n\n```text\n", first)  # the example, its output
    assert re.search(r"!\[[^\]]+\]\(https://\S+/docs/explorer\.png\)", first)  # the picture


def test_the_readme_is_a_short_tour_that_sends_the_reader_to_the_site() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    linked = set(re.findall(rf"\]\({re.escape(HOME)}docs/([\w/-]+\.md)", text))
    assert {"check.md", "charts.md", "mcp.md", "frameworks.md", "untrusted-data.md"} <= linked
    assert [page for page in linked if not (DOCS / page).is_file()] == []


def test_the_readme_anchors_into_the_site_exist(site: Path) -> None:
    text = README.read_text(encoding="utf-8")
    anchored = re.findall(rf"\]\({re.escape(HOME)}docs/([\w/-]+\.md)#([\w-]+)\)", text)
    assert anchored  # the README links into a section, not only to pages
    missing = [
        f"{page}#{anchor}"
        for page, anchor in anchored
        if f'id="{anchor}"' not in built_page(site, page).read_text(encoding="utf-8")
    ]
    assert missing == []
