"""Choosing the chart: column profiles → the rule table (data, executed) → a typed chart spec.

Choosing reads no frame: the rules bind to ``ColumnProfile`` values (declared type, counts,
distinct values), and what they yield is a ``ChartSpec`` — mark, channels, the reduction a
backend computes (group keys, time bucket, bins, aggregate, top-N) — with structured ``Note``
values whose sentence is made once, from their fields.

- ``chartkit.plan.rules``: ``RULES`` (each rule's typed needs, its reason), ``candidates()``,
  ``rule_table()`` (the Markdown table docs/rules.md holds).
- ``chartkit.plan.choose``: what picked columns draw, and what the automatic chart tries,
  from profiles alone.
- ``chartkit.plan.spec``: ``ChartSpec``, ``ChannelSpec``, ``Reduction``, ``Note``.
- ``chartkit.plan.decide``: ``plan_view``, the planner that draws the chosen chart into a
  ``Plan``, with its parts (``lines``, ``bars``, ``points``, ``cleaning``, ``refusing``,
  ``writing``; ``kit`` and ``sentences`` are what they share). The planner draws from the
  rows in memory (its numpy fast paths, ``reduce``) or asks the backend that holds them
  (``decide.Whole``: ``bins.Counts``, ``groups.Grouped``, ``groups.Fetched``,
  ``groups.Said``, ``facts.Facts``), the same rules either way.

Each name is imported from its module; importing this package imports none of them.
"""

from __future__ import annotations

__all__: list[str] = []
