"""The README and the docs site run as a new user runs them: from the installed wheel, in empty
folders.

chartkit's wheel is built and installed into a fresh venv (the session fixture ``wheel_bin``,
tests/conftest.py), and every code block runs with that installation — not the checkout — in
an empty temporary folder of its own, so a block works only with what the wheel ships (the
bundled examples: ``chartkit examples --copy DIR``, ``chartkit.example_path(NAME)``,
``python -m chartkit.examples.mcp_server``) and what the block itself writes.

Every page of the site (each ``.md`` under docs/, at any depth: tests/test_docs_site.py holds the
site's navigation to exactly these pages) is read the same way as the README.

The conventions, for whoever edits README.md or a page under docs/:

- A ```python block runs in a fresh namespace, in its own empty folder. What it prints must
  equal the ```text block right after it (only blank lines between), or be nothing when no
  such block follows. It must write nothing to stderr (a warning is a failure). Start
  subprocesses with ``sys.executable`` (the venv's Python).
- A ```console (or ```shell, ```sh) block holds ``$ command`` lines, each followed by the output
  it prints (stdout and stderr together). A block's commands run in its own empty folder, one
  after another, with the venv's ``bin`` first on ``PATH``; ``$?`` is the previous command's
  exit code.
- In expected output, ``…`` stands for any text within a line (a temporary path, say).
- A block that cannot run here — it starts a server or needs a cluster — is preceded by
  ``<!-- not run: why -->`` on the line before its fence. Use it sparingly: a block that can run,
  runs. Blocks in other languages (``text``, ``json``) are not run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
RUN_LANGS = {"python", "console", "shell", "sh"}
FENCE = re.compile(r"^```([\w+-]*)\s*$")
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(\S.*?)\s*-->\s*$")
TIMEOUT = 180


@dataclass(frozen=True)
class Block:
    """One fenced code block of a markdown file, with its expected output if it has one."""

    document: Path
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    not_run: str | None = None
    expected: str | None = None

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(REPO)}:{self.line}:{self.lang}"


def read_blocks(document: Path) -> list[Block]:
    """The fenced blocks of ``document``; a python block takes the text block after it."""
    lines = document.read_text(encoding="utf-8").splitlines()
    raw: list[tuple[int, str, str, str | None, int]] = []  # line, lang, code, not run, end
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        start, lang = i, opened.group(1).lower()
        j = i + 1
        while j < len(lines) and lines[j].rstrip() != "```":
            j += 1
        if j == len(lines):
            raise AssertionError(f"{document.name}:{start + 1}: a ``` fence is never closed")
        before = next((lines[k] for k in range(start - 1, -1, -1) if lines[k].strip()), "")
        marker = NOT_RUN.match(before.strip())
        code = "\n".join(lines[start + 1 : j])
        raw.append((start + 1, lang, code, marker and marker.group(1), j))
        i = j + 1
    blocks: list[Block] = []
    taken: set[int] = set()
    for n, (line, lang, code, not_run, end) in enumerate(raw):
        if n in taken:
            continue
        expected = None
        if lang == "python" and n + 1 < len(raw) and raw[n + 1][1] == "text":
            following = raw[n + 1]
            if all(not text.strip() for text in lines[end + 1 : following[0] - 1]):
                expected = following[2]
                taken.add(n + 1)
        blocks.append(Block(document, line, lang, code, not_run, expected))
    return blocks


ALL = [b for d in DOCUMENTS for b in read_blocks(d)]
RUNNABLE = [b for b in ALL if b.lang in RUN_LANGS]


def matches(expected: str, actual: str) -> bool:
    """Equal line by line (trailing spaces and blank lines aside); ``…`` matches within a line."""

    def norm(text: str) -> list[str]:
        out = [line.rstrip() for line in text.splitlines()]
        while out and not out[-1]:
            out.pop()
        return out

    want, got = norm(expected), norm(actual)
    if len(want) != len(got):
        return False
    for w, g in zip(want, got, strict=True):
        pattern = "[^\n]*?".join(re.escape(part) for part in w.split("…"))
        if not re.fullmatch(pattern, g):
            return False
    return True


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An empty folder per runnable block, by block id, outside the checkout."""
    root = tmp_path_factory.mktemp("readme")
    out: dict[str, Path] = {}
    for block in RUNNABLE:
        folder = root / re.sub(r"[^\w.-]+", "-", block.id)
        folder.mkdir()
        out[block.id] = folder
    return out


def environment(bin_dir: Path) -> dict[str, str]:
    """A new user's shell: the wheel's venv first on PATH, nothing pointing at the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHARTKIT_EXPLORE")}
    env.pop("PYTHONPATH", None)
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONWARNINGS"] = "default"  # a warning shows up in the output, and fails the block
    return env


RUNNER = r"""
import contextlib, io, json, logging, os, sys, traceback
blocks = json.load(sys.stdin)
results = []
root = logging.getLogger()
pristine = (list(root.handlers), root.level)
for block in blocks:
    os.chdir(block["cwd"])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(compile(block["code"], block["id"], "exec"), {"__name__": "__main__"})
        except BaseException:
            traceback.print_exc()
    results.append({"stdout": out.getvalue(), "stderr": err.getvalue()})
    root.handlers[:], _ = pristine[0], root.setLevel(pristine[1])  # as a fresh interpreter
