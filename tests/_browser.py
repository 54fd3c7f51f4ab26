"""Headless Chromium and real servers (``streamlit run``, or any command: ``served``), for the
browser tests and screenshots.

Playwright cannot download its own browser here, so it drives Debian's ``/usr/bin/chromium``.
A test that needs the browser calls ``require_browser()``: it skips politely when Chromium or
Playwright is missing, unless ``CHARTKIT_BROWSER_TESTS=required`` (CI), where it fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "REPO",
    "browser_page",
    "free_port",
    "require_browser",
    "served",
    "settle",
    "streamlit_server",
]

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHARTKIT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_browser() -> None:
    """Skip (or, with ``CHARTKIT_BROWSER_TESTS=required``, fail) without Chromium + Playwright."""
    import pytest

    missing = []
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        missing.append(f"Chromium ({CHROMIUM})")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    if not missing:
        return
    why = f"browser test needs {' and '.join(missing)}"
    if os.environ.get("CHARTKIT_BROWSER_TESTS") == "required":
        pytest.fail(f"{why}, and CHARTKIT_BROWSER_TESTS=required")
    pytest.skip(why)


def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def served(
    command: Sequence[str],
    ready: str,
    *,
    name: str,
    cwd: Path = REPO,
    env: Mapping[str, str] | None = None,
    log: Path | None = None,
    timeout: float = 60.0,
) -> Iterator[None]:
    """Run a server ``command`` until a GET of ``ready`` answers (2xx or 3xx); stop it (its
    process, by id) when the block ends. ``name`` says which server in the errors: it exited
    first, or did not answer in ``timeout`` seconds (see ``log``, its output, when given)."""
    out = open(log, "wb") if log is not None else subprocess.DEVNULL
    see = f"; see {log}" if log is not None else ""
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with code {process.returncode} before "
                                   f"answering {ready}{see}")  # fmt: skip
            try:
                with urllib.request.urlopen(ready, timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not answer {ready} within {timeout:.0f} s{see}")
            time.sleep(0.25)
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=20)
        if log is not None:
            out.close()  # type: ignore[union-attr]


@contextlib.contextmanager
def streamlit_server(
    script: Path = REPO / "app" / "explorer.py",
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 60.0,
    log: Path | None = None,
) -> Iterator[str]:
    """Run ``streamlit run SCRIPT`` headless on a free localhost port; yield its URL.

    The server is stopped (its process, by id) when the block ends.
    """
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    with served(command, f"{url}/_stcore/health", name="streamlit", env=env, log=log,
                timeout=timeout):  # fmt: skip
        yield url


@contextlib.contextmanager
def browser_page(*, width: int = 1500, height: int = 1100) -> Iterator[Any]:
    """A Playwright page in headless Debian Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=CHROMIUM_ARGS,
            headless=True,
        )
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            yield context.new_page()
        finally:
            browser.close()


def settle(page: Any, *, timeout_ms: float = 60_000) -> None:
    """Wait until the Streamlit app in ``page`` has finished its run (no rerun pending)."""
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms
    )
    # the explorer's opening run sends the chart alone; the browser then asks for the rest
    page.wait_for_function(
        "() => !document.body.innerText.includes('Loading the check, the controls and the rows')"
        " && document.querySelector("
        '\'[data-testid="stApp"][data-test-script-state="notRunning"]\')',
        timeout=timeout_ms,
    )
