"""The wheel carries the product: built, installed into a fresh venv outside the checkout, used.

The session fixture ``wheel_bin`` (tests/conftest.py) builds the wheel and installs it; the
README test runs every block with the same installation. Every command runs from a temporary
directory.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from chartkit.explorer import SCRIPT

ROOT = Path(__file__).resolve().parent.parent
REFUSAL_START = "  Result rejected: host_group_mappings returned rows that disagree"


def run(*command: str | Path, cwd: Path, timeout: float = 300, **kw: object) -> str:
    done = subprocess.run(
        [str(c) for c in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        **kw,  # type: ignore[arg-type]
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(wheel_bin: Path) -> Path:
    """The fresh venv's bin/ with the wheel installed (tests/conftest.py builds it, once)."""
    return wheel_bin


def test_the_license_is_mit_in_the_repository() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the chartkit authors\n")


def test_the_installed_wheel_checks_a_packaged_example(installed: Path, tmp_path: Path) -> None:
    python = installed / "python"
    example = run(
        python, "-c",
        "from chartkit.explorer._logic import EXAMPLES_DIR; "
        "print(EXAMPLES_DIR / 'host_group_mappings.json')",
        cwd=tmp_path,
    ).strip()  # fmt: skip
    assert not Path(example).is_relative_to(ROOT)
    done = subprocess.run(
        [str(installed / "chartkit"), "check", example, "--mode", "enforce", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (1, "")
    [result] = json.loads(done.stdout)["results"]
    assert result["tool"] == "host_group_mappings"
    assert result["refusal"].startswith(REFUSAL_START.strip())


def test_the_installed_wheel_renders_its_explorer_page(installed: Path, tmp_path: Path) -> None:
    """The packaged page runs as ``chartkit explore`` runs it (through Streamlit's AppTest)."""
    code = (
        "from streamlit.testing.v1 import AppTest\n"
        "from chartkit.explorer import SCRIPT\n"
        "at = AppTest.from_file(str(SCRIPT), default_timeout=120).run()\n"
        "assert not at.exception, [e.value for e in at.exception]\n"
        "print(SCRIPT)\n"
        "print(len(at.get('vega_lite_chart')))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARTKIT_EXPLORE")}
    script, charts = run(installed / "python", "-c", code, cwd=tmp_path, env=env).split()
    assert Path(script).name == SCRIPT.name and not Path(script).is_relative_to(ROOT)
    assert int(charts) == 1


def test_chartkit_explore_from_the_wheel_serves_on_loopback(
    installed: Path, tmp_path: Path
) -> None:
    from _browser import free_port

    port = free_port()
    log = tmp_path / "explore.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [str(installed / "chartkit"), "explore", "--headless", "--port", str(port)],
            cwd=tmp_path,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a generous wait for a slow machine, not a measure
        while process.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                time.sleep(0.3)
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")
        with urllib.request.urlopen(url, timeout=10) as page:
            assert (page.status, b"<title>" in page.read()) == (200, True)
    finally:
        process.terminate()
        process.wait(timeout=60)
