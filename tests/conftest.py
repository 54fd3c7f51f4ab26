"""Shared fixtures: the spec's worked example, a way to make a declared tool result, the
explorer page in ``AppTest``, a real Spark session in each of its two modes (classic and Spark
Connect), and chartkit's wheel installed in a fresh venv."""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chartkit import ToolResult

SPEC_TOOL = "host_group_mappings"
SPEC_COLUMNS = {"logical_unit_number": "number", "host_group": "string"}


@pytest.fixture
def spec_rows() -> list[dict[str, Any]]:
    """The report as it shipped: LUN 0 became ''."""
    return [
        {"logical_unit_number": "", "host_group": "vdi-a"},
        {"logical_unit_number": 3, "host_group": "vdi-a"},
    ]


@pytest.fixture
def mappings() -> Callable[..., ToolResult]:
    """``mappings(rows, **columns)``: a ``host_group_mappings`` result, call id ``call-1``.

    Without keyword arguments the declaration is the spec's (LUN number, host group string).
    """

    def make(rows: Any, result_columns: Any = None, call_id: str | None = "call-1") -> ToolResult:
        return ToolResult(
            SPEC_TOOL,
            rows,
            result_columns=SPEC_COLUMNS if result_columns is None else result_columns,
            call_id=call_id,
        )

    return make


@pytest.fixture
def explorer(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The explorer page (``AppTest``) as a fresh session opens it: no file given at launch.
    tests/_explorer.py has the helpers that read it."""
    from _explorer import open_explorer

    return open_explorer(monkeypatch)


SPARK_MODES = ("classic", "connect")
"""How ``spark_session`` reaches Spark: classic local mode, and Spark Connect."""


@pytest.fixture(scope="session", params=SPARK_MODES)
def spark_session(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A real Spark session, once per mode: a test that asks for it runs twice.

    ``[classic]``: PySpark in local mode, the JVM driven from this process. ``[connect]``: a
    real Spark Connect server on loopback (``SparkSession.builder.remote("local[2]")`` starts
    one, on an ephemeral port) and a gRPC client whose DataFrames are
    ``pyspark.sql.connect.dataframe.DataFrame`` — the way a cluster is reached. PySpark allows
    one mode per process at a time, so the classic session is stopped before the Connect one
    starts (pytest runs every ``[classic]`` test first), and stopping the Connect session stops
    its server and clears the mode. Both: UTC session time zone, one shuffle partition.

    Skipped without pyspark or a Java runtime, except in CI (``.ci/run`` installs both), where
    a skip would hide a broken setup.
    """
    session = _spark(request.param)
    yield session
    session.stop()
    if request.param == "connect":
        for name in _CONNECT_ENVIRONMENT:
            os.environ.pop(name, None)


_CONNECT_ENVIRONMENT = (
    "SPARK_TESTING",  # read by PySpark: the server binds an ephemeral port, the client asks it
    "PYSPARK_REMOTE_INIT_CONF_LEN",
    "PYSPARK_REMOTE_INIT_CONF_0",
    "SPARK_CONNECT_AUTHENTICATE_TOKEN",
)


def _spark(mode: str) -> Any:
    in_ci = os.environ.get("CI") == "true"
    if in_ci:  # CI installs both: a skip there would hide a broken setup
        import pyspark  # noqa: F401

        assert shutil.which("java") or os.environ.get("JAVA_HOME"), ".ci/run installs Java"
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (.ci/run installs one)")
    if mode == "connect":
        pytest.importorskip("grpc", reason="Spark Connect needs pyspark[connect]")
    from pyspark.sql import SparkSession

    static = {"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false"}
    runtime = {"spark.sql.shuffle.partitions": "1", "spark.sql.session.timeZone": "UTC"}
    builder = SparkSession.builder.appName(f"chartkit-tests-{mode}")
    if mode == "classic":
        builder = builder.master("local[1]")
        for key, value in static.items():
            builder = builder.config(key, value)
    else:
        # The server's own (static) settings go by PySpark's start-up variables: set on the
        # builder, the client would try to change them at run time and warn.
        os.environ["SPARK_TESTING"] = "1"
        os.environ["PYSPARK_REMOTE_INIT_CONF_LEN"] = "1"
        os.environ["PYSPARK_REMOTE_INIT_CONF_0"] = json.dumps(static)
        builder = builder.remote("local[2]")
    for key, value in runtime.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, check=False,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="session")
def wheel_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin/`` of a fresh venv outside the checkout with chartkit's freshly built wheel.

    The wheel is built from a copy of the sources (so the checkout gets no ``build/``), without
    build isolation (so no network: the dev extra brings ``setuptools``). The venv borrows the
    dev venv's third-party packages through a ``.pth`` line — not its ``.pth`` files, so the
    checkout's editable install stays out: ``import chartkit`` there is the wheel's copy.
    tests/test_wheel.py and tests/test_readme.py share it (built once a session).
    """
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "chartkit",
        source / "chartkit",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"),  # built here, not copied
    )
    dist = tmp / "dist"
    _run(sys.executable, "-m", "pip", "wheel", source, "--no-deps", "--no-build-isolation",
         "-w", dist, "-q", cwd=tmp)  # fmt: skip
    [wheel] = dist.glob("chartkit-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "chartkit/explorer/page.py",
        "chartkit/explorer/streamlit_app.py",
        "chartkit/examples/host_group_mappings.json",
        "chartkit/examples/run_incident.jsonl",
        "chartkit/examples/mcp_server.py",
        "chartkit/examples/build_agent_ui.py",
        "chartkit/web/view.html",
    } <= names
    # every module of the sources, in every subpackage ([tool.setuptools] packages lists them)
    modules = {p.relative_to(source).as_posix() for p in (source / "chartkit").rglob("*.py")}
    assert modules - names == set(), "pyproject.toml's packages miss these"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    # the compiled reader is built from source into the wheel, with its types
    assert any(n.startswith("chartkit/_speedups.") and n.endswith((".so", ".pyd")) for n in names)
    assert "chartkit/_speedups.pyi" in names

    venv = tmp / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp)
    [packages] = venv.glob("lib/python*/site-packages")
    borrowed = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (packages / "dev-venv.pth").write_text("\n".join(borrowed) + "\n", encoding="utf-8")
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel, cwd=tmp)
    where = _run(python, "-c", "import chartkit; print(chartkit.__file__)", cwd=tmp).strip()
    assert Path(where).is_relative_to(venv), where  # the wheel's copy, not the checkout's
    _run(python, "-c", "import chartkit._speedups", cwd=tmp)  # the compiled reader loads there
    return venv / "bin"
