"""What a new user meets on the command line (issue 18): real processes, full sentences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import chartkit


def chartkit_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "chartkit", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    )
    return done.returncode, done.stdout, done.stderr


def test_version_says_whether_the_compiled_reader_is_in_use(tmp_path: Path) -> None:
    code, out, _ = chartkit_cli("--version", cwd=tmp_path, env={"CHARTKIT_PURE_PYTHON": "1"})
    assert (code, out) == (
        0,
        "chartkit 0.1.0; compiled reader off: CHARTKIT_PURE_PYTHON=1 (pure Python, same "
        "answers)\n",
    )
    env = {k: v for k, v in os.environ.items() if k != "CHARTKIT_PURE_PYTHON"}
    done = subprocess.run(
        [sys.executable, "-c", "import chartkit; print(chartkit.speedups_enabled())"],
        capture_output=True, text=True, check=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    built = done.stdout.strip() == "True"
    code, out, _ = chartkit_cli("--version", cwd=tmp_path, env={"CHARTKIT_PURE_PYTHON": "0"})
    assert code == 0
    if built:
        assert out == "chartkit 0.1.0; compiled reader in use (chartkit._speedups)\n"
    else:
        assert out.startswith("chartkit 0.1.0; compiled reader not built (no C compiler")


def test_speedups_enabled_is_public_and_follows_the_switch() -> None:
    from chartkit.read.columnar import SPEEDUPS

    assert chartkit.speedups_enabled() is (SPEEDUPS is not None)
    assert "speedups_enabled" in chartkit.__all__


def test_columns_declares_a_bare_json_array_of_rows(tmp_path: Path) -> None:
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps([{"lun": ""}, {"lun": 3}]), encoding="utf-8")
    code, out, err = chartkit_cli(
        "check", str(rows), "--columns", '{"lun": "number"}', "--mode", "enforce", cwd=tmp_path
    )
    assert (code, err) == (1, "")
    assert out.splitlines()[:2] == [
        "rows (2 rows): refused under enforce, 1 finding",
        "  Result rejected: rows returned rows that disagree with the columns it declares — "
        "'lun' is declared number and 1 of 2 rows hold string (first: \"\"). Fix the tool so "
        "the column holds what it declares, or change the declaration. No data was returned.",
    ]


def test_columns_still_refuses_a_tool_result_that_declares_itself(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    result = {"tool": "t", "rows": [{"lun": 1}], "resultColumns": {"lun": "number"}}
    path.write_text(json.dumps(result), encoding="utf-8")
    declared = '{"lun": "string"}'
    code, out, err = chartkit_cli("check", str(path), "--columns", declared, cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        f"chartkit check: --columns applies to .csv and .parquet input and to a bare JSON array "
        f"of rows; {path} holds tool results, and a tool result carries its own resultColumns\n"
    )


def test_render_alternatives_writes_no_file(tmp_path: Path) -> None:
    latency = Path(chartkit.__file__).parent / "examples" / "latency_by_region.json"
    out_file = tmp_path / "l.png"
    code, out, err = chartkit_cli(
        "render", str(latency), "-o", str(out_file), "--alternatives", cwd=tmp_path
    )
    assert (code, err) == (0, "")
    assert not out_file.exists()
    assert "  alternative 0 (--choose 0): " in out


def test_a_finding_about_null_says_null_once(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    result = {"tool": "t", "rows": [{"lun": None}, {"lun": 3}], "resultColumns": {"lun": "number"}}
    path.write_text(json.dumps(result), encoding="utf-8")
    code, out, _ = chartkit_cli("check", str(path), cwd=tmp_path)
    assert code == 0
    assert out.splitlines()[1] == (
        "  - column-type-mismatch: 't' declares column 'lun' as number, and 1 of 2 rows hold "
        "something else — the first is null. 1 of those rows holds nothing (null or a key not "
        "set); if a row may legitimately carry nothing, declare the column nullable."
    )


def test_an_install_without_a_c_compiler_says_the_compiled_reader_is_off(tmp_path: Path) -> None:
    """setup.py goes on without the extension, and says so in a visible block."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(root / name, tmp_path / name)
    (tmp_path / "chartkit").mkdir()
    shutil.copy2(root / "chartkit" / "_speedups.c", tmp_path / "chartkit" / "_speedups.c")
    env = {k: v for k, v in os.environ.items() if k != "CHARTKIT_SPEEDUPS"}
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(tmp_path / "out")],
        capture_output=True, text=True, check=False, timeout=300, cwd=tmp_path,
        env={**env, "CC": str(tmp_path / "no-such-compiler")},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "chartkit: the compiled reader (chartkit._speedups) was NOT built: " in done.stderr
    assert "`chartkit --version` says whether it is in use." in done.stderr
    assert not list((tmp_path / "out").rglob("_speedups*.so"))
    required = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(tmp_path / "out")],
        capture_output=True, text=True, check=False, timeout=300, cwd=tmp_path,
        env={**env, "CC": str(tmp_path / "no-such-compiler"), "CHARTKIT_SPEEDUPS": "required"},
    )  # fmt: skip
    assert required.returncode != 0


def test_examples_lists_the_bundled_results_and_copies_them(tmp_path: Path) -> None:
    code, out, err = chartkit_cli("examples", cwd=tmp_path)
    assert (code, err) == (0, "")
    names = [line.split()[0] for line in out.splitlines()]
    assert names == list(chartkit.example_names())
    assert "host_group_mappings" in names and "run_incident" in names
    code, out, err = chartkit_cli("examples", "--copy", "ex", cwd=tmp_path)
    assert (code, err) == (0, "")
    assert sorted(p.name for p in (tmp_path / "ex").iterdir()) == sorted(
        chartkit.example_path(n).name for n in names
    )
    assert chartkit_cli("examples", "--copy", "ex", cwd=tmp_path)[0] == 0  # again: the same
    (tmp_path / "ex" / "capacity_view.json").write_text("mine", encoding="utf-8")
    code, out, err = chartkit_cli("examples", "--copy", "ex", cwd=tmp_path)
    assert (code, out) == (2, "")
    assert err == (
        "chartkit examples: ex/capacity_view.json exists and differs from the bundled example; "
        "remove it, or copy into another folder\n"
    )


def test_example_path_names_the_installed_file_or_lists_the_names() -> None:
    import pytest

    assert chartkit.example_path("run_incident.jsonl") == chartkit.example_path("run_incident")
    assert chartkit.example_path("host_group_mappings").is_file()
    with pytest.raises(chartkit.ChartkitError, match=r"no bundled example named '\.\./x'"):
        chartkit.example_path("../x")


def test_the_package_metadata_names_the_project_and_the_readme_links_absolutely() -> None:
    import re
    import tomllib

    root = Path(__file__).resolve().parent.parent
    urls = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    home = urls["Source"]
    assert home.startswith("https://") and set(urls) >= {"Homepage", "Source", "Issues"}
    readme = (root / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    relative = [t for t in targets if not re.match(r"https?://|#", t)]
    assert relative == []
    assert any(t.startswith(f"{home}/raw/main/docs/") for t in targets)  # the pictures