json.dump(results, sys.__stdout__)
"""


@pytest.fixture(scope="module")
def python_outputs(wheel_bin: Path, folders: dict[str, Path]) -> dict[str, dict[str, str]]:
    """Every python block of every document, run by the wheel's venv in one interpreter, each
    in fresh globals and its own empty folder.

    Between blocks the root logger is put back as it was (a library a block imports may
    configure logging, as the MCP SDK does), so each block prints what it would print alone.
    """
    blocks = [b for b in RUNNABLE if b.lang == "python" and b.not_run is None]
    done = subprocess.run(
        [str(wheel_bin / "python"), "-c", RUNNER],
        input=json.dumps([{"id": b.id, "code": b.code, "cwd": str(folders[b.id])} for b in blocks]),
        capture_output=True,
        text=True,
        cwd=folders[blocks[0].id],
        env=environment(wheel_bin),
        timeout=TIMEOUT * 2,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {b.id: r for b, r in zip(blocks, json.loads(done.stdout), strict=True)}


@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.id)
def test_the_block_runs_and_prints_what_the_document_shows(
    block: Block,
    wheel_bin: Path,
    folders: dict[str, Path],
    python_outputs: dict[str, dict[str, str]],
) -> None:
    if block.not_run is not None:
        pytest.skip(f"not run: {block.not_run}")
    if block.lang == "python":
        result = python_outputs[block.id]
        assert result["stderr"] == "", f"{block.id} wrote to stderr:\n{result['stderr']}"
        expected = block.expected or ""
        assert matches(expected, result["stdout"]), (
            f"{block.id} printed:\n{result['stdout']}\nthe document shows:\n{expected}"
        )
        return
    commands = parse_console(block)
    rc = 0
    for command, expected in commands:
        done = subprocess.run(
            ["bash", "-c", f"(exit {rc}); {command}"],
            capture_output=True,
            text=True,
            cwd=folders[block.id],
            env=environment(wheel_bin),
            timeout=TIMEOUT,
            check=False,
        )
        rc = done.returncode
        printed = done.stdout + done.stderr
        assert matches(expected, printed), (
            f"{block.id}: $ {command}\nprinted:\n{printed}\nthe document shows:\n{expected}"
        )


def parse_console(block: Block) -> list[tuple[str, str]]:
    """``$ command`` lines and the output shown under each."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.code.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
        elif line.strip():
            raise AssertionError(
                f"{block.id}: a console block starts with '$ command' lines; mark a block that "
                "cannot run with <!-- not run: why --> on the line before its fence"
            )
    assert commands, f"{block.id}: a console block with no '$ command' line"
    return [(command, "\n".join(shown)) for command, shown in commands]


def test_every_document_has_blocks_that_run_and_marks_few_as_not_run() -> None:
    assert [b for b in RUNNABLE if b.document.name == "README.md" and b.not_run is None]
    not_run = [b for b in RUNNABLE if b.not_run is not None]
    assert len(not_run) <= 6, [b.id for b in not_run]  # sparingly: a block that can run, runs


def test_the_markdown_runner_reads_fences_markers_and_outputs(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text(
        "<!-- not run: needs a cluster -->\n```console\n$ chartkit check s3://x\n```\n\n"
        "```python\nprint(1)\n```\n\n```text\n1\n```\n\n```json\n{}\n```\n",
        encoding="utf-8",
    )
    blocks = [(b.line, b.lang, b.not_run, b.expected) for b in read_blocks(doc)]
    assert blocks == [
        (2, "console", "needs a cluster", None),
        (6, "python", None, "1"),
        (14, "json", None, None),
    ]
    assert matches("wrote /…/a.html (2 payloads)", "wrote /tmp/q/a.html (2 payloads)\n\n")
    assert not matches("wrote /…/a.html", "wrote /tmp/q/a.html\nmore")


def test_python_dash_m_chartkit_payload_prints_no_warning(tmp_path: Path, wheel_bin: Path) -> None:
    done = subprocess.run(
        [str(wheel_bin / "python"), "-W", "default", "-m", "chartkit.payload"],
        capture_output=True,
        cwd=tmp_path,
        env=environment(wheel_bin),
        check=True,
    )
    assert done.stderr == b""
    assert json.loads(done.stdout)["title"] == "chartkit View payload"


QUOTE = re.compile(r"^<!--\s*quote:\s*([A-Z_]+)\s*-->\s*\n((?:>.*\n?)+)", re.MULTILINE)


def test_the_sentences_docs_quote_are_the_ones_the_code_says() -> None:
    """A ``<!-- quote: NAME -->`` blockquote is ``chartkit.messages.NAME``, word for word."""
    from chartkit import messages

    quoted: dict[str, str] = {}
    for document in DOCUMENTS:
        for name, body in QUOTE.findall(document.read_text(encoding="utf-8")):
            text = " ".join(line[1:].strip() for line in body.splitlines())
            assert text == getattr(messages, name), f"{document.name} misquotes {name}"
            quoted[name] = text
    assert {"COLUMN_TYPE_CEILING", "NOTHING_CHANGED"} <= set(quoted)


def test_no_block_names_a_checkout_path() -> None:
    """What the wheel does not ship is not in a block: a checkout's examples or app folders."""
    checkout_only = re.compile(r"app/examples|examples/(mcp_server|build_agent_ui)\.py|\.venv/")
    named = [b.id for b in RUNNABLE if b.not_run is None and checkout_only.search(b.code)]
    assert named == []


def test_what_the_documents_write_stays_in_their_folders(
    python_outputs: dict[str, dict[str, str]], folders: dict[str, Path]
) -> None:
    """Runs last: whatever the blocks wrote is in their own folders, and none of it in the
    checkout."""
    written = sorted({p.name for folder in folders.values() for p in folder.iterdir()})
    assert written  # the blocks do write files (charts, staged Parquet, a CSV)
    listed = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    tracked = {path.split("/", 1)[0] for path in listed}  # top-level files and folders
    leftovers = [n for n in written if (REPO / n).exists() and n not in tracked]
    assert leftovers == [], f"the checkout holds what the documents write: {leftovers}"
