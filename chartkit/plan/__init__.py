"""Choosing the chart: column profiles → the rule table (data, executed) → a typed chart spec.

Nothing here reads a frame: the rules bind to ``ColumnProfile`` values (declared type, counts,
distinct values), and what they yield is a ``ChartSpec`` — mark, channels, the reduction a
backend computes (group keys, time bucket, bins, aggregate, top-N) — with structured ``Note``
values whose sentence is made once, from their fields.

- ``chartkit.plan.rules``: ``RULES`` (each rule's typed needs, its reason), ``candidates()``,
  ``rule_table()`` (the Markdown table docs/rules.md holds).
- ``chartkit.plan.spec``: ``ChartSpec``, ``ChannelSpec``, ``Reduction``, ``Note``.
"""

from __future__ import annotations

from chartkit.plan.rules import RULES, Alternative, Need, Rule, candidates, rule_table
from chartkit.plan.spec import ChannelSpec, ChartSpec, Note, Reduction

__all__ = [
    "RULES",
    "Alternative",
    "ChannelSpec",
    "ChartSpec",
    "Need",
    "Note",
    "Reduction",
    "Rule",
    "candidates",
    "rule_table",
]
