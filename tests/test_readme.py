"""The README and docs/ run: every code block is executed and its printed output compared.

The conventions, for whoever edits README.md or docs/*.md:

- A ```python block runs in a fresh namespace, in a temporary directory that holds copies of
  ``examples/`` and ``app/examples/`` (so paths written as from a checkout work, and nothing is
  written into the checkout). What it prints must equal the ```text block right after it (only
  blank lines between), or be nothing when no such block follows. It must write nothing to
  stderr (a warning is a failure). Start subprocesses with ``sys.executable``.
- A ```console (or ```shell, ```sh) block holds ``$ command`` lines, each followed by the output
  it prints (stdout and stderr together). Commands run in the same temporary directory with
  this environment's ``bin`` first on ``PATH``; ``$?`` is the previous command's exit code.
- In expected output, ``…`` stands for any text within a line (a temporary path, say).
- A block that cannot run here — it starts a server or needs a cluster — is preceded by
  ``<!-- not run: why -->`` on the line before its fence. Use it sparingly: a block that can run,
  runs. Blocks in other languages (``text``, ``json``) are not run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
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
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory laid out like a checkout's examples, but a copy: the checkout stays clean."""
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(REPO / "examples", work / "examples", ignore=shutil.ignore_patterns("vendor"))
    shutil.copytree((REPO / "app" / "examples").resolve(), work / "app" / "examples")
    return work


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("CHARTKIT_EXPLORE_FILE", None)
    env["PYTHONWARNINGS"] = "default"  # a warning shows up in the output, and fails the block
    return env


RUNNER = r"""
import contextlib, io, json, logging, sys, traceback
blocks = json.load(sys.stdin)
results = []
root = logging.getLogger()
pristine = (list(root.handlers), root.level)
for block in blocks:
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
def python_outputs(workdir: Path) -> dict[str, dict[str, str]]:
    """Every python block of every document, run in one interpreter, each in fresh globals.

    Between blocks the root logger is put back as it was (a library a block imports may
    configure logging, as the MCP SDK does), so each block prints what it would print alone.
    """
    blocks = [b for b in RUNNABLE if b.lang == "python" and b.not_run is None]
    done = subprocess.run(
        [sys.executable, "-c", RUNNER],
        input=json.dumps([{"id": b.id, "code": b.code} for b in blocks]),
        capture_output=True,
        text=True,
        cwd=workdir,
        env=environment(),
        timeout=TIMEOUT * 2,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {b.id: r for b, r in zip(blocks, json.loads(done.stdout), strict=True)}


@pytest.mark.parametrize("block", RUNNABLE, ids=lambda b: b.id)
def test_the_block_runs_and_prints_what_the_document_shows(
    block: Block, workdir: Path, python_outputs: dict[str, dict[str, str]]
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
            cwd=workdir,
            env=environment(),
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


def test_python_dash_m_chartkit_payload_prints_no_warning(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-W", "default", "-m", "chartkit.payload"],
        capture_output=True,
        cwd=tmp_path,
        env=environment(),
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


def test_what_the_documents_write_stays_in_the_temporary_directory(
    python_outputs: dict[str, dict[str, str]], workdir: Path
) -> None:
    """Runs last: whatever the blocks wrote is in ``workdir``, and none of it in the checkout."""
    written = sorted(p.name for p in workdir.iterdir() if p.name not in ("examples", "app"))
    assert written  # the blocks do write files (charts, staged Parquet, a CSV)
    tracked = set(
        subprocess.run(
            ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.split()
    )
    leftovers = [n for n in written if (REPO / n).exists() and n not in tracked]
    assert leftovers == [], f"the checkout holds what the documents write: {leftovers}"
