"""``python -m chartkit.plan``: rewrite docs/rules.md's role, criteria and rule tables."""

from __future__ import annotations

import pathlib
import sys

from chartkit.plan.rules import documented

path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rules.md"
path.write_text(documented(path.read_text(encoding="utf-8")), encoding="utf-8")
sys.stdout.write(f"wrote the role, criteria and rule tables of {path}\n")
