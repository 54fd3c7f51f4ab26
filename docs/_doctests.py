"""A griffe extension for the API pages: each docstring's doctest is shown as a code block.

chartkit's docstrings carry their examples as bare doctests (``>>> call`` then the output), the
form ``pytest --doctest-modules`` and ``help()`` read. Markdown would read ``>>>`` as a quote
three deep and ``[('a', 1)]`` in an output as a link, so each run of doctest lines — the
prompts and the output up to the next blank line — is fenced as ``pycon`` before mkdocstrings
renders it. The docstrings themselves are left as written.
"""

from __future__ import annotations

from typing import Any

import griffe

__all__ = ["DoctestsAsCode", "fence_doctests"]


def fence_doctests(text: str) -> str:
    """``text`` with every doctest run (``>>>`` to the next blank line) inside a pycon fence."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.lstrip().startswith(">>>"):
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        run: list[str] = []
        while i < len(lines) and lines[i].strip():
            run.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        out.extend([f"{indent}```pycon", *(f"{indent}{r}" for r in run), f"{indent}```"])
    return "\n".join(out)


class DoctestsAsCode(griffe.Extension):
    """Fences the doctests of every object griffe loads (see the module's docstring)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, once it is loaded, for the page only."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
