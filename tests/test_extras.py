"""Each engine extra works alone: chartkit's wheel with only that extra, in a fresh venv.

The dev venv holds every extra, so a dependency one extra forgets (``chartkit[duckdb]`` without
pyarrow: ``view(relation)`` failed on ``No module named 'pyarrow'``) passes there. Here the
wheel (built once a session, tests/conftest.py's ``wheel_bin``) is installed with one extra
into a new venv from the package index, and the documentation's blocks that use that extra's
engine — and nothing of another extra — run there and print what the page shows; the engine's
own frames are checked and viewed too. The other extras' surfaces are covered by the dev venv
(``app``, ``mcp``, the agents, ``widget``) or carry pyarrow themselves (``spark``, ``ibis``,
``stage``).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_readme import ALL, RUNNER, Block, environment, matches

EXTRAS: dict[str, tuple[str, ...]] = {"duckdb": ("duckdb",), "polars": ("polars",)}
"""Each extra tested alone → the modules its surface imports."""

FRAMES = {
    "duckdb": (
        "duckdb.sql(\"SELECT 'vdi-' || (range % 3) AS host, \"\n"
        '           "CASE WHEN range = 5 THEN NULL ELSE range * 1.5 END AS gb FROM range(30)")'
    ),
    "polars": (
        "pl.DataFrame({'host': [f'vdi-{i % 3}' for i in range(30)],\n"
        "              'gb': [None if i == 5 else i * 1.5 for i in range(30)]})"
    ),
}
"""Each engine's own frame (a DuckDB relation, a polars DataFrame): 30 rows over three hosts,
one gb missing."""

SURFACE = """
import {module}{alias}
from chartkit import check_columns, view
frame = {frame}
declared = {{"host": "string", "gb": "number"}}
(found,) = check_columns(frame, declared)
print(found.column, found.kind, found.affected, found.total)
v = view(frame, {{"host": "string", "gb": {{"type": "number", "nullable": True}}}})
print(v.kind, v.mark, len(v.frame))
print(v.reason)
"""
SURFACE_PRINTS = """gb column-type-mismatch 1 30
chart bar 30
host is declared string and gb is declared number: bars of the mean per host."""

NETWORK_DOWN = ("Could not fetch URL", "NewConnectionError", "Temporary failure in name resolution")

pytestmark = pytest.mark.extras


def imported_modules(code: str) -> set[str]:
    """The top-level modules a block imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def blocks_of(extra: str) -> list[Block]:
    """The documentation's runnable python blocks that import the extra's engine and no module
    beyond it, chartkit and the standard library."""
    engine = set(EXTRAS[extra])
    allowed = engine | {"chartkit"} | set(sys.stdlib_module_names)
    return [
        b
        for b in ALL
        if b.lang == "python"
        and b.not_run is None
        and engine & imported_modules(b.code)
        and imported_modules(b.code) <= allowed
    ]


def test_the_documented_blocks_of_each_extra_are_found() -> None:
    found = {extra: [b.id for b in blocks_of(extra)] for extra in EXTRAS}
    assert any("docs/data.md" in i for i in found["duckdb"]), found  # view() of a relation
    assert found["polars"], found


@pytest.fixture(scope="module")
def wheel(wheel_bin: Path) -> Path:
    """The wheel ``wheel_bin`` installed (its venv sits beside the ``dist`` it was built into)."""
    [built] = (wheel_bin.parent.parent / "dist").glob("chartkit-*.whl")
    return built


def venv_with(extra: str, wheel: Path, where: Path) -> Path:
    """A new venv holding chartkit's wheel and one extra, from the package index: its python."""
    subprocess.run([sys.executable, "-m", "venv", where], check=True, timeout=120)
    python = where / "bin" / "python"
    done = subprocess.run(
        [python, "-m", "pip", "install", "-q", f"{wheel}[{extra}]"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0 and any(s in done.stderr for s in NETWORK_DOWN):
        pytest.skip(f"the package index is not reachable: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    return python


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_an_extra_alone_runs_its_documented_blocks_and_views_its_frames(
    extra: str, wheel: Path, tmp_path: Path
) -> None:
    python = venv_with(extra, wheel, tmp_path / "venv")
    others = sorted({m for e, ms in EXTRAS.items() if e != extra for m in ms})
    absent = subprocess.run(
        [
            python,
            "-c",
            f"import importlib.util as u; print([m for m in {others} if u.find_spec(m)])",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert absent.stdout.strip() == "[]", f"chartkit[{extra}] pulled in another extra's engine"

    module = EXTRAS[extra][0]
    surface = SURFACE.format(
        module=module, alias=" as pl" if module == "polars" else "", frame=FRAMES[extra]
    )
    blocks = [*blocks_of(extra), Block(Path(__file__), 0, "python", surface, None, SURFACE_PRINTS)]
    folders = [tmp_path / f"block-{n}" for n in range(len(blocks))]
    for folder in folders:
        folder.mkdir()
    done = subprocess.run(
        [python, "-c", RUNNER],
        input=json.dumps(
            [
                {"id": b.id, "code": b.code, "cwd": str(f)}
                for b, f in zip(blocks, folders, strict=True)
            ]
        ),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(python.parent),
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for block, result in zip(blocks, json.loads(done.stdout), strict=True):
        assert result["stderr"] == "", f"chartkit[{extra}]: {block.id} wrote:\n{result['stderr']}"
        assert matches(block.expected or "", result["stdout"]), (
            f"chartkit[{extra}]: {block.id} printed:\n{result['stdout']}\n"
            f"the page shows:\n{block.expected}"
        )
